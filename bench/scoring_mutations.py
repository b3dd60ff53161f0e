"""Mutation testing of any module (the scoring engine's, the conductor's), bounded to fit the machine.

Two parts, both printing figures (docs/scoring.md and docs/conductor.md, "Mutation testing"):

1. The book mutations of issue 12: eight changes to rules of the books, each applied in turn
   to the work tree and the scoring tests run; each must be caught.
2. `run`: every one-node mutant of the modules named (a comparison turned, a sum or product
   changed, `and`/`or` swapped, a `not` dropped, a flag flipped, a number moved by one, `min`
   for `max`), in a scratch copy of the work tree (the project's own files are not touched).
   The tests given run once under coverage, each test its own context; each mutant then runs
   only the tests that run its statement, the fastest first, stopping at the first failure.
   Bounded by a sample a module (drawn with a fixed seed: the same mutants every run) and a
   time bound a module; one test process at a time:

    .venv/bin/pip install coverage           # not a project dependency: a tool run by hand
    nice -n 10 .venv/bin/python bench/scoring_mutations.py book
    nice -n 10 .venv/bin/python bench/scoring_mutations.py run hub/conductor/movement.py \
        --tests tests/conductor --sample 40 --minutes 6

The tests run with a small Hypothesis budget (10 examples each instead of 60-300).
"""
from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
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


# One change of one node at a time: the operators that carry a rule (a comparison, a sum, a
# bound, a flag, which of min and max); strings are left alone (names, messages, kinds).
SWAP_COMPARE = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt,
                ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In,
                ast.Is: ast.IsNot, ast.IsNot: ast.Is}
FLIP_COMPARE = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
SWAP_BINOP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
              ast.Div: ast.Mult, ast.Mod: ast.FloorDiv}
SWAP_CALL = {"min": "max", "max": "min", "any": "all", "all": "any"}


@dataclass(frozen=True)
class Mutant:
    line: int
    lines: range  # from the statement holding the change to its end: where coverage sees it
    old: str
    new: str
    start: int  # offsets into the source
    end: int

    def apply(self, source: str) -> str:
        return source[:self.start] + self.new + source[self.end:]

    def __str__(self) -> str:
        return f"{self.line}: {self.old} -> {self.new}"


def _changes(node: ast.AST):
    """Every one-step change of `node` itself (its children are changed on their own)."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for table in (SWAP_COMPARE, FLIP_COMPARE):
                if type(op) in table:
                    ops = list(node.ops)
                    ops[i] = table[type(op)]()
                    yield ast.Compare(node.left, ops, node.comparators)
    elif isinstance(node, ast.BinOp) and type(node.op) in SWAP_BINOP:
        yield ast.BinOp(node.left, SWAP_BINOP[type(node.op)](), node.right)
    elif isinstance(node, ast.BoolOp):
        yield ast.BoolOp(ast.Or() if isinstance(node.op, ast.And) else ast.And(), node.values)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield node.operand
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield ast.Constant(not node.value)
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield ast.Constant(node.value + 1)
        if node.value:
            yield ast.Constant(node.value - 1 if node.value != 1 else 0)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in SWAP_CALL:
        yield ast.Call(ast.Name(SWAP_CALL[node.func.id]), node.args, node.keywords)


def _skipped(tree: ast.AST) -> set[int]:
    """Nodes not to change: annotations, docstrings and f-strings (no reliable offsets)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        parts = [getattr(node, "annotation", None), getattr(node, "returns", None)]
        if isinstance(node, (ast.JoinedStr, ast.Assert)):
            parts.append(node)
        for part in parts:
            if part is not None:
                skip.update(id(n) for n in ast.walk(part))
    return skip


