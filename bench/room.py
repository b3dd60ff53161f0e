"""What the hub benches share: the hub in a child process, and a room of tables.

The hub runs as `party run` runs it — one process, MQTT edge (paho), the single
writer, the journal with synchronous=FULL, optionally the web app with its SSE
stream — in a child process, so the load generator in this process does not
share its GIL. The child obeys commands sent over a pipe (set up a party, ring
the conductor's bell and watch the acks arrive, report its counters).

`Room` is N tables speaking docs/protocol.md over one asyncio event loop
(bench/mqtt_lite.py): each subscribes to its ack, its retained screen and the
broadcast, acknowledges each conductor's bell once as a board does, and keys
results with a window of unacknowledged events, as a board's outbox sends.
Times are `time.monotonic()`, one clock for every process on the machine.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing as mp
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.mqtt_lite import LiteClient  # noqa: E402
from hub import protocol  # noqa: E402


def machine() -> str:
    import os
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}; load average before the run {load}")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def spread(ms: list[float]) -> str:
    return (f"p50 {statistics.median(ms):7.1f} ms  p99 {percentile(ms, 99):7.1f} ms  "
            f"max {max(ms):7.1f} ms  (n={len(ms)})")


# ----- the hub, in a child process ------------------------------------------------------

def _hub_child(journal: str, broker_port: int, web: bool, profile: bool, conn) -> None:
    import logging
    logging.basicConfig(level=logging.ERROR)  # a refusal is logged at INFO/WARNING per event
    logging.getLogger("hub").setLevel(logging.WARNING)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per request otherwise
    import uuid

    from hub.event import Proposal
    from hub.service import Hub

    profiler = None
    if profile:
        # cProfile sees only the thread that enables it: wrap the writer's batch.
        import cProfile
        profiler = cProfile.Profile()
        original = Hub.write_batch

        def profiled(self, items):
            profiler.enable()
            try:
                return original(self, items)
            finally:
                profiler.disable()
        Hub.write_batch = profiled

    t0 = time.monotonic()
    hub = Hub(journal, "127.0.0.1", broker_port)
    replayed = time.monotonic() - t0
    # The bench's tables publish as soon as they are connected and, unlike a board, never
    # resend: an event that reaches the broker before the hub's subscription is gone, and
    # the run waits for its ack until it times out. The hub connects on its writer's
    # thread after start(); the bench goes on once the broker has granted the subscription.
    hub.start()
    if not hub.listening.wait(30):
        raise RuntimeError("the hub did not subscribe within 30 s")
    web_server = None
    if web:
        from web import create_app
        from web.server import WebServer
        web_server = WebServer(create_app(hub, WEB_STORE=Path(journal).with_suffix(".web.json"))).start()

    def staff(kind: str, body: dict):
        v = hub.submit(Proposal(f"staff-bench-{uuid.uuid4().hex[:16]}", "staff:bench", kind, body))
        return v.ok, v.why

    conn.send({"web_port": web_server.port if web_server else None, "seq": hub.seq, "replayed_s": replayed})
    while True:
        cmd, args = conn.recv()
        if cmd == "stop":
            break
        if cmd == "staff":
            conn.send(staff(*args))
        elif cmd == "party":
            conn.send(_set_up(hub, staff, **args))
        elif cmd == "bell":
            conn.send(_bell_until_acked(hub, staff, **args))
        elif cmd == "seats":
            s = hub.state.session
            conn.send({n: t.seats for n, t in s.tables.items()} if s else {})
        elif cmd == "seq":
            conn.send(hub.seq)
        elif cmd == "watch":   # hub/tail.py: a thread that notes when the process held it up
            hub.tail.watch()
            conn.send(thread_cpu())
        elif cmd == "tail":    # where the hub's time went (bench/tail_report.py reads it)
            conn.send({"batches": list(hub.tail.batches), "views": list(hub.tail.views), "frames": list(hub.tail.frames),
                       "pauses": list(hub.tail.pauses), "checkpoints": list(hub.tail.checkpoints),
                       "threads": thread_cpu()})
        elif cmd == "cpu":   # this process's CPU seconds: the hub's cost, whatever else the machine runs
            conn.send(time.process_time())
        elif cmd == "profile":
            import io
            import pstats
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(args or 25)
            conn.send(out.getvalue())
    if web_server:
        web_server.stop()
    hub.stop()
    conn.send("stopped")


def thread_cpu() -> dict[str, float]:
    """CPU seconds of this process's threads so far, by what they are: the writer, the
    projection, the web's request threads (the SSE streams) together, the rest."""
    import os
    import re
    import threading
    names = {t.native_id: t.name for t in threading.enumerate()}
    tick, out = os.sysconf("SC_CLK_TCK"), {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue   # ended meanwhile
        name = names.get(int(tid), "other")
        name = "web requests" if "process_request" in name else re.sub(r"-\d+$", "", name)
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def _set_up(hub, staff, *, tables: int, form: str = "draw", **setup) -> dict:
    from hub.conductor import events as k
    steps = [(k.PARTY_CREATED, {"form": form, "tables": tables, **setup})]
    for g in (f"Guest {i}" for i in range(1, 4 * tables + 1)):
        steps += [(k.GUEST_LISTED, {"guest": g}), (k.CHECKED_IN, {"guest": g})]
    steps += [(k.DRAW_SEATS, {"seed": 1896}), (k.SESSION_STARTED, {"session": 1})]
    for kind, body in steps:
        ok, why = staff(kind, body)
        if not ok:
            raise RuntimeError(f"{kind} refused: {why}")
    return {"seq": hub.seq}


def _bell_until_acked(hub, staff, *, meaning: str, timeout: float) -> dict:
    """Ring the conductor's bell; the time each table's bell-ack is in the state
    (so committed: the writer sets the state after the journal's COMMIT)."""
    from hub.conductor import events as k
    tables = sorted(hub.state.session.tables)
    t0 = time.monotonic()
    ok, why = staff(k.BELL, {"meaning": meaning})
    committed = time.monotonic()
    if not ok:
        return {"error": why}
    bell = hub.state.session.bell.id
    acked: dict[int, float] = {}
    seq, deadline = hub.seq, t0 + timeout
    while len(acked) < len(tables) and time.monotonic() < deadline:
        seq = hub.wait_for_change(seq, 0.05)
        now, s = time.monotonic(), hub.state.session
        for n in tables:
            if n not in acked and bell in s.tables[n].acks:
                acked[n] = now
    return {"t0": t0, "committed": committed, "bell": bell, "acked": acked, "tables": len(tables)}


class HubProcess:
    """The hub (and with web=True its web app) in a child process, driven by commands."""

    def __init__(self, journal: Path, broker_port: int, web: bool = False, profile: bool = False):
        ctx = mp.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_hub_child, args=(str(journal), broker_port, web, profile, child),
                                daemon=True)
        self.proc.start()
        hello = self._conn.recv()
        self.web_port, self.started_seq, self.replayed_s = hello["web_port"], hello["seq"], hello["replayed_s"]

    def call(self, cmd: str, args=None, timeout: float = 300):
        self._conn.send((cmd, args))
        if not self._conn.poll(timeout):
            raise TimeoutError(f"the hub did not answer {cmd} in {timeout} s")
        return self._conn.recv()

    def stop(self) -> None:
        if self.proc.is_alive():
            try:
                self.call("stop", timeout=30)
            except (TimeoutError, EOFError, BrokenPipeError):
                self.proc.kill()
        self.proc.join(10)


