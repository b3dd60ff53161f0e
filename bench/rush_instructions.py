"""The rush after the bell counted in what a loaded machine does not change: instructions
under valgrind's callgrind (or, without it, Python calls under cProfile), part by part, for
the hub's work between the tables' 200 results and the screens' frames.

    # once per tree: the party of bench/rush_bench.py (200 tables, a Draw party) played to the
    # bell ringing "finish" and acknowledged, its journal; and each table's game 4, in DIR
    .venv/bin/python bench/rush_instructions.py setup DIR [--tree TREE]
    # then, under callgrind: one dump a part a batch, summed by part
    valgrind --tool=callgrind --callgrind-out-file=/tmp/rush-cg.out \\
        .venv/bin/python bench/rush_instructions.py run DIR [--tree TREE] [--batches "32 165 3"] \\
        [--views each|last] [--no-seal] [--edge]
    .venv/bin/python bench/rush_instructions.py sum /tmp/rush-cg.out      # instructions a part

The rush as a live hub takes it (hub/service.py): the 200 results in the batches the writer
made of them (`--batches`, their sizes: bench/rush_bench.py prints a rush's as "the rush's
batches"), and after each batch what follows it there —
    writer    `Hub.write_batch`: the batch step (judge), the journal's commit, the acks, the
              bell, the tables' retained screens (queued to a broker never connected)
    view      the projection's follower: the standings, the projector's view, its JSON
              (web/projection.py, once a journal position, in the hub's cache)
    streams   the 20 screens' SSE streams (web/standings.py) each taking the new view's frame,
              the change from the view each sent before made once (web/frames.py) and sent
              where it is the smaller (through Flask's test client: werkzeug's socket
              writes are not in it)
    edge      with `--edge`: the batch read off a loopback socket standing for the broker
              (`Hub._take`: paho's read, the hub's `on_message`); the writer's replies then
              go out through the edge (`reply`, the coalesced `send`), in the writer's part
`--views last`: one view after the rush's last batch, as a follower that waits for the writer
to catch up makes it (`each`: one after every batch). The GC callbacks of hub/tail.py are on
where the tree has them, as in a live hub. `--no-seal` (issue 24's seal, a declared change:
bench/across.py "journal-seal", "ack-seal"): the chain's hash, the row's fields spelled for
it and the head record's write replaced by nothing, the rest as it is. The collector is
emptied before the rush: where its passes fall is the bench's start-up's doing; what each
part leaves it is printed instead. TREE: another commit's checkout (git worktree add
TREE REV), set up with its own code (a journal as that commit writes it). Figures and
commands: docs/performance.md, section 3, "Session 13: the rush counted" and "Session 14:
the writer and the edge counted against 20672b9".
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import pickle
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLES, SCREENS = 200, 20
PARTS = ("writer", "view", "streams")
RUSH_BATCHES = "32 165 3"   # a live rush's: bench/rush_bench.py at 5a259f8, the machine at load ~5


def setup(where: Path) -> None:
    """The steady phase of bench/rush_bench.py keyed round by round (the same results), the
    bell rung and acknowledged by every table, then the hub stopped: the rush's starting line."""
    import asyncio

    from bench.hub_bench import results
    from bench.room import HubProcess, Room
    from bench.rush_bench import PARTY
    from party.broker import Mosquitto
    where.mkdir(parents=True, exist_ok=True)
    broker = Mosquitto().start()
    hub = HubProcess(where / "journal.sqlite3", broker.port)
    try:
        hub.call("party", dict(tables=TABLES, **PARTY))
        bodies = results(PARTY, hub.call("seats"), TABLES, 4, 1)
        room = Room(TABLES)

        async def play() -> list[tuple[int, bytes]]:
            await room.connect(broker.host, broker.port)
            await room.until(lambda: all(t.screen for t in room.tables))
            for game in (1, 2, 3):
                for t in room.tables:
                    ack = await asyncio.wait_for(t.send(*t.event("result", bodies[t.n][game - 1])), 60)
                    if not ack["ok"]:
                        raise SystemExit(f"table {t.n} game {game} refused: {ack['why']}")
            loop = asyncio.get_running_loop()
            bell = await loop.run_in_executor(None, lambda: hub.call("bell", {"meaning": "finish", "timeout": 30.0}))
            if "error" in bell or len(bell["acked"]) < bell["tables"]:
                raise SystemExit(f"the bell was not acknowledged by every table: {bell}")
            await asyncio.sleep(0.5)
            rush = [(t.n, t.event("result", bodies[t.n][3])[1]) for t in room.tables]
            await room.close()
            return rush
        rush = asyncio.run(play())
    finally:
        hub.stop()
        broker.stop()
    (where / "rush.pickle").write_bytes(pickle.dumps(rush))


