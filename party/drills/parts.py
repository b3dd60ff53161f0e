"""What the drills are made of: a hub to run (in this process, or a child process
to SIGKILL), a reader of its journal, a TCP link to cut, a party played in
lockstep through the boards' keys, and the books kept on what was keyed.

The party is played in rounds (the seat check, then game 1, 2, ...): every table
keys its next entry, and the round ends when the journal has all of them. Values
come from a generator seeded by (seed, session, table, game), so two runs of the
same seed key the same entries whatever the timing, and their final standings
can be compared value for value.
"""
from __future__ import annotations

import json
import logging
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from hardware.sim.board import VirtualBoard
from hardware.sim.party import key_in
from hub import conductor
from hub.broker import Mosquitto, best_available, free_port, wait_for_port
from hub.conductor import events as k
from hub.conductor.cards import SEATS, number
from hub.conductor.scoring import played_values
from hub.conductor.state import last_session, session_over
from hub.journal import open_reader, read_events
from party.provision import hub_settings, mosquitto_lines, password_tool, provision
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, staff_action, start_session

ROOT = Path(__file__).resolve().parents[2]
log = logging.getLogger("drills")


# ----- reading the journal beside a running hub ---------------------------------------------

class JournalView:
    """The party as the journal makes it, read-only and incrementally, beside its writer."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._state = conductor.replay([])
        self._lock = threading.Lock()

    def state(self):
        if not self.path.exists():
            return self._state
        with self._lock:
            db = open_reader(self.path)
            try:
                for e in read_events(db, self._state.seq):
                    self._state = conductor.apply(self._state, e)
            finally:
                db.close()
            return self._state


def journal_events(path: Path) -> list:
    db = open_reader(path)
    try:
        return list(read_events(db))
    finally:
        db.close()


# ----- the hub, in this process or as a child to kill ----------------------------------------

class InProcessHub:
    """The hub in this process: host actions go straight to its single writer."""

    def __init__(self, journal: Path, broker, **hub_kwargs):
        self.journal, self.broker, self.kwargs = Path(journal), broker, hub_kwargs
        self.hub: Hub | None = None
        self.lock = threading.RLock()

    def start(self) -> "InProcessHub":
        self.hub = Hub(self.journal, self.broker.host, self.broker.port, **self.kwargs).start()
        return self

    def stop(self) -> None:
        if self.hub:
            self.hub.stop()
            self.hub = None

    def state(self):
        return self.hub.state

    def act(self, fn: Callable[[Hub], object]):
        with self.lock:
            return fn(self.hub)

    def crashes(self) -> int:
        return 0  # an exception in the writer is logged and counted by the caller's log handler


class ChildHub:
    """`python -m party.cli run` as a child process: SIGKILLed by the kill drill.

    The host's actions (start a session, move the players) need the hub's single
    writer: the child is stopped in order, the action taken by a hub in this
    process on the same journal, and the child started again.
    """

    def __init__(self, journal: Path, broker, log_path: Path, provisioned: Path | None = None):
        self.journal, self.broker, self.log_path = Path(journal), broker, Path(log_path)
        self.provisioned = provisioned  # `party run --provisioned`: the hub's account, the tables' boards
        self.view = JournalView(self.journal)
        self.proc: subprocess.Popen | None = None
        self.lock = threading.RLock()
        self.kills = 0
        self.unexpected_exits = 0
        self._log = open(self.log_path, "ab")

    def start(self) -> "ChildHub":
        port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "party.cli", "run", "--journal", str(self.journal),
             "--broker", f"{self.broker.host}:{self.broker.port}", "--http", f"127.0.0.1:{port}",
             *(["--provisioned", str(self.provisioned)] if self.provisioned else [])],
            cwd=ROOT, stdout=self._log, stderr=self._log, env={**os.environ, "PYTHONPATH": str(ROOT)})
        deadline = time.monotonic() + 30
        while True:  # up once its web server listens (after the journal's replay)
            try:
                wait_for_port("127.0.0.1", port, timeout=0.2)
                return self
            except TimeoutError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the hub did not start; see {self.log_path}") from None

    def _check_alive(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            self.unexpected_exits += 1
            log.error("the hub exited by itself with code %s", self.proc.returncode)
            self.proc = None

    def kill(self, down_for: float = 0.0) -> None:
        """SIGKILL: no goodbye, no flush; then (after `down_for` seconds) start again."""
        with self.lock:
            self._check_alive()
            if self.proc is not None:
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait()
                self.kills += 1
            time.sleep(down_for)
            self.start()

    def stop(self) -> None:
        with self.lock:
            self._check_alive()
            if self.proc is not None:
                self.proc.terminate()
                try:
                    self.proc.wait(15)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
                self.proc = None

    def close(self) -> None:
        self.stop()
        self._log.close()

    def state(self):
        return self.view.state()

    def act(self, fn: Callable[[Hub], object]):
        with self.lock:
            self.stop()
            account = hub_settings(self.provisioned) if self.provisioned else {}
            hub = Hub(self.journal, self.broker.host, self.broker.port, client_id="hub-host", **account).start()
            try:
                return fn(hub)
            finally:
                hub.stop()
                self.start()

    def crashes(self) -> int:
        """Exits nobody asked for, and tracebacks in the hub's log."""
        self._check_alive()
        self._log.flush()
        return self.unexpected_exits + self.log_path.read_bytes().count(b"Traceback")


