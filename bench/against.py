"""`--against REV`: a bench run on this tree and on another commit, side by side, in one run.

A figure measured today and one measured yesterday on this shared machine can
differ by a factor of two with the load alone; run back to back, the two
revisions see the same machine. `compare` checks REV out into a temporary
`git worktree` (detached, removed afterwards) and runs the bench there and
here, alternately `--runs` times (each taking the lead in turn), with the same
arguments and the same Python.
Each revision runs its own copy of the bench, so the bench always matches the
hub it drives (the hub's interfaces change between commits); the load is the
same as long as the arguments and the load generator (bench/room.py,
bench/mqtt_lite.py, the payloads) are — the helper says if those two files
differ between the revisions. The figures are read from each run's printed lines (a
bench keeps those lines' wording, so older commits' output still parses) and
printed best of the runs (and, with three runs or more, their median), with this tree's
value divided by REV's.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOAD_GENERATOR = ("bench/room.py", "bench/mqtt_lite.py")


@dataclass(frozen=True)
class Figure:
    """One printed figure: its name, the line that holds it (first group = the number)."""
    name: str
    pattern: str
    unit: str
    higher_is_better: bool

    def read(self, output: str) -> float | None:
        """The best value of this figure in a run's output (a line may repeat, e.g. best of three)."""
        values = [float(m.group(1).replace(",", "")) for m in re.finditer(self.pattern, output, re.MULTILINE)]
        if not values:
            return None
        return max(values) if self.higher_is_better else min(values)


def add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--against", metavar="REV",
                    help="also run this bench on commit REV (a temporary git worktree) and print both side by side")
    ap.add_argument("--runs", type=int, default=1,
                    help="with --against: run each revision this many times, alternately; the best run counts")


def _forwarded(argv: list[str]) -> list[str]:
    """The bench's arguments without --against/--runs: what each revision's run is given."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--against", "--runs"):
            skip = True
        elif not arg.startswith(("--against=", "--runs=")):
            out.append(arg)
    return out


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def short(rev: str) -> str:
    """REV's commit, abbreviated."""
    return _git("rev-parse", "--short", f"{rev}^{{commit}}")


def this_tree() -> str:
    """HEAD's commit, abbreviated, with "+changes" where the tracked files differ from it."""
    return _git("rev-parse", "--short", "HEAD") + ("+changes" if _git("status", "--porcelain", "--untracked-files=no") else "")


@contextlib.contextmanager
def checked_out(commit: str):
    """The tree of `commit` in a temporary detached `git worktree`, removed afterwards."""
    other = Path(tempfile.mkdtemp(prefix="bench-against-")) / commit
    _git("worktree", "add", "--detach", str(other), commit)
    try:
        yield other
    finally:
        _git("worktree", "remove", "--force", str(other))


def run(root: Path, script: str, argv: list[str], label: str) -> str:
    """Run `script` (relative to `root`, or absolute) with the tree at `root` first on the path
    and the same Python; its output, echoed as it comes."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, script, *argv], cwd=root, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    for line in proc.stdout:
        lines.append(line)
        print(f"[{label}] {line}", end="", flush=True)
    if proc.wait():
        raise SystemExit(f"{label}: {script} failed (exit {proc.returncode})")
    return "".join(lines)


def compare(bench_file: str, rev: str, runs: int, figures: tuple[Figure, ...], here: tuple[str, ...] = ()) -> None:
    """Run the bench `bench_file` here and at `rev`; print every figure of both and their ratio.
    `here`: arguments for this tree's runs alone, where its bench measures as older ones did
    only when told (the same instrument on both sides)."""
    script = str(Path(bench_file).resolve().relative_to(ROOT))
    argv = _forwarded(sys.argv[1:])
    commit, mine = short(rev), this_tree()
    changed = [f for f in LOAD_GENERATOR if _git("diff", "--name-only", commit, "--", f)]
    print(f"{script} {' '.join(argv)}: this tree ({mine}{' ' + ' '.join(here) if here else ''}) against "
          f"{commit}, {runs} run(s) each, alternately")
    if changed:
        print(f"  the load generator differs between the two in: {', '.join(changed)}")
    with checked_out(commit) as other:
        outputs: dict[str, list[str]] = {"this": [], commit: []}
        sides = [("this", ROOT, [*argv, *here]), (commit, other, argv)]
        for i in range(runs):   # this tree first, then REV first, and so on: neither always follows the other
            for label, root, args in sides if i % 2 == 0 else sides[::-1]:
                outputs[label].append(run(root, script, args, label))
    # best against best, and with three runs or more median against median: on a VM whose
    # figures move 2x run to run, one side's luckiest run decides the first (docs/performance.md,
    # "Session 15's quiet window")
    for name, pick in (("best", _best), ("median", _median))[:2 if runs >= 3 else 1]:
        print(f"\n{script} {' '.join(argv)}; {name} of {runs} run(s) each")
        print(f"{'figure':<52} {'this (' + mine + ')':>18} {commit:>14} {'this / ' + commit:>16}")
        for f in figures:
            ours, theirs = pick(f, outputs["this"]), pick(f, outputs[commit])
            ratio = f"{ours / theirs:.2f}" if ours is not None and theirs else "-"
            print(f"{f.name + ' (' + f.unit + ')':<52} {_show(ours):>18} {_show(theirs):>14} {ratio:>16}")


def _values(f: Figure, outputs: list[str]) -> list[float]:
    return [v for v in (f.read(o) for o in outputs) if v is not None]


def _best(f: Figure, outputs: list[str]) -> float | None:
    values = _values(f, outputs)
    return (max if f.higher_is_better else min)(values) if values else None


def _median(f: Figure, outputs: list[str]) -> float | None:
    values = _values(f, outputs)
    return statistics.median(values) if values else None


def _show(value: float | None) -> str:
    if value is None:
        return "not printed"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.2f}"