class Counter:
    """Callgrind's counters dumped at each part's end (a client request through a tiny C
    helper: a `callgrind_control` call between parts would be counted in the next one).
    Without callgrind: cProfile's Python calls a part."""

    def __init__(self):
        self.under_callgrind = "vgpreload" in os.environ.get("LD_PRELOAD", "")
        self.calls: dict[str, int] = {}
        self.kept: dict[str, int] = {}   # containers made and not freed: the collector's to pass over
        if self.under_callgrind:
            self._lib = ctypes.CDLL(str(_helper()))
        else:
            import cProfile
            self._profile = cProfile.Profile

    def part(self, name: str, work) -> None:
        young = gc.get_count()[0]
        self._part(name, work)
        self.kept[name] = self.kept.get(name, 0) + gc.get_count()[0] - young

    def _part(self, name: str, work) -> None:
        if self.under_callgrind:
            self._lib.zero()
            work()
            self._lib.dump(name.encode())
            return
        import pstats
        profile = self._profile()
        profile.runcall(work)
        self.calls[name] = self.calls.get(name, 0) + sum(v[1] for v in pstats.Stats(profile).stats.values())


def _helper() -> Path:
    """The two client requests as a shared library, built once (valgrind's header: Debian's valgrind)."""
    lib = Path(tempfile.gettempdir()) / f"rush-callgrind-{os.getuid()}.so"
    if not lib.exists():
        src = lib.with_suffix(".c")
        src.write_text('#include <valgrind/callgrind.h>\n'
                       'void zero(void) { CALLGRIND_ZERO_STATS; }\n'
                       'void dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }\n')
        subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return lib


def scratch_journal(where: Path, name: str) -> Path:
    """A copy of the party's journal as `setup` left it (at the bell), `name`.sqlite3 in `where`,
    the files of an earlier run of that name removed: each run starts from the same party."""
    scratch = where / f"{name}.sqlite3"
    for stale in where.glob(f"{name}.*"):
        stale.unlink()
    with sqlite3.connect(where / "journal.sqlite3") as src, sqlite3.connect(scratch) as dst:
        src.backup(dst)
    return scratch