# ----- a link that can be cut -----------------------------------------------------------------

class Link:
    """A TCP relay between one board and the broker: `cut()` drops its connections
    and refuses new ones, as a board out of WiFi range; `heal()` lets it back."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.host, self.port = "127.0.0.1", free_port()
        self._cut = threading.Event()
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._server = socket.create_server((self.host, self.port))
        threading.Thread(target=self._accept, daemon=True, name="link-accept").start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if self._cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                s.settimeout(None)
            with self._lock:
                self._socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True, name="link-pipe").start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                if self._cut.is_set():
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            _close(s)

    def cut(self) -> None:
        self._cut.set()
        with self._lock:
            socks, self._socks = self._socks, []
        for s in socks:
            _close(s)

    def heal(self) -> None:
        self._cut.clear()

    def close(self) -> None:
        self.cut()
        self._server.close()


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()


# ----- the books: what was keyed, what the journal holds ---------------------------------------

@dataclass(frozen=True)
class Keyed:
    table: int
    session: int
    kind: str     # "seat-check" or "result"
    game: int     # 0 for the seat check
    values: dict = field(hash=False)

    @property
    def key(self) -> tuple:
        return (self.table, self.session, self.kind, self.game)


def journaled_entries(path: Path) -> dict[tuple, list[dict]]:
    """The tables' entries in the journal, by (table, session, kind, game): the values of each."""
    state, out = conductor.replay([]), {}
    for e in journal_events(path):
        if e.kind in ("table.result", "table.seat-check"):
            kind = e.kind.split(".", 1)[1]
            game = e.body.get("game", 0) if kind == "result" else 0
            values = e.body["values"] if kind == "result" else e.body["cards"]
            out.setdefault((e.body["table"], state.session.number, kind, game), []).append(values)
        state = conductor.apply(state, e)
    return out


def lost_and_doubled(keyed: list[Keyed], path: Path) -> tuple[int, int, list[str]]:
    """Entries keyed but not journaled with their values; entries journaled more than once."""
    entries = journaled_entries(path)
    lost, problems = 0, []
    for e in keyed:
        if e.values not in entries.get(e.key, []):
            lost += 1
            problems.append(f"lost: table {e.table} session {e.session} {e.kind} {e.game} {e.values}")
    doubled = sum(len(v) - 1 for v in entries.values() if len(v) > 1)
    problems += [f"doubled: {key}" for key, v in entries.items() if len(v) > 1]
    return lost, doubled, problems


def refusable_events(path: Path) -> list[str]:
    """Journaled events the conductor would not have written (`party replay --audit`):
    inputs it would refuse where they stand, decisions it would not take, anomalies."""
    return [str(f) for f in conductor.audit(journal_events(path))[1]]


def comparable(doc: dict) -> dict:
    """What a fault-free run and a faulted run of the same seed must agree on: everything
    `to_json` derives except the bells' who-and-when (the first table to finish its last
    game rings the bell, and which one that is depends on timing) and the journal's length."""
    doc = json.loads(json.dumps(doc))
    doc.pop("seq", None)
    for s in doc.get("sessions", ()):
        s.pop("bells", None)
    return doc


# ----- the party, played in rounds through the boards' keys ----------------------------------