def mutants(source: str) -> list[Mutant]:
    """Every mutant of a module, in source order; each one compiles."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode()))
    raw = source.encode()
    skip = _skipped(tree)
    statement = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            statement[id(child)] = parent if isinstance(parent, ast.stmt) \
                else statement.get(id(parent), parent)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip or not hasattr(node, "end_lineno"):
            continue
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        old = raw[start:end].decode()
        for changed in _changes(node):
            new = f"({ast.unparse(changed)})"
            # offsets are in bytes; the splice is made on the bytes and read back
            first = statement.get(id(node), node).lineno if not isinstance(node, ast.stmt) \
                else node.lineno
            # min: a decorator's line is above its def's
            mutant = Mutant(node.lineno, range(min(first, node.lineno), node.end_lineno + 1),
                            " ".join(old.split()), new,
                            len(raw[:start].decode()), len(raw[:end].decode()))
            text = mutant.apply(source)
            try:
                if ast.dump(ast.parse(text)) == ast.dump(tree):
                    continue
            except SyntaxError:
                continue
            found.append(mutant)
    return sorted(found, key=lambda m: (m.start, m.new))


def scratch_copy(work: Path) -> Path:
    """The tracked files of the work tree, and ../shared beside them as the tests expect."""
    tree = work / "tree"
    for name in subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.splitlines():
        if (ROOT / name).is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)
    if (ROOT.parent / "shared").exists():
        (work / "shared").symlink_to(ROOT.parent / "shared")
    with open(tree / "tests/conftest.py", "a") as conftest:
        conftest.write(CONFTEST)
    return tree


CONFTEST = """
from hypothesis import settings as _settings
_settings.register_profile("mutation", max_examples=10, deadline=None)
"""
PYTEST = ["-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
          "--hypothesis-profile=mutation"]


@dataclass
class Coverage:
    """Which tests run each line of each module, and how long each test takes."""
    by_line: dict[str, dict[int, set[str]]]
    seconds: dict[str, float]
    spent: float

    def tests_for(self, module: str, mutant: Mutant) -> list[str]:
        """The tests that run the mutant's statement, the fastest first (-x stops at a kill)."""
        lines = self.by_line.get(module, {})
        found = set().union(*(lines.get(line, set()) for line in mutant.lines))
        return sorted(found, key=lambda test: (self.seconds.get(test, 0.0), test))


def covered(tree: Path, modules: list[str], tests: list[str]) -> Coverage:
    """Run the tests once under coverage, each test its own context."""
    (tree / ".coveragerc").write_text("[run]\ndynamic_context = test_function\n"
                                      f"include = {','.join(modules)}\n")
    t = time.monotonic()
    run = subprocess.run([PYTHON, "-m", "coverage", "run", *PYTEST, "--durations=0",
                          "--durations-min=0", *tests], cwd=tree, capture_output=True, text=True)
    spent = time.monotonic() - t
    if run.returncode != 0:
        raise SystemExit(f"the tests fail before any mutation:\n{run.stdout[-3000:]}")
    seconds: dict[str, float] = {}
    for line in run.stdout.splitlines():  # "0.52s call     tests/x.py::test_y[param]"
        figure, _, rest = line.partition("s ")
        test = rest.split()[-1].partition("[")[0] if rest.strip() else ""
        if "::" in test and figure.replace(".", "").isdigit():
            seconds[test] = seconds.get(test, 0.0) + float(figure)
    from coverage import CoverageData
    data = CoverageData(basename=str(tree / ".coverage"))
    data.read()
    by_line: dict[str, dict[int, set[str]]] = {}
    for path in data.measured_files():
        module = Path(path).relative_to(tree).as_posix()
        lines = by_line.setdefault(module, {})
        for line, contexts in data.contexts_by_lineno(path).items():
            for context in contexts:  # "tests.conductor.test_x.test_y", "....Class.test_y"
                if context.startswith("tests."):
                    lines.setdefault(line, set()).add(_node_id(tree, context))
                elif not context:   # run on import (a decorator, a constant): by every test
                    lines.setdefault(line, set()).update(tests)
    return Coverage(by_line, seconds, spent)


def _node_id(tree: Path, context: str) -> str:
    parts = context.split(".")
    for cut in range(len(parts), 0, -1):
        if (tree / ("/".join(parts[:cut]) + ".py")).exists():
            return "/".join(parts[:cut]) + ".py::" + "::".join(parts[cut:])
    raise ValueError(context)