def run(where: Path, batches: list[int], views: str, no_seal: bool, edge: bool = False) -> None:
    import logging

    from hub import conductor, protocol
    from hub.service import Hub, TableInput
    from web import create_app
    rush = pickle.loads((where / "rush.pickle").read_bytes())
    if sum(batches) > len(rush):
        raise SystemExit(f"--batches sums to {sum(batches)}, more than the rush's {len(rush)} results")
    rush = rush[:sum(batches)]   # fewer: the rush's first (a view after one entry: `--batches "1 1 1 1"`)
    scratch = scratch_journal(where, "run")
    logging.getLogger("hub").setLevel(logging.ERROR)
    if no_seal:
        without_the_seal()
    hub = Hub(scratch, "127.0.0.1", 1)   # never connected: its publishes are only queued
    if hasattr(hub, "tail"):
        hub.tail.start()   # the collector's callbacks, as a started hub has them
    app = create_app(hub, WEB_STORE=where / "run.web.json", BOARD_CHECK_SECONDS=1e9, SSE_PING_SECONDS=1e9)
    projection = app.extensions["party.projection"]
    projection._follower = threading.current_thread()   # its follower's work is done here, counted
    streams = [_Stream(app) for _ in range(SCREENS)]
    projection.current()
    for s in streams:   # the screens connected before the rush: the stream's first frames
        s.next_standings()
    # and each stream's first look at the boards' telemetry, which comes after its first frame
    # (then once a BOARD_CHECK_SECONDS, a few in a rush of 20 streams, none in this count):
    # one frame more, of a position none of the rush's, that the next view replaces
    # (kept as the view it is, so that the rush's frame is the change from it, as a live
    # stream's: made, and sent where it is the smaller)
    made = projection._key
    projection._key = (-1, made[1])
    projection._kept[projection._key] = projection._kept[made]
    for s in streams:
        s.next_standings()
    projection._key = made
    # The collector's passes fall where its count of new containers reaches the threshold
    # (10,000 in a hub: hub/conductor/fold.py), which the bench's own start-up decides, not
    # the rush: one pass in a part was a tenth of it in one tree and nothing in another.
    # Collected before the rush, no pass falls in it; what each part leaves to the next
    # pass is counted instead (`kept`: a youngest pass costs about as much a container).
    # A live hub has judged results before the rush (the steady phase): what the first result a
    # process judges compiles once (the entry form's checker, hub/scoring/values.py: 10-11 M
    # instructions, counted in the rush's first batch until session 17) is made here, by a
    # judgement of the rush's first result that nothing keeps (`admit` is pure).
    conductor.admit(hub.state, protocol.parse_event(*rush[0]), hub.state.seq, time.time())
    gc.collect()
    count, made = Counter(), 0
    inputs = [TableInput(table, payload) for table, payload in rush]
    broker = _Broker(hub) if edge else None
    for i, size in enumerate(batches):
        start = sum(batches[:i])
        batch = inputs[start:start + size]
        if broker:   # the batch read off the broker's socket: it is the hub's own inputs then
            broker.send(rush[start:start + size])
            taken: list = []
            count.part("edge", lambda: taken.extend(broker.take(size)))
            batch = taken
        count.part("writer", lambda: hub.write_batch(batch))
        if broker:
            broker.drain()
        if views == "each" or i == len(batches) - 1:
            count.part("view", projection.current)
            count.part("streams", lambda: [s.next_standings() for s in streams])
            made += 1
    print(f"{len(rush)} results in batches of {' '.join(map(str, batches))}; {made} views, {SCREENS} screens"
          + ("; without the seal" if no_seal else "") + ("; through the edge" if edge else ""))
    if broker:
        print(f"the edge wrote {broker.received:,} bytes of replies")
    for name, calls in count.calls.items():
        print(f"{name}: {calls} Python calls")
    print("containers left to the collector: " + ", ".join(f"{name} {n}" for name, n in count.kept.items()))
    hub.journal.close()


class _Broker:
    """The broker's end of the hub's MQTT connection, a loopback TCP socket of this process:
    it accepts the hub's CONNECT, hands it each batch's PUBLISH packets at the hub's QoS 0,
    and takes the hub's replies. The hub's client is the one it runs with (hub/edge.py), made
    to dial this socket instead of a broker."""

    CONNACK = bytes((0x20, 2, 0, 0))   # session not present, accepted

    def __init__(self, hub):
        import socket
        from hub.edge import publish_packet
        from hub.protocol import table_topic
        self._packet, self._topic, self._hub, self.received = publish_packet, table_topic, hub, 0
        listener = socket.create_server(("127.0.0.1", 0))
        dialled = socket.socket()
        # a batch's replies (~200 KB for 165 screens) taken by the kernel at once
        dialled.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 22)
        dialled.connect(listener.getsockname())
        self._sock, _ = listener.accept()
        listener.close()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        hub.mqtt.connect_async("127.0.0.1", 1, keepalive=3600)   # its address: never dialled
        hub.mqtt.dialled = dialled
        hub.mqtt.reconnect()
        hub._link.flush()   # its CONNECT
        self._sock.settimeout(5)
        self._sock.recv(1 << 16)
        self._sock.sendall(self.CONNACK)
        # connected (on_connect: the subscription, the hub's status), then the screens a
        # reconnect republishes: before the rush, not counted
        hub.write_batch(self.take(0))
        self.drain()

    def send(self, inputs) -> None:
        self._sock.sendall(b"".join(self._packet(self._topic(table, "event").encode(), payload, False)
                                    for table, payload in inputs))

    def take(self, n: int) -> list:
        """What the hub's writer reads next (`Hub._take`: paho's read, the hub's on_message),
        until `n` table inputs are in."""
        taken: list = []
        for _ in range(1000):
            taken += self._hub._take(0.0)
            if len(taken) >= n:   # in the rush, nothing else is queued
                return taken
        raise SystemExit(f"the edge read {len(taken)} of {n} inputs")

    def drain(self) -> None:
        """Take the hub's replies off the socket (not counted)."""
        self._sock.setblocking(False)
        try:
            while data := self._sock.recv(1 << 20):
                self.received += len(data)
        except BlockingIOError:
            pass
        finally:
            self._sock.settimeout(5)


