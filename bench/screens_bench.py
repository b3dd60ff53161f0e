"""Entry-to-screen latency: from a table's entry to the projected standings of every screen.

    python bench/screens_bench.py [--tables 50] [--screens 20] [--games 4] [--gap 2.0]

A hub and its web app run in a child process, as `party run` runs them (one
process: MQTT edge, single writer, journal with synchronous=FULL, SSE). This
process plays the room: `--tables` protocol-speaking tables on a Mosquitto
broker (hardware/sim/protocol_table.py) and `--screens` SSE clients reading
/stream as the projector page does. Each table keys `--games` games, one every
`--gap` seconds on average (uniformly random gaps, so the room's entries
interleave as they do at a party), then all tables key their next game at the
same moment (the rush when the bell rings).

Latency of one entry at one screen = the time from publishing the entry to the
arrival at that screen of the first frame (a `standings` message, the whole view,
or a `change`) whose id (the journal seq) is at least the seq the hub acknowledged for the entry. Printed: p50, p99
and max over every (entry, screen) pair, for the steady phase and the rush.
"""
from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.screens_apart import KINDS, Arrivals  # noqa: E402


def run_hub(broker_port: int, tables: int, ready, stop) -> None:
    """The child: hub + web app, a party of `tables` tables under way."""
    import logging
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)   # one line per request otherwise
    import uuid

    from hub.conductor import events as ev
    from hub.event import Proposal
    from hub.service import Hub
    from web import create_app
    from web.server import WebServer

    work = Path(tempfile.mkdtemp(prefix="screens-bench-"))
    hub = Hub(work / "journal.sqlite3", "127.0.0.1", broker_port).start()

    def submit(kind, body):
        v = hub.submit(Proposal(f"staff.bench.{uuid.uuid4().hex[:16]}", "staff:bench", kind, body))
        assert v.ok, (kind, v.why)

    submit(ev.PARTY_CREATED, {"form": "draw", "tables": tables, "seat_check": False})
    for i in range(tables * 4):
        submit(ev.GUEST_LISTED, {"guest": f"Guest {i + 1}"})
        submit(ev.CHECKED_IN, {"guest": f"Guest {i + 1}"})
    submit(ev.DRAW_SEATS, {"seed": 1896})
    submit(ev.SESSION_STARTED, {"session": 1})
    web = WebServer(create_app(hub, WEB_STORE=work / "web.json")).start()
    ready.send(web.port)
    stop.wait()
    web.stop()
    hub.stop()


class Screen(threading.Thread, Arrivals):
    """One projector: reads /stream and notes when each frame (whole or change) arrived."""

    def __init__(self, port: int):
        threading.Thread.__init__(self, daemon=True)
        Arrivals.__init__(self)
        self.port = port
        self.connected = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/stream", headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        self.connected.set()
        seq, kind, data = None, None, b""
        for raw in response.fp:
            line = raw.rstrip(b"\n")
            if line.startswith(b"id: "):
                seq = int(line[4:])
            elif line.startswith(b"event: "):
                kind = line[7:].decode()
            elif line.startswith(b"data: "):
                data = line[6:]
            elif not line:
                if kind in KINDS and seq is not None:
                    self.arrived(time.monotonic(), kind, seq, data)
                seq, kind, data = None, None, b""


def key(table, game: int, log: list, lock) -> None:
    from party.hands import draw_game
    sent = time.monotonic()
    ack = table.ack_for(table.key_form(draw_game(table.table, game), game=game), timeout=30)
    assert ack["ok"], ack
    with lock:
        log.append((sent, ack["seq"]))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(name: str, entries: list, screens: list[Screen]) -> None:
    latencies = []
    for sent, seq in entries:
        for s in screens:
            arrived = s.first_at_or_after(seq)
            if arrived is None:
                raise SystemExit(f"{name}: a screen never showed seq {seq}")
            latencies.append((arrived - sent) * 1000)
    print(f"{name:>7}: {len(entries):4d} entries x {len(screens)} screens = {len(latencies):5d} samples;"
          f" p50 {statistics.median(latencies):6.1f} ms  p99 {percentile(latencies, 99):6.1f} ms"
          f"  max {max(latencies):6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--screens", type=int, default=20)
    parser.add_argument("--games", type=int, default=3, help="games per table in the steady phase (then the rush)")
    parser.add_argument("--gap", type=float, default=2.0, help="mean seconds between a table's entries")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from party.broker import best_available
    from hardware.sim.protocol_table import ProtocolTable

    broker = best_available().start()
    ctx = mp.get_context("spawn")
    ready_recv, ready_send = ctx.Pipe(duplex=False)
    stop = ctx.Event()
    child = ctx.Process(target=run_hub, args=(broker.port, args.tables, ready_send, stop), daemon=True)
    child.start()
    port = ready_recv.recv()
    try:
        tables = [ProtocolTable(broker.host, broker.port, n) for n in range(1, args.tables + 1)]
        screens = [Screen(port) for _ in range(args.screens)]
        for s in screens:
            s.start()
            s.connected.wait(10)
        time.sleep(1.0)
        rng, lock = random.Random(args.seed), threading.Lock()
        steady: list = []

        def play(table):
            for game in range(1, args.games + 1):
                time.sleep(rng.uniform(0, 2 * args.gap))
                key(table, game, steady, lock)

        workers = [threading.Thread(target=play, args=(t,)) for t in tables]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        rush: list = []
        workers = [threading.Thread(target=key, args=(t, args.games + 1, rush, lock)) for t in tables]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        time.sleep(1.0)   # let the last messages arrive
        print(f"{args.tables} tables, {args.screens} screens, broker {type(broker).__name__},"
              f" hub+web in one child process; {mp.cpu_count()} cores")
        report("steady", steady, screens)
        report("rush", rush, screens)
        for t in tables:
            t.close()
    finally:
        stop.set()
        child.join(15)
        broker.stop()


if __name__ == "__main__":
    main()