def run(modules: list[str], tests: list[str], minutes: float, sample: int | None, seed: int,
        show: bool, lines: set[str] | None = None) -> int:
    """Mutants of each module (paths in the work tree), each against the tests that run it.

    The time bound and the sample are per module; the sample is drawn with `seed`, so a run
    is the same mutants every time. `lines` ("movement.py:145"): of those, only the mutants
    on these lines (the survivors of a run, tried again after a test is added)."""
    with tempfile.TemporaryDirectory(prefix="mutations-") as tmp:
        tree = scratch_copy(Path(tmp))
        tests_run = covered(tree, modules, tests)
        print(f"tests {' '.join(tests)} under coverage: {tests_run.spent:.0f} s", flush=True)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")  # a mutant's .pyc never outlives it
        for module in modules:
            mutate(tree, module, tests_run, env, minutes, sample, seed, show, lines)
    return 0


def mutate(tree: Path, module: str, tests_run: Coverage, env: dict, minutes: float,
           sample: int | None, seed: int, show: bool, lines: set[str] | None) -> None:
    source = (ROOT / module).read_text()
    made = mutants(source)
    chosen = made if sample is None or sample >= len(made) else \
        sorted(random.Random(seed).sample(made, sample), key=lambda m: m.start)
    if lines is not None:
        chosen = [m for m in chosen if f"{Path(module).name}:{m.line}" in lines]
    target = tree / module
    longest = max(60.0, 3 * sum(tests_run.seconds.values()))
    t = time.monotonic()
    outcome: dict[str, list[Mutant]] = {"killed": [], "survived": [], "not reached": [],
                                        "timeout": []}
    for n, mutant in enumerate(chosen):
        if time.monotonic() - t > minutes * 60:
            break
        selected = tests_run.tests_for(module, mutant)
        if not selected:
            status = "not reached"
        else:
            target.write_text(mutant.apply(source))
            try:
                result = subprocess.run([PYTHON, *PYTEST, "--timeout", "60", *selected],
                                        cwd=tree, env=env, capture_output=True, timeout=longest)
                status = "survived" if result.returncode == 0 else "killed"
            except subprocess.TimeoutExpired:
                status = "timeout"
            finally:
                target.write_text(source)
        outcome[status].append(mutant)
        if show:
            print(f"  {n + 1}/{len(chosen)} {status:8} {mutant}", flush=True)
    ran = sum(len(v) for v in outcome.values())
    print(f"{module}: {len(made)} mutants, {len(chosen)} chosen (seed {seed}), {ran} run"
          f"{'' if ran == len(chosen) else ' (stopped at the time bound)'}, "
          f"{(time.monotonic() - t) / 60:.1f} min")
    print("  " + "  ".join(f"{k}: {len(v)}" for k, v in outcome.items()))
    for status in ("survived", "not reached"):
        for mutant in outcome[status]:
            print(f"  {status:11} {module}:{mutant}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("book")
    r = sub.add_parser("run", help="mutants of modules against the tests given")
    r.add_argument("modules", nargs="+", help="paths in the work tree, e.g. hub/scoring/settle.py")
    r.add_argument("--tests", nargs="+", required=True,
                   help="test files or folders, e.g. tests/conductor")
    r.add_argument("--minutes", type=float, default=10, help="time bound a module (default 10)")
    r.add_argument("--sample", type=int, help="this many mutants a module, drawn with --seed")
    r.add_argument("--seed", type=int, default=21)
    r.add_argument("--show", action="store_true", help="print each mutant as it is run")
    r.add_argument("--lines", nargs="+", help="only the chosen mutants on these lines, "
                   "e.g. movement.py:145 leads.py:59 (a run's survivors, tried again)")
    args = ap.parse_args()
    if args.what == "book":
        return book()
    return run(args.modules, args.tests, args.minutes, args.sample, args.seed, args.show,
               set(args.lines) if args.lines else None)


if __name__ == "__main__":
    sys.exit(main())
