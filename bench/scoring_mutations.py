"""Mutation testing of the scoring engine (hub/scoring), bounded to fit the shared machine.

Two parts, both printing figures (docs/scoring.md, "Mutation testing"):

1. The book mutations of issue 12: eight changes to rules of the books, each applied in turn
   to the work tree and the scoring tests run; each must be caught.
2. mutmut over chosen modules of hub/scoring, in a scratch copy of the engine and its tests
   (the project's own files are not touched), with a time bound:

    .venv/bin/pip install mutmut            # not a project dependency: a tool run by hand
    nice .venv/bin/python bench/scoring_mutations.py book
    nice .venv/bin/python bench/scoring_mutations.py mutmut settle.py bounds.py --minutes 12

mutmut runs the scoring tests with a small Hypothesis budget (the property tests run 10
examples each instead of 60-300), one child process at a time.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

# issue 12, "Tests": each change passed every scoring test before the issue
BOOK_MUTATIONS = [
    ("Muggins without its spinner", "hub/scoring/forms/muggins.py",
     'layout=PLAIN if rules.variant == "parker" else SPINNER', 'layout=PLAIN'),
    ("Parker Muggins deals 7 each", "hub/scoring/forms/muggins.py",
     'base = {"parker": 5, "tandy": 7}', 'base = {"parker": 7, "tandy": 7}'),
    ("Milton Bradley Muggins deals 5 for two", "hub/scoring/forms/muggins.py",
     '7 if rules.players == 2 else 5', '5'),
    ("Grimm Block deals 7 each", "hub/scoring/forms/block_draw.py",
     'hand = party_hand(rules, 8)', 'hand = party_hand(rules, 7)'),
    ("Tandy's free lead removed", "hub/scoring/forms/block_draw.py",
     'lead_any=rules.variant == "tandy"', 'lead_any=False'),
    ("Texas 42 bidding starts at seat A", "hub/scoring/forms/texas42.py",
     'first = next(s for s in seats if T(1, 0) in hands[s])', 'first = seats[0]'),
    ("All Quarters' tie: no count", "hub/scoring/forms/all_quarters.py",
     '        return TIE_FEWER_PIECES', '        return "no-count"'),
    ("the second turn after a double skipped", "hub/scoring/lineplay.py",
     '    while spec.double_again and p.tile.is_double and hand:', '    while False:'),
]


def book() -> int:
    """Apply each book mutation to the work tree in turn (restored after), run the tests."""
    survived = 0
    for name, path, old, new in BOOK_MUTATIONS:
        file = ROOT / path
        source = file.read_text()
        if source.count(old) != 1:
            raise SystemExit(f"{name}: the code changed, {path} no longer has {old!r}")
        file.write_text(source.replace(old, new))
        try:
            t = time.monotonic()
            run = subprocess.run([PYTHON, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                                  "tests/scoring"], cwd=ROOT, capture_output=True, text=True)
            failed = next((line.split("::")[-1] for line in run.stdout.splitlines()
                           if line.startswith("FAILED")), "")
        finally:
            file.write_text(source)
        caught = run.returncode != 0
        survived += not caught
        print(f"{name:42} {'caught' if caught else 'SURVIVED':8} {time.monotonic() - t:5.1f} s  "
              f"{failed[:70]}", flush=True)
    print(f"{len(BOOK_MUTATIONS)} book mutations, {len(BOOK_MUTATIONS) - survived} caught")
    return 1 if survived else 0


MUTMUT_CONFIG = """\
[tool.mutmut]
source_paths = ["hub/scoring/"]
only_mutate = [{only}]
pytest_add_cli_args = ["-x", "-q", "-p", "no:cacheprovider", "--hypothesis-profile=mutation"]
pytest_add_cli_args_test_selection = ["tests/scoring/"]
use_git_change_detection = false

[tool.pytest.ini_options]
pythonpath = ["."]
"""

CONFTEST = """\
from hypothesis import settings
settings.register_profile("mutation", max_examples=10, deadline=None)
"""


def mutmut(modules: list[str], minutes: float) -> int:
    """mutmut over `modules` (file names under hub/scoring) in a scratch copy."""
    tool = Path(PYTHON).parent / "mutmut"
    if not tool.exists():
        raise SystemExit("mutmut is not installed: .venv/bin/pip install mutmut")
    with tempfile.TemporaryDirectory(prefix="scoring-mutmut-") as tmp:
        work = Path(tmp)
        (work / "hub").mkdir()
        shutil.copy(ROOT / "hub/__init__.py", work / "hub/__init__.py")
        shutil.copytree(ROOT / "hub/scoring", work / "hub/scoring",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (work / "tests").mkdir()
        shutil.copy(ROOT / "tests/__init__.py", work / "tests/__init__.py")
        shutil.copytree(ROOT / "tests/scoring", work / "tests/scoring",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (work / "tests/conftest.py").write_text(CONFTEST)
        only = ", ".join(f'"hub/scoring/{m}"' for m in modules)
        (work / "pyproject.toml").write_text(MUTMUT_CONFIG.format(only=only))
        t = time.monotonic()
        try:
            subprocess.run([str(tool), "run", "--max-children", "1"], cwd=work,
                           timeout=minutes * 60, stdout=subprocess.DEVNULL)
            finished = True
        except subprocess.TimeoutExpired:
            finished = False
        spent = time.monotonic() - t
        results = subprocess.run([str(tool), "results", "--all", "true"], cwd=work,
                                 capture_output=True, text=True).stdout
        counts: dict[str, int] = {}
        survivors = []
        for line in results.splitlines():
            name, _, status = line.strip().rpartition(": ")
            if name:
                counts[status] = counts.get(status, 0) + 1
                if status not in ("killed", "not checked"):
                    survivors.append(f"{name} ({status})")
        print(f"modules: {', '.join(modules)}; {'finished' if finished else 'stopped at the time bound'}"
              f" after {spent / 60:.1f} min")
        print("  ".join(f"{k}: {v}" for k, v in sorted(counts.items())),
              f" total: {sum(counts.values())}")
        for name in survivors:
            diff = subprocess.run([str(tool), "show", name.split()[0]], cwd=work,
                                  capture_output=True, text=True).stdout
            print(f"\n{name}\n" + "\n".join(
                line for line in diff.splitlines() if line.startswith(("-", "+"))
                and not line.startswith(("---", "+++"))))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("book")
    m = sub.add_parser("mutmut")
    m.add_argument("modules", nargs="+", help="files under hub/scoring, e.g. settle.py forms/bergen.py")
    m.add_argument("--minutes", type=float, default=12)
    args = ap.parse_args()
    return book() if args.what == "book" else mutmut(args.modules, args.minutes)


if __name__ == "__main__":
    sys.exit(main())
