"""The arrows between the project's folders run one way (issue 13, "the tools out of hub/"):

    web -> hub, season;   season -> hub;   party -> web, hub, hardware, season;
    bench -> hub, web, hardware, party, season.

hub imports none of web, hardware, party, season (a club's season, above the hub: issue 26); hardware imports neither hub nor web
(its virtual board reaches the firmware only through the micropython process);
no Python here imports the firmware (it runs on the boards) or the tests. Every
.py under the checked folders is parsed with `ast` (imports inside functions
count too, and a module named in `importlib.import_module`/`__import__`), and the test fails on (a) an import against the arrows, (b) an
import cycle between folders, (c) a private name (`_x`) taken from another package;
and (d) on SQL outside the journal's modules, hub/journal.py and its seal hub/seal.py (a
string that reads as SQL, a call of `execute`). Issue 21's web as a thin client: (e) the web
importing the hub's journal, writer or judge, or a role checked or read outside
web/security.py; (f) a domain word spelled again: a topic outside hub/protocol.py, the seats
outside their homes, a session's phase or the forms' names read outside web/pages/words.py.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("hub", "web", "hardware", "party", "bench", "season")
PROJECT = (*CHECKED, "firmware", "tests")
# The firmware's own modules import each other by their top-level names (`import entry`):
# such an import here would be the firmware run in this process, not through micropython.
FIRMWARE_MODULES = {p.stem for p in (ROOT / "firmware").iterdir() if p.suffix == ".py" or p.is_dir()} - {"__pycache__"}
ALLOWED = {
    "hub": set(),
    "web": {"hub", "season"},
    "season": {"hub"},
    "hardware": set(),
    "party": {"web", "hub", "hardware", "season"},
    "bench": {"hub", "web", "hardware", "party", "season"},
}


@dataclass(frozen=True)
class Import:
    where: str       # "hub/service.py:24"
    importer: str    # the importing module, dotted: "hub.service"
    module: str      # the imported module, dotted and absolute: "hub.conductor"
    names: tuple[str, ...] = ()   # the names taken from it (from-imports and attributes)

    @property
    def source(self) -> str:
        return self.importer.split(".")[0]

    @property
    def target(self) -> str:
        return self.module.split(".")[0]


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    base = package[:len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(path: Path, root: Path) -> list[Import]:
    """Every import of a project module in one file, with the names it takes from it,
    including `alias._name` where alias is a project module bound by an import."""
    importer = module_name(path, root)
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(), str(path))
    found, aliases = [], {}
    rel = path.relative_to(root).as_posix()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                found.append(Import(f"{rel}:{node.lineno}", importer, a.name))
                # `import a.b` binds a; `import a.b as c` binds c to a.b
                bound = a.asname or a.name.split(".")[0]
                aliases[bound] = a.name if a.asname else bound
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, importer, is_package)
            found.append(Import(f"{rel}:{node.lineno}", importer, module, tuple(a.name for a in node.names)))
            for a in node.names:  # `from hub import service` binds a module too
                aliases[a.asname or a.name] = f"{module}.{a.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            found.append(Import(f"{rel}:{node.lineno}", importer, aliases[node.value.id], (node.attr,)))
        elif _imported_by_call(node):   # importlib.import_module("entry"), __import__("entry")
            found.append(Import(f"{rel}:{node.lineno}", importer, node.args[0].value))
    found = [Import(i.where, i.importer, f"firmware.{i.module}", i.names)
             if i.module.split(".")[0] in FIRMWARE_MODULES else i for i in found]
    return [i for i in found if i.target in PROJECT]


def _imported_by_call(node: ast.AST) -> bool:
    """A call that imports a module named by a constant string: the firmware run in this
    process as surely as an import statement would."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)):
        return False
    f = node.func
    return (isinstance(f, ast.Name) and f.id in ("__import__", "import_module")
            or isinstance(f, ast.Attribute) and f.attr == "import_module")


def all_imports(root: Path, folders=CHECKED) -> list[Import]:
    return [i for folder in folders for path in sorted((root / folder).rglob("*.py"))
            if "__pycache__" not in path.parts for i in imports_of(path, root)]


def against_the_arrows(imports: list[Import]) -> list[str]:
    return [f"{i.where}: {i.source} imports {i.module}" for i in imports
            if i.target != i.source and i.target not in ALLOWED[i.source]]