class LockstepParty:
    """A party of `tables` tables (4 guests each, the real firmware at every table),
    played round by round; `between_rounds(session, round)` is called as each round
    starts (the drills hang their faults on it)."""

    ROUND_TIMEOUT = 120.0

    def __init__(self, handle, boards: dict[int, VirtualBoard], *, seed: int, form: str = "draw",
                 sessions: int | None = None, say=print, **options):
        self.handle, self.boards, self.seed, self.form = handle, boards, seed, form
        self.sessions, self.say, self.options = sessions, say, options
        self.keyed: list[Keyed] = []
        self.failures: list[str] = []
        self._keyed_lock = threading.Lock()
        self.on_round: Callable[[int, int], None] = lambda session, rnd: None
        self.after_key: Callable[[int], None] = lambda table: None  # once a board has taken an entry
        self.skip: set[int] = set()  # tables the drill keys itself (a cut-off table)

    # -- the host ---------------------------------------------------------------
    def set_up(self) -> None:
        set_up_party(self.handle, tables=len(self.boards), seed=self.seed, sessions=self.sessions, form=self.form,
                     **self.options)

    def between_sessions(self) -> bool:
        """Move the players on (or make the final count); False once the party is over."""
        state = self.handle.state()
        seed = random.Random(f"{self.seed}:host:{state.session.number}").randrange(1 << 30)
        if last_session(state):
            self.handle.act(lambda hub: _must(staff_action(hub, k.FINAL_COUNT, {"seed": seed})))
            return False
        n = state.session.number

        def host(hub):
            _must(staff_action(hub, k.RESEAT, {"seed": seed}))
            _must(start_session(hub, n + 1))
        self.handle.act(host)
        return True

    # -- the tables ---------------------------------------------------------------
    def play(self) -> None:
        self.set_up()
        while True:
            self.play_session()
            if self.failures or not self.between_sessions():
                return

    def play_session(self, from_round: int = 0) -> None:
        state = self.handle.state()
        session, games = state.session.number, state.setup.games_per_session
        rounds = ([0] if state.setup.seat_check else []) + list(range(1, games + 1))
        for rnd in rounds[rounds.index(from_round) if from_round in rounds else 0:]:
            self.on_round(session, rnd)
            threads = [threading.Thread(target=self._table_round, args=(n, session, rnd), daemon=True)
                       for n in self.boards if n not in self.skip]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if self.failures:
                return
        self.wait_until(lambda s: session_over(s.setup, s.session), f"session {session} over")

    def wait_until(self, test, what: str, timeout: float | None = None) -> bool:
        deadline = time.monotonic() + (timeout or self.ROUND_TIMEOUT)
        while time.monotonic() < deadline:
            if test(self.handle.state()):
                return True
            time.sleep(0.2)
        self.failures.append(f"timed out waiting for {what}")
        return False

    def values(self, state, n: int, session: int, form: dict) -> dict:
        seats = state.session.tables[n].seats
        if form.get("kind") == "seat-check":
            return {x: number(c) if c else 0 for x, c in zip(SEATS, seats)}
        rng = random.Random(f"{self.seed}:{session}:{n}:{form['game']}")
        # Who led is keyed where the form asks for it (the hub's form: game 1 of a rotating lead).
        lead = any(f["k"] == "lead" for f in form["fields"])
        return played_values(state.setup, seats, rng, lead=lead)

    def form_for(self, n: int, session: int, rnd: int, timeout: float | None = None):
        """(state, form) once the hub offers table n the entry of this round; None on timeout."""
        kind = "seat-check" if rnd == 0 else "result"
        deadline = time.monotonic() + (timeout or self.ROUND_TIMEOUT)
        board = self.boards[n]
        while time.monotonic() < deadline:
            state = self.handle.state()
            form = conductor.screens(state).get(n, {}).get("form")
            if (state.session.number == session and form and form.get("kind", "result") == kind
                    and form["game"] == rnd):
                return state, form
            dismiss(board)
            time.sleep(0.1)
        self.failures.append(f"table {n}: session {session} round {rnd} never offered")
        return None

    def _table_round(self, n: int, session: int, rnd: int) -> None:
        try:
            got = self.form_for(n, session, rnd)
            if got is None:
                return
            state, form = got
            values = self.values(state, n, session, form)
            self.key(n, session, form, values)
            self.after_key(n)
            self.wait_until(lambda s: conductor.screens(s).get(n, {}).get("form") != form,
                            f"table {n}'s session {session} round {rnd} to be journaled")
        except Exception as exc:  # a drill reports, it does not die
            self.failures.append(f"table {n}: session {session} round {rnd}: {exc!r}")

    def key(self, n: int, session: int, form: dict, values: dict, timeout: float = 60.0) -> None:
        """Key an entry at table n's board (as a guest reads it) and book it as keyed."""
        board = self.boards[n]
        prompt = f"# ENTER GAME {form['game']}"
        deadline = time.monotonic() + timeout
        while board.lines[-2:-1] != [prompt]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {n}: {prompt!r} never shown; display {board.lines}; "
                                   f"firmware log {board.log[-4:]}")
            dismiss(board)
            time.sleep(0.05)
        key_in(board, form, values, timeout=timeout)
        with self._keyed_lock:
            self.keyed.append(Keyed(n, session, form.get("kind", "result"), form["game"], values))


