"""The hub's writer (`Hub.write_batch`, no broker) counted in what a loaded machine does not
change: instructions under valgrind's callgrind, for admitted results and for refused ones
(ALREADY SAVED), in batches of the size the hub takes them in a room (8 by default; the
writer-alone bench's 50 hides what each batch costs).

    # once per tree: a party of 50 tables (its journal) and the tables' payloads, in DIR
    # (--tables 200 --games 40, and `run` with --events 8000 --batch 50: hub_bench's writer alone)
    .venv/bin/python bench/writer_instructions.py setup DIR [--tree TREE] [--tables 50] [--games 20]
    # then, under callgrind: two dumps, DIR's admitted results (out.1) and refusals (out.2)
    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
        .venv/bin/python bench/writer_instructions.py run DIR [--tree TREE] [--events 500] [--batch 8] [--no-seal]
    grep summary /tmp/cg.out.1 /tmp/cg.out.2     # divided by --events: instructions per event
    # (`summary:`, the part's total as callgrind_annotate reads it: `totals:` runs 6 % over it
    # in dumps made by callgrind_control)

TREE: another commit's checkout (git worktree add TREE REV); its own `setup` (a journal
as that commit writes it). Without callgrind, `run` counts Python calls (cProfile) instead.
The figures are in docs/performance.md, section 3, "Session 11: the hub's CPU per event".
"""
from __future__ import annotations

import argparse
import gc
import os
import pickle
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLES, GAMES = 50, 20


def setup(where: Path, tables: int = TABLES, games: int = GAMES) -> None:
    from bench.hub_bench import results
    from bench.room import HubProcess, Room
    from party.broker import Mosquitto
    where.mkdir(parents=True, exist_ok=True)
    body = {"form": "draw", "games_per_session": games, "sessions": 1, "seat_check": False}
    broker = Mosquitto().start()
    try:
        hub = HubProcess(where / "journal.sqlite3", broker.port)
        hub.call("party", dict(tables=tables, **body))
        seats = hub.call("seats")
        hub.stop()
    finally:
        broker.stop()
    bodies = results(body, seats, tables, games, 1)
    room = Room(tables, ack_bells=False)
    # in the order a room sends them: every table's first result, then every second...
    admitted = [(t.n, t.event("result", bodies[t.n][g])[1]) for g in range(games) for t in room.tables]
    # game 1 again under new ids (boot 2 of each board): ALREADY SAVED
    refused = [(t.n, t.event("result", bodies[t.n][0], f"{t.board}.2.{i}")[1]) for i in range(games)
               for t in room.tables]
    (where / "payloads.pickle").write_bytes(pickle.dumps((admitted, refused)))


def run(where: Path, events: int, batch: int, no_seal: bool = False) -> None:
    import logging

    from hub.service import Hub, TableInput
    if no_seal:   # issue 24's seal out of the count, as bench/rush_instructions.py takes it out
        from bench.rush_instructions import without_the_seal
        without_the_seal()
    admitted, refused = pickle.loads((where / "payloads.pickle").read_bytes())
    scratch = where / "run.sqlite3"
    for stale in (scratch, Path(f"{scratch}-head"), Path(f"{scratch}-wal"), Path(f"{scratch}.runs.json")):
        stale.unlink(missing_ok=True)
    with sqlite3.connect(where / "journal.sqlite3") as src, sqlite3.connect(scratch) as dst:
        src.backup(dst)
    logging.getLogger("hub").setLevel(logging.ERROR)
    hub = Hub(scratch, "127.0.0.1", 1)   # never connected: its publishes are only queued
    under_callgrind = "vgpreload" in os.environ.get("LD_PRELOAD", "")   # valgrind's preloads
    profiler = None
    if not under_callgrind:
        import cProfile
        profiler = cProfile.Profile()
    # the refusals need game 1 saved: the admitted part is at least a round of every table
    tables = len({table for table, _ in admitted})
    for name, part in (("admitted", admitted[:max(events, tables)]), ("refused", refused[:events])):
        inputs = [TableInput(table, payload) for table, payload in part]
        # no pass of the collector where the bench's own start-up left its count (its passes
        # fall once a hub's writer has made 10,000 containers: bench/rush_instructions.py)
        gc.collect()
        _control(under_callgrind, "-z")   # zeroed: this part alone
        if profiler:
            profiler.enable()
        for i in range(0, len(inputs), batch):
            hub.write_batch(inputs[i:i + batch])
        if profiler:
            profiler.disable()
            import pstats
            calls = sum(v[1] for v in pstats.Stats(profiler).stats.values())
            print(f"{name}: {len(inputs)} inputs, {calls / len(inputs):.1f} Python calls per input")
            profiler = cProfile.Profile()
        _control(under_callgrind, "-d")   # dumped: one file a part
    hub.journal.close()


def _control(under_callgrind: bool, what: str) -> None:
    if under_callgrind:
        subprocess.run(["callgrind_control", what, str(os.getpid())], stdout=subprocess.DEVNULL, check=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=("setup", "run"))
    ap.add_argument("dir")
    ap.add_argument("--tree", default=str(ROOT), help="the project's code to import (default: this tree)")
    ap.add_argument("--tables", type=int, default=TABLES, help="setup: the party's tables")
    ap.add_argument("--games", type=int, default=GAMES, help="setup: results per table")
    ap.add_argument("--events", type=int, default=500)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--no-seal", action="store_true", help="issue 24's seal left out (bench/rush_instructions.py)")
    args = ap.parse_args()
    sys.path[:0] = [args.tree]
    if args.step == "setup":
        setup(Path(args.dir), args.tables, args.games)
    else:
        run(Path(args.dir), args.events, args.batch, args.no_seal)


if __name__ == "__main__":
    main()