def folder_cycles(imports: list[Import]) -> list[list[str]]:
    """The cycles among the folders' actual imports (each as the folders on it)."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        if i.target != i.source:
            graph.setdefault(i.source, set()).add(i.target)
    cycles = []
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    cycles.append(path)
                elif nxt not in path and nxt > start:  # each cycle once, from its least folder
                    stack.append((nxt, path + [nxt]))
    return cycles


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _owner(path: list[str], root: Path) -> str:
    """The package a dotted path lies in: its longest prefix that is a package folder."""
    while path and not (root.joinpath(*path)).is_dir():
        path = path[:-1]
    return ".".join(path)


def private_names_across_packages(imports: list[Import], root: Path = ROOT) -> list[str]:
    """A `_name` (or a `_module`) used outside the package that holds it."""
    out = []
    for i in imports:
        path = i.module.split(".")
        for name in (*path[1:], *i.names):
            if _private(name):
                owner = _owner(path[:path.index(name)] if name in path else path, root)
                if not (i.importer == owner or i.importer.startswith(owner + ".")):
                    out.append(f"{i.where}: {i.importer} uses {name} of {i.module}")
    return out


# ----- the project itself ----------------------------------------------------------------


@pytest.fixture(scope="module")
def project_imports() -> list[Import]:
    return all_imports(ROOT)


def test_every_import_runs_with_the_arrows(project_imports):
    assert len(project_imports) > 100  # the walk did find the project's imports
    assert against_the_arrows(project_imports) == []


def test_no_cycle_between_folders(project_imports):
    assert folder_cycles(project_imports) == []


def test_no_private_name_crosses_a_package(project_imports):
    assert private_names_across_packages(project_imports) == []


# ----- the checks catch what they are for ------------------------------------------------


def _tree(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return all_imports(tmp_path)


def test_an_import_against_the_arrows_is_caught_even_inside_a_function(tmp_path):
    imports = _tree(tmp_path, {
        "hub/__init__.py": "", "web/__init__.py": "", "hardware/__init__.py": "", "party/__init__.py": "",
        "bench/__init__.py": "",
        "hub/service.py": "def f():\n    from web import create_app\n",
        "hardware/sim/party.py": "from hub.conductor import events\n",
        "web/view.py": "import party.cli\nfrom hub import conductor\n",
        "party/cli.py": "from hub import service\nfrom web import view\nfrom hardware.sim import party\n",
        "bench/b.py": "from tests.conductor.party import bergen_hand\n",
        "hardware/sim/board.py": "import sys\nsys.path.insert(0, 'firmware')\nimport entry\n",
        "hardware/sim/probe.py": "import importlib\n\nentry = importlib.import_module('entry')\n",
    })
    assert sorted(against_the_arrows(imports)) == [
        "bench/b.py:1: bench imports tests.conductor.party",
        "hardware/sim/board.py:3: hardware imports firmware.entry",
        "hardware/sim/party.py:1: hardware imports hub.conductor",
        "hardware/sim/probe.py:3: hardware imports firmware.entry",
        "hub/service.py:2: hub imports web",
        "web/view.py:1: web imports party.cli",
    ]


def test_a_cycle_between_folders_is_caught(tmp_path):
    imports = _tree(tmp_path, {
        "hub/a.py": "from hardware import b\n",
        "hardware/b.py": "from party import c\n",
        "party/c.py": "import hub.a\n",
        "web/d.py": "from hub import a\n",
    })
    assert folder_cycles(imports) == [["hardware", "party", "hub"]]


def test_a_private_name_from_another_package_is_caught(tmp_path):
    imports = _tree(tmp_path, {
        "hub/__init__.py": "", "hub/conductor/__init__.py": "",
        "hub/service.py": "class _TableInput: pass\n",
        "hub/conductor/fold.py": "from . import _helpers\nfrom ._helpers import _fold\n",
        "hub/conductor/_helpers.py": "def _fold(): pass\n",
        "party/drills/fuzz.py": ("from hub.service import _TableInput\nfrom hub import service\n"
                                 "service._TableInput()._process(b'')\nimport hub.conductor._helpers\n"),
        "hub/other.py": "from hub.conductor.fold import _x, __version__\n",
    })
    assert sorted(private_names_across_packages(imports, tmp_path)) == [
        "hub/other.py:1: hub.other uses _x of hub.conductor.fold",
        "party/drills/fuzz.py:1: party.drills.fuzz uses _TableInput of hub.service",
        "party/drills/fuzz.py:3: party.drills.fuzz uses _TableInput of hub.service",
        "party/drills/fuzz.py:4: party.drills.fuzz uses _helpers of hub.conductor._helpers",
    ]


# ----- SQL only in the journal (issue 21, "no SQL outside hub/journal.py") ---------------

# The journal's schema and every query of it: one place to change. The journal's seal
# (hub/seal.py, issue 24: a hash chain over the rows as stored, checked as the journal
# opens) is the journal's own module, and so is its checkpointer (hub/checkpoints.py: one
# PRAGMA, on a connection of its own).
SQL_HOMES = ("hub/journal.py", "hub/seal.py", "hub/checkpoints.py")
_SQL_TEXT = re.compile(r"^\s*(SELECT\b.*\bFROM\b|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b"
                       r"|(CREATE|DROP)\s+(TABLE|INDEX|TRIGGER|VIEW)\b|ALTER\s+TABLE\b|PRAGMA\s+\w+"
                       r"|(BEGIN|COMMIT|ROLLBACK)\b)", re.DOTALL)
_RUNS_SQL = ("execute", "executemany", "executescript")


def sql_outside_the_journal(root: Path, folders=CHECKED) -> list[str]:
    """Every SQL statement outside the journal's modules: a string that reads as one (an
    f-string's parts too), and every call of a connection's `execute`, `executemany`,
    `executescript`."""
    out = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if "__pycache__" in path.parts or rel in SQL_HOMES:
                continue
            for node in ast.walk(ast.parse(path.read_text(), rel)):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and _SQL_TEXT.match(node.value):
                    out.append(f"{rel}:{node.lineno}: SQL {node.value.strip()[:40]!r}")
                elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                      and node.func.attr in _RUNS_SQL):
                    out.append(f"{rel}:{node.lineno}: .{node.func.attr}()")
    return out


def test_no_sql_outside_the_journal():
    assert sql_outside_the_journal(ROOT) == []


def test_sql_outside_the_journal_is_caught(tmp_path):
    for name, text in {
        "hub/journal.py": 'def seq_of(db, i):\n    return db.execute("SELECT seq FROM journal WHERE id = ?", (i,))\n',
        "web/keypad.py": ('def seq(db, i):\n    row = db.execute(\n        "SELECT seq FROM journal WHERE id = ?", (i,))\n'
                          '    return row\n'),
        "bench/b.py": 'def n(t):\n    return f"SELECT COUNT(*) FROM {t}"\nWORDS = "Select a table FROM the list"\n',
        "party/p.py": 'def go(db):\n    db.executescript(script)\n',
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert sql_outside_the_journal(tmp_path) == [
        "web/keypad.py:2: .execute()",
        "web/keypad.py:3: SQL 'SELECT seq FROM journal WHERE id = ?'",
        "party/p.py:2: .executescript()",
        "bench/b.py:2: SQL 'SELECT COUNT(*) FROM'",
    ]


# ----- the web, a thin client of the hub (issue 21) -------------------------------------------

# The web reads the party through the hub's read calls (hub/reading.py, `Hub.standings`) and
# acts only through `hub.submit`: it opens no journal, runs no writer, judges nothing itself.
WEB_NEVER_IMPORTS = ("hub.journal", "hub.service", "hub.batch", "hub.startup", "hub.replication",
                     "hub.conductor.judge", "hub.conductor.fold")
WEB_NEVER_CALLS = frozenset({"admit", "judge", "admit_batch", "folded"})
# ...but it may name the error a damaged journal raises, to say it to the host (web/season.py
# reads a club's past journals through season/)
WEB_MAY_NAME = {"hub.journal": {"JournalDamaged"}}
# Who may do what is the journal's, asked in one place (web/security.py: `role`, `conductor_only`).
ROLES_HOME = "web/security.py"


def web_past_the_hub(imports: list[Import]) -> list[str]:
    """An import by the web of the hub's insides (its journal, its writer, the judge), or
    of the conductor's step that admits."""
    out = []
    for i in imports:
        if i.source != "web":
            continue
        if i.names and set(i.names) <= WEB_MAY_NAME.get(i.module, set()):
            continue
        if any(i.module == m or i.module.startswith(m + ".") for m in WEB_NEVER_IMPORTS):
            out.append(f"{i.where}: {i.importer} imports {i.module}")
        elif i.target == "hub" and set(i.names) & WEB_NEVER_CALLS:
            calls = ", ".join(sorted(set(i.names) & WEB_NEVER_CALLS))
            out.append(f"{i.where}: {i.importer} uses {calls} of {i.module}")
    return out