def set_up_party(handle, *, tables: int, seed: int, sessions: int | None = None, form: str = "draw",
                 **options) -> None:
    """The host's set-up: the party created, 4 guests a table checked in, cards drawn, session 1 begun."""
    extra = {"sessions": sessions, **options} if sessions else options

    def host(hub):
        _must(create_party(hub, tables=tables, form=form, **extra))
        _must(seat_guests(hub, guest_names(4 * tables), seed=seed))
        _must(start_session(hub, 1))
    handle.act(host)


def dismiss(board: VirtualBoard) -> None:
    """A message that waits for a key (the conductor's bell): the players saw it. Only the
    table's own thread presses its keys, and waits until the board has handled the press:
    a second '#' would open the entry form."""
    if any(line.strip() == "# OK" for line in board.lines):
        board.press("#")
        board.heap()


def _must(verdict) -> None:
    if not verdict.ok:
        raise RuntimeError(f"the host's action was refused: {verdict.why}")


def start_boards(tables: int, broker_for: Callable[[int], tuple[str, int]], data_dir: Path,
                 provisioned: Path | None = None) -> dict[int, VirtualBoard]:
    """The real firmware at every table; with `provisioned`, each with its table's account."""
    boards = {}
    for n in range(1, tables + 1):
        host, port = broker_for(n)
        account = {}
        if provisioned:
            cfg = json.loads((provisioned / "tables" / f"table-{n}" / "config.json").read_text())
            account = {"board_id": cfg["board"], "user": cfg["user"], "password": cfg["password"]}
        boards[n] = VirtualBoard(n, host, port, data_dir=data_dir / f"table-{n}", resend_s=2,
                                 **account).start()
    return boards


def provisioned_broker(tables: int, work: Path):
    """(broker, provisioned directory): Mosquitto with the password file and ACL of
    `party provision`; or the test broker and None where mosquitto is not installed."""
    if password_tool() is None or not Mosquitto.available():
        return best_available().start(), None
    out = work / "provisioned"
    provision(tables, out)
    # Started as root, mosquitto drops to a user who cannot read the owner-only files.
    as_root = "user root\n" if os.geteuid() == 0 else ""
    return Mosquitto(conf_extra=mosquitto_lines(out) + as_root).start(), out


def board_crashes(boards) -> list[str]:
    """Boards whose firmware died (not killed by the drill), logged a traceback, or caught
    an exception drawing its screen: what each showed."""
    out = []
    for b in boards:
        log = list(b.log)
        at = next((i for i, line in enumerate(log) if "Traceback" in line or line.startswith("render:")), None)
        if not b.alive() or at is not None:
            shown = log[at:at + 10] if at is not None else log[-5:]
            out.append(f"table {b.table}: board {'died' if not b.alive() else 'logged'}: {' | '.join(shown)}")
    return out


# ----- the books kept by every drill

def fresh_dir(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def book_party(fig: Figures, party: LockstepParty, journal: Path, boards) -> None:
    """Lost, doubled and the journal's integrity, from what the party keyed."""
    fig.entries = len(party.keyed)
    fig.lost, fig.doubled, problems = lost_and_doubled(party.keyed, journal)
    fig.failures += party.failures + problems + refusable_events(journal)
    crashed = board_crashes(boards.values())
    fig.crashes += len(crashed)
    fig.failures += crashed


def stop_boards(boards) -> None:
    for b in boards.values():
        b.stop()


# ----- what a drill reports ----------------------------------------------------------------------

@dataclass
class Figures:
    drill: str
    entries: int = 0       # entries keyed at the boards (or payloads sent, for the fuzz)
    lost: int = 0
    doubled: int = 0
    crashes: int = 0
    seconds: float = 0.0
    detail: dict = field(default_factory=dict)     # the drill's own figures
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and self.lost == 0 and self.doubled == 0 and self.crashes == 0

    def line(self) -> str:
        detail = ", ".join(f"{k} {v}" for k, v in self.detail.items())
        return (f"{self.drill:<16} {'ok  ' if self.ok else 'FAIL'} {self.seconds:7.1f} s  entries {self.entries:>6}  "
                f"lost {self.lost}  doubled {self.doubled}  crashes {self.crashes}" + (f"  ({detail})" if detail else ""))


class ErrorCounter(logging.Handler):
    """Counts exceptions the hub logged (a failed batch, a judge that raised): crashes of its parts."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record) -> None:
        if record.exc_info:
            self.count += 1

    def __enter__(self) -> "ErrorCounter":
        logging.getLogger("hub").addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        logging.getLogger("hub").removeHandler(self)
