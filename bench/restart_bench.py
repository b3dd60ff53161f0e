"""A hub restarted on the journal it was writing, this tree against another commit: the
start-up a host meets in a party (docs/performance.md section 4, "Session 14").

    python bench/restart_bench.py JOURNAL [--against REV] [--runs 3] [--first]

From JOURNAL (a party's journal: bench/replay_bench.py builds one) two journals are made,
as `replay_bench.own_rows` makes them: its first half audited by a hub's start-up, the
inputs of its second half judged and journaled by that hub, then the hub stopped in order
(its own rows marked, hub/startup.py `OwnRows`) or killed (its last mark 6,000 inputs
before the end). Each tree's hub is restarted on copies of them, `Hub()` in a process of
its own, with the marks that tree's hub would have left, under its own code's hash
(`startup.code()`): all of them where it marks its own rows, the start-up's alone where it
does not. The rows are the same for both (bench/same_bytes.py: the writer's bytes).
`--first`: instead, each tree's first start on a copy of JOURNAL as it is, a journal no hub
had audited (every input admitted again: docs/performance.md section 4, "Session 18").
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench.against import checked_out, short, this_tree  # noqa: E402
from hub.journal import Journal, last_seq_of  # noqa: E402
from replay_bench import RESTART, own_rows, removed  # noqa: E402

ASKED = "import hub.startup as s; print(s.code(), hasattr(s, 'OwnRows'))"


def python(tree: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([sys.executable, *args], env=env, cwd=tree, check=True, capture_output=True,
                          text=True).stdout


def restart(tree: Path, journal: Path, marks: list[int]) -> tuple[float, ...]:
    """`replay_bench.RESTART`'s figures for `tree`'s hub restarted on a copy of `journal`
    with `marks` made again by `tree`'s code (the start-up's alone where `tree`'s hub does not
    mark its own rows). The marks by this tree's code it holds already are another code's to
    any other tree: not taken."""
    code, marks_own = python(tree, "-c", ASKED).split()
    copy = journal.with_name(f"restart-{os.getpid()}.sqlite3")
    for suffix in ("", "-head"):
        shutil.copyfile(f"{journal}{suffix}", f"{copy}{suffix}")
    if tree != ROOT:
        marking = Journal(copy)
        for seq in marks if marks_own == "True" else marks[:1]:
            marking.mark_audited(seq, code, 0.0)
        marking.close()
    try:
        return tuple(map(float, python(tree, "-c", RESTART, str(copy)).split()))
    finally:
        removed(copy)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("journal", type=Path)
    ap.add_argument("--against", metavar="REV", help="also restart commit REV's hub, alternately")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--first", action="store_true",
                    help="the first start on JOURNAL as it is instead (no hub had audited it: every input admitted again)")
    args = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="restart-bench-")) / "journal.sqlite3"
    shutil.copyfile(args.journal, scratch)
    shutil.copyfile(f"{args.journal}-head", f"{scratch}-head")
    built = []
    for killed in () if args.first else (False, True):
        journal, last, marks = own_rows(scratch, killed)
        how = f"killed, {last - marks[-1]:,} rows after its last mark" if killed else "stopped in order"
        built.append((f"restart after its own rows, {how}", journal, marks, last))
    if args.first:   # restart() starts each hub on a copy: the scratch journal stays unaudited
        built.append(("the first start, no hub had audited it", scratch, [], last_seq_of(scratch)))
    with checked_out(short(args.against)) if args.against else contextlib.nullcontext() as other:
        trees = [(f"this ({this_tree()})", ROOT)] + ([(short(args.against), other)] if other else [])
        for how, journal, marks, last in built:
            runs: dict[str, list[tuple[float, ...]]] = {label: [] for label, _ in trees}
            for _ in range(args.runs):   # the trees alternately: the same load for both
                for label, tree in trees:
                    runs[label].append(restart(tree, journal, marks))
            for label, _ in trees:
                imports, wall, cpu, children = min(runs[label], key=lambda r: r[1])
                print(f"{label}: {how} ({last:,} rows): Hub() {wall:.2f} s "
                      f"(runs {', '.join(f'{r[1]:.2f}' for r in runs[label])}; CPU: the hub's {cpu:.2f} s, "
                      f"its children's {children:.2f} s), imports {imports:.2f} s", flush=True)
    for _, journal, _, _ in built:
        if journal != scratch:
            removed(journal)
    removed(scratch)


if __name__ == "__main__":
    main()