def roles_decided_outside_one_place(root: Path) -> list[str]:
    """A web module other than web/security.py that compares with a role's name ("conductor",
    "assistant") or reads a `.staff` but web/security.py's (the journal's, or the web store's):
    a second check of who may do what, or a second source for it."""
    out = []
    for path in sorted((root / "web").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == ROLES_HOME or "__pycache__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), rel)):
            if isinstance(node, ast.Compare) and any(
                    isinstance(c, ast.Constant) and c.value in ("conductor", "assistant")
                    for c in (node.left, *node.comparators)):
                out.append(f"{rel}:{node.lineno}: a role compared")
            elif isinstance(node, ast.Attribute) and node.attr == "staff" and isinstance(node.ctx, ast.Load) \
                    and not (isinstance(node.value, ast.Name) and node.value.id == "security"):
                out.append(f"{rel}:{node.lineno}: .staff read")
    return out


def test_the_web_reads_the_party_only_through_the_hub(project_imports):
    assert web_past_the_hub(project_imports) == []


def test_roles_come_from_the_journal_and_are_checked_in_one_place():
    assert roles_decided_outside_one_place(ROOT) == []


def test_the_web_past_the_hub_and_a_role_checked_in_a_view_are_caught(tmp_path):
    imports = _tree(tmp_path, {
        "hub/__init__.py": "", "web/__init__.py": "",
        "web/console.py": ("from hub.journal import sealed_row\nfrom hub import conductor\n\n"
                           "def preview(s, p):\n    return conductor.admit(s, p, 0, 0)\n\n"
                           "def act(store, login):\n    if store.staff().get(login) != 'conductor':\n        return 1\n"),
        "web/security.py": "def role(hub, login):\n    return hub.staff().get(login) == 'conductor'\n",
        "web/party.py": "from hub.conductor import standings\n",
    })
    assert sorted(web_past_the_hub(imports)) == [
        "web/console.py:1: web.console imports hub.journal",
        "web/console.py:5: web.console uses admit of hub.conductor",
    ]
    assert roles_decided_outside_one_place(tmp_path) == [
        "web/console.py:8: a role compared", "web/console.py:8: .staff read"]


# ----- each domain word in one place (issue 21) ----------------------------------------------

# The table protocol's topics are written in hub/protocol.py (the boards' in firmware/protocol.py,
# which hardware/protocol.py reads for the simulators; tests/hub/test_protocol_agrees.py).
TOPICS_HOME = "hub/protocol.py"
_TOPIC = re.compile(r"^party/(table|hub|all|serial)\b")


def spelled_outside(root: Path, homes, spells, folders=CHECKED) -> list[tuple[str, ast.AST]]:
    """(file, node) for each node of the checked modules but `homes` that `spells`."""
    return [(rel, node) for path in _modules(root, folders).values()
            if (rel := path.relative_to(root).as_posix()) not in homes
            for node in ast.walk(ast.parse(path.read_text(), rel)) if spells(node)]


def topics_spelled_again(root: Path, folders=CHECKED) -> list[str]:
    """A string (an f-string's parts too) that spells a topic of the protocol outside its home."""
    def spells(node) -> bool:
        return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(_TOPIC.match(node.value))
    found = spelled_outside(root, {TOPICS_HOME}, spells, folders)
    return sorted(f"{rel}:{node.lineno}: {node.value!r}" for rel, node in found)


def test_the_topics_are_spelled_in_one_place():
    assert topics_spelled_again(ROOT) == []


def test_a_topic_spelled_again_is_caught(tmp_path):
    _tree(tmp_path, {
        "hub/protocol.py": 'HUB_STATUS = "party/hub/status"\n',
        "hardware/sim/t.py": 'def topic(n, leaf):\n    return f"party/table/{n}/{leaf}"\n',
        "bench/room.py": 'CMD = ("party/all/cmd", 1)\nNOTE = "party/tables are fun"\n',
    })
    assert topics_spelled_again(tmp_path) == ["bench/room.py:1: 'party/all/cmd'",
                                              "hardware/sim/t.py:2: 'party/table/'"]


# The seats' letters: the engine's (hub/scoring/values.py, read by the conductor's cards and so
# by the web and the tools), and the wire's (hub/protocol.py, checked against the boards' by
# tests/hub/test_protocol_agrees.py; hardware/protocol.py reads the boards' own).
SEATS_HOMES = ("hub/scoring/values.py", "hub/protocol.py")


def seats_spelled_again(root: Path, folders=CHECKED) -> list[str]:
    """The four seat letters written out ("ABCD", or A, B, C, D as a tuple or list) outside their homes."""
    def spells(node) -> bool:
        return (isinstance(node, ast.Constant) and node.value == "ABCD" or isinstance(node, (ast.Tuple, ast.List))
                and [getattr(e, "value", None) for e in node.elts] == list("ABCD"))
    return sorted(f"{rel}:{node.lineno}: the seats"
                  for rel, node in spelled_outside(root, SEATS_HOMES, spells, folders))


def test_the_seats_are_spelled_in_their_homes():
    assert seats_spelled_again(ROOT) == []


def test_seats_spelled_again_are_caught(tmp_path):
    _tree(tmp_path, {
        "hub/scoring/values.py": 'SEATS = ("A", "B", "C", "D")\n',
        "web/actions.py": 'SEATS = ("A", "B", "C", "D")\nSIDES = ("AC", "BD")\n',
        "hardware/sim/party.py": 'SEATS = "ABCD"\nKEYS = [*"0123456789", "A", "B", "C"]\n',
    })
    assert seats_spelled_again(tmp_path) == ["hardware/sim/party.py:1: the seats", "web/actions.py:1: the seats"]


# A session's phase and the party forms' names, in the screens' words: web/pages/words.py alone
# reads them from the conductor (`session_phase`, the forms' registry `PARTY_FORMS`).
WORDS_HOME = "web/pages/words.py"
WORDS_READ = frozenset({"session_phase", "PARTY_FORMS"})


def words_read_twice(imports: list[Import]) -> list[str]:
    return [f"{i.where}: {i.importer} reads {', '.join(sorted(set(i.names) & WORDS_READ))}" for i in imports
            if i.source == "web" and i.where.split(":")[0] != WORDS_HOME and set(i.names) & WORDS_READ]


def test_the_phase_and_the_forms_names_are_put_in_words_once(project_imports):
    assert words_read_twice(project_imports) == []


def test_a_phase_put_in_words_twice_is_caught(tmp_path):
    imports = _tree(tmp_path, {
        "hub/__init__.py": "", "web/__init__.py": "", "web/pages/__init__.py": "",
        "web/pages/words.py": "from hub.conductor import state as S\nfrom hub.conductor.setup import PARTY_FORMS\n"
                              "def phase(st):\n    return S.session_phase(st, st.session)\n",
        "web/projection.py": "from hub.conductor import state as S\n\ndef view(st):\n    return S.session_phase(st, st.session)\n",
        "web/party.py": "from hub.conductor.setup import PARTY_FORMS\n",
    })
    assert sorted(words_read_twice(imports)) == ["web/party.py:1: web.party reads PARTY_FORMS",
                                                 "web/projection.py:4: web.projection reads session_phase"]


# ----- inside the folders: modules, their cycles, their size and the speed tricks ------------

SPEED = "hub/speed.py"   # the one module that makes values without __init__, writes __dict__, compiles
BELOW_THE_CONDUCTOR = {"hub/event.py": {"hub.refusal", "hub.speed"}}   # what each may import
LONG = 400   # lines a module may have without a line saying why ("Why so long: ...")


def _modules(root: Path, folders=CHECKED) -> dict[str, Path]:
    return {module_name(path, root): path for folder in folders for path in sorted((root / folder).rglob("*.py"))
            if "__pycache__" not in path.parts}


def module_graph(imports: list[Import], modules) -> dict[str, set[str]]:
    """module -> the project modules it imports (a name taken from a package that is a
    module of it counts as that module: `from . import events`)."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        targets = {f"{i.module}.{n}" for n in i.names if f"{i.module}.{n}" in modules}
        if not targets or len(targets) < len(i.names):
            if i.module in modules:
                targets.add(i.module)
        for t in targets - {i.importer}:
            graph.setdefault(i.importer, set()).add(t)
    return graph


def module_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles between modules (Tarjan's strongly connected components of two or
    more, each as its modules sorted)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def speed_tricks(root: Path, folders=CHECKED) -> list[str]:
    """`exec(...)`, `object.__new__` and writes to an instance's `__dict__` (an item set or
    deleted, `update`, `setdefault`, `pop`, `clear`, `popitem`, the `__dict__` itself
    assigned) anywhere but hub/speed.py."""
    found = []
    for path in _modules(root, folders).values():
        rel = path.relative_to(root).as_posix()
        if rel == SPEED:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            what = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "exec":
                what = "exec"
            elif isinstance(node, ast.Attribute) and node.attr == "__new__" \
                    and isinstance(node.value, ast.Name) and node.value.id == "object":
                what = "object.__new__"
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                    and isinstance(node.value, ast.Attribute) and node.value.attr == "__dict__":
                what = "a __dict__ write"
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("update", "setdefault", "pop", "clear", "popitem", "__setitem__") \
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "__dict__":
                what = "a __dict__ write"
            elif isinstance(node, ast.Attribute) and node.attr == "__dict__" and isinstance(node.ctx, ast.Store):
                what = "a __dict__ write"
            if what:
                found.append(f"{rel}:{node.lineno}: {what}")
    return sorted(found)


def imports_up(imports: list[Import]) -> list[str]:
    """An import by a module below the conductor of anything but what lies below it."""
    allowed = {module_name(ROOT / f, ROOT): ok for f, ok in BELOW_THE_CONDUCTOR.items()}
    return [f"{i.where}: {i.importer} imports {i.module}" for i in imports
            if i.importer in allowed and i.module not in allowed[i.importer]]


def long_without_why(root: Path, folders=CHECKED) -> list[str]:
    out = []
    for path in _modules(root, folders).values():
        lines = path.read_text().splitlines()
        if len(lines) > LONG and not any("Why so long:" in line for line in lines):
            out.append(f"{path.relative_to(root).as_posix()}: {len(lines)} lines, none saying why")
    return out


def test_no_import_cycle_between_modules(project_imports):
    modules = _modules(ROOT)
    assert module_cycles(module_graph(project_imports, modules)) == []


def test_the_speed_tricks_are_in_one_module():
    assert speed_tricks(ROOT) == []


def test_the_values_below_the_conductor_import_nothing_above_them(project_imports):
    assert imports_up(project_imports) == []


def test_a_long_module_says_why():
    assert long_without_why(ROOT) == []


def test_a_cycle_between_modules_is_caught_even_through_a_type_hint(tmp_path):
    files = {
        "party/__init__.py": "", "party/drills/__init__.py": "",
        "party/drills/books.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .lockstep import Party\n",
        "party/drills/lockstep.py": "from .books import Keyed\n",
        "party/drills/other.py": "from . import books\n",
    }
    imports = _tree(tmp_path, files)
    assert module_cycles(module_graph(imports, _modules(tmp_path))) == [
        ["party.drills.books", "party.drills.lockstep"]]


def test_a_speed_trick_outside_its_module_is_caught(tmp_path):
    _tree(tmp_path, {
        "hub/speed.py": "def made(cls):\n    v = object.__new__(cls)\n    v.__dict__.update(a=1)\n    exec('')\n",
        "hub/event.py": ("def f(e, cls):\n    e.__dict__['what'] = 1\n    n = object.__new__(cls)\n"
                         "    exec('x = 1', {})\n    e.__dict__.update(x=2)\n    return e.__dict__.get('x')\n"),
    })
    assert speed_tricks(tmp_path) == ["hub/event.py:2: a __dict__ write", "hub/event.py:3: object.__new__",
                                      "hub/event.py:4: exec", "hub/event.py:5: a __dict__ write"]


def test_an_import_up_from_the_events_and_a_long_module_without_why_are_caught(tmp_path):
    imports = _tree(tmp_path, {
        "hub/__init__.py": "",
        "hub/event.py": "from .refusal import Refusal\nfrom .conductor.events import read\nimport hub.speed\n",
        "hub/long.py": "x = 1\n" * (LONG + 1),
        "hub/long_why.py": "# Why so long: a table of the book's forms\n" + "x = 1\n" * LONG,
    })
    assert imports_up(imports) == ["hub/event.py:2: hub.event imports hub.conductor.events"]
    assert long_without_why(tmp_path) == [f"hub/long.py: {LONG + 1} lines, none saying why"]
