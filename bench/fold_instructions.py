"""The read and the fold of a journal counted in what a loaded machine does not change:
instructions (under valgrind's callgrind) and Python calls (cProfile).

    # instructions: run three times under callgrind, each prints "Collected : N"
    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
        .venv/bin/python bench/fold_instructions.py JOURNAL --events 20000 --upto none
    ... --upto read    # imports, and the first 20,000 rows read as events
    ... --upto fold    # and folded: fold = fold - read, read = read - none
    ... --upto replay  # the replay as the hub runs it: rows streamed into the fold, the
                       # collector paused (conductor.replay(read_events(...))); less none
    ... --upto stream  # the read as the replay runs it: rows streamed, each event dropped,
                       # the collector paused (`read` keeps every event, and the collector's
                       # passes over them, about 4,600 instructions a row, are in its count)
    ... --upto audit   # the audit as the hub's start-up runs it: rows streamed into
                       # conductor.audit (every input admitted again); less stream: the audit's
                       # own part, against replay less stream: the fold's
    # calls: the read, the fold and the audit of every row (events in memory), counted by cProfile
    .venv/bin/python bench/fold_instructions.py JOURNAL --calls
    # another commit's code, checked out at DIR (git worktree add DIR REV): --tree DIR

JOURNAL: a journal as bench/replay_bench.py builds it (a copy: a reader never writes it,
but a hub opening it would). The figures are in docs/performance.md, section 4.
"""
from __future__ import annotations

import argparse
import cProfile
import itertools
import pstats
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("journal")
    ap.add_argument("--events", type=int, default=None, help="the first N rows (default: all)")
    ap.add_argument("--upto", choices=("none", "read", "fold", "replay", "stream", "audit"), default="fold")
    ap.add_argument("--calls", action="store_true", help="count Python calls (cProfile), not run for callgrind")
    ap.add_argument("--tree", default=str(ROOT), help="the project's code to import (default: this tree)")
    args = ap.parse_args()
    sys.path[:0] = [args.tree]
    from hub import conductor   # the kinds' readers are registered by the conductor's import
    from hub.journal import open_reader, read_events

    def read() -> list:
        return list(itertools.islice(read_events(open_reader(args.journal)), args.events))

    if args.calls:
        for what, run in (("read", read), ("fold", lambda: conductor.replay(events)),
                          ("audit", lambda: conductor.audit(events))):
            profile = cProfile.Profile()
            result = profile.runcall(run)
            if what == "read":
                events = result
            print(f"{what}: {pstats.Stats(profile).total_calls:,} Python calls, {len(events):,} events")
        return
    if args.upto == "none":
        return
    if args.upto == "replay":
        conductor.replay(itertools.islice(read_events(open_reader(args.journal)), args.events))
        return
    if args.upto == "audit":
        conductor.audit(itertools.islice(read_events(open_reader(args.journal)), args.events))
        return
    if args.upto == "stream":
        with conductor.collector_paused():
            for _ in itertools.islice(read_events(open_reader(args.journal)), args.events):
                pass
        return
    events = read()
    if args.upto == "fold":
        conductor.replay(events)


if __name__ == "__main__":
    main()