class _Stream:
    """One screen's SSE stream, read frame by frame through Flask's test client."""

    def __init__(self, app):
        self._frames = iter(app.test_client().get("/stream", buffered=False).response)

    def next_standings(self) -> None:
        for frame in self._frames:
            if frame[:3] in (b"id:", "id:"):   # the standings' (a tree's frames are str or bytes)
                return


def without_the_seal() -> None:
    """Issue 24's seal taken out of the count: no hash a row and no fields spelled for it
    (hub/journal.py spells the link out with its module's hashlib and orjson), no head record
    written. Left in: the seal's column (each row's the chain's start) and the acks' key."""
    from types import SimpleNamespace

    from hub import journal, seal
    unsealed = SimpleNamespace(hexdigest=lambda: seal.START)
    journal.hashlib = SimpleNamespace(sha256=lambda data: unsealed)
    # nor the row's fields spelled for the hash (a tuple; the rest of the module's orjson as it is)
    spelled = journal.orjson
    journal.orjson = SimpleNamespace(dumps=lambda obj: b"" if type(obj) is tuple else spelled.dumps(obj),
                                     loads=spelled.loads, JSONDecodeError=spelled.JSONDecodeError)
    seal.HeadRecord.write = lambda self, seq, head: None


def sums(out: str) -> dict[str, int]:
    """Instructions a part, summed over the dumps of one callgrind run (`--callgrind-out-file`)."""
    total: dict[str, int] = {}
    for dump in Path(out).parent.glob(Path(out).name + ".*"):
        text = dump.read_text(errors="replace")
        part = re.search(r"^desc: Trigger: Client Request: (\S+)", text, re.M)
        figure = re.search(r"^(?:totals|summary): (\d+)", text, re.M)
        if part and figure:
            total[part.group(1)] = total.get(part.group(1), 0) + int(figure.group(1))
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=("setup", "run", "sum"))
    ap.add_argument("dir", help="setup/run: the party's directory; sum: callgrind's --callgrind-out-file")
    ap.add_argument("--tree", default=str(ROOT), help="the project's code to import (default: this tree)")
    ap.add_argument("--batches", default=RUSH_BATCHES, help="the writer's batches, their sizes")
    ap.add_argument("--views", choices=("each", "last"), default="each")
    ap.add_argument("--no-seal", action="store_true")
    ap.add_argument("--edge", action="store_true", help="the inputs read and the replies written through the "
                    "hub's MQTT edge, a socket to this process (part `edge`: the reading; the writing is the writer's)")
    args = ap.parse_args()
    if args.step == "sum":
        print(json.dumps(sums(args.dir)))
        return
    sys.path[:0] = [args.tree]
    if args.step == "setup":
        setup(Path(args.dir))
    else:
        run(Path(args.dir), [int(n) for n in args.batches.split()], args.views, args.no_seal, args.edge)


if __name__ == "__main__":
    main()