# ----- the room of tables -------------------------------------------------------------------

class Table:
    """One table's board as the hub sees it (docs/protocol.md), on the shared event loop."""

    def __init__(self, room: "Room", n: int):
        self.room, self.n, self.board = room, n, f"bench-{n}"
        self.client = LiteClient(f"{self.board}-{time.monotonic_ns()}", self._on_message)
        self.screen: dict | None = None
        self.bells: set[str] = set()
        self.waiting: dict[str, asyncio.Future] = {}   # event id -> future of its ack
        self._seq = 0

    def topic(self, leaf: str) -> str:
        return protocol.table_topic(self.n, leaf)

    async def connect(self, host: str, port: int, subscribe: bool = True) -> None:
        offline = json.dumps({"v": 1, "state": "offline", "board": self.board}).encode()
        await self.client.connect(host, port, will=(self.topic("status"), offline, 1, True))
        if subscribe:
            await self.client.subscribe([(self.topic("ack"), 1), (self.topic("screen"), 1), (protocol.ALL_CMD, 1)])

    def next_id(self) -> str:
        self._seq += 1
        return f"{self.board}.1.{self._seq}"

    def event(self, kind: str, body: dict, event_id: str | None = None) -> tuple[str, bytes]:
        event_id = event_id or self.next_id()
        return event_id, json.dumps({"v": 1, "id": event_id, "table": self.n, "kind": kind, "body": body},
                                    separators=(",", ":")).encode()

    def send(self, event_id: str, payload: bytes) -> asyncio.Future:
        """Publish an event; the future resolves to the hub's ack (a dict)."""
        ack = asyncio.get_running_loop().create_future()
        self.waiting[event_id] = ack
        self.client.publish(self.topic("event"), payload, qos=1)
        return ack

    def _on_message(self, topic: str, payload: bytes) -> None:
        msg = json.loads(payload)
        leaf = topic.rsplit("/", 1)[1]
        if leaf == "ack":
            f = self.waiting.pop(msg.get("id"), None)
            if f and not f.done():
                f.set_result(msg)
            return
        if leaf == "screen":
            self.screen = msg
        bell = msg.get("bell")
        if bell and bell["id"] not in self.bells and self.room.ack_bells:
            # a board acknowledges each bell once, after showing it
            self.bells.add(bell["id"])
            self.send(*self.event("bell-ack", {"bell": bell["id"]}))


class Room:
    def __init__(self, tables: int, ack_bells: bool = True):
        self.ack_bells = ack_bells
        self.tables = [Table(self, n) for n in range(1, tables + 1)]

    async def connect(self, host: str, port: int, subscribe: bool = True) -> None:
        for i in range(0, len(self.tables), 50):  # not 200 SYNs at once at the broker's backlog
            await asyncio.gather(*(t.connect(host, port, subscribe) for t in self.tables[i:i + 50]))

    async def close(self) -> None:
        await asyncio.gather(*(t.client.close() for t in self.tables))

    async def until(self, condition, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("the room did not get there in time")
            await asyncio.sleep(0.01)
