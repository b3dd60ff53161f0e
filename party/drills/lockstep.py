"""A party played in lockstep rounds through the boards' keys.

The party is played in rounds (the seat check, then game 1, 2, ...): every table
keys its next entry, and the round ends when the journal has all of them. Values
come from a generator seeded by (seed, session, table, game), so two runs of the
same seed key the same entries whatever the timing, and their final standings
can be compared value for value.
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from hardware.sim.board import VirtualBoard
from hardware.sim.party import dismiss, key_in, prompt_of
from hub import conductor
from hub.conductor import events as k
from hub.conductor.cards import SEATS, number
from hub.conductor.state import last_session, session_over
from hub.rebuild import REBUILD_MAX_S, REBUILDING
from party.hands import played_values
from party.keyed import hand_as_seen, seats_as_seen
from party.setup import create_party, guest_names, seat_guests, staff_action, start_session


@dataclass(frozen=True)
class Keyed:
    """One entry keyed at a board, as the drill's books keep it (books.lost_and_doubled)."""
    table: int
    session: int
    kind: str     # "seat-check" or "result"
    game: int     # 0 for the seat check
    values: dict = field(hash=False)

    @property
    def key(self) -> tuple:
        return (self.table, self.session, self.kind, self.game)


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
            self.handle.act(lambda hub: _must(staff_action, hub, k.FINAL_COUNT, {"seed": seed}))
            return False
        n = state.session.number

        def host(hub):
            _must(staff_action, hub, k.RESEAT, {"seed": seed})
            _must(start_session, hub, n + 1)
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
        # Who led is keyed where the board asks it: game 1 of a rotating lead, and every game
        # a board cut off from the hub keys (it carries its last form on: drills/faults.py).
        lead = any(f["k"] == "lead" for f in form["fields"])
        return played_values(state.setup, seats, rng, lead=lead)

    @staticmethod
    def seen(state, n: int, form: dict, values: dict) -> dict[str, str]:
        """`values` as table n's guests read them on the board (party/keyed.py)."""
        seats = state.session.tables[n].seats
        if form.get("kind") == "seat-check":
            return seats_as_seen(seats)   # the cards `values` numbers, as printed
        return hand_as_seen(state.setup, seats, values, lead="lead" in values)

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
            self.key(state, n, session, form, values)
            self.after_key(n)
            self.wait_until(lambda s: conductor.screens(s).get(n, {}).get("form") != form,
                            f"table {n}'s session {session} round {rnd} to be journaled")
        except Exception as exc:  # a drill reports, it does not die
            self.failures.append(f"table {n}: session {session} round {rnd}: {exc!r}")

    def key(self, state, n: int, session: int, form: dict, values: dict, timeout: float = 60.0) -> None:
        """Key an entry at table n's board (as a guest reads it, the party as in `state`) and
        book it as keyed."""
        board = self.boards[n]
        prompt = prompt_of(form["game"])
        deadline = time.monotonic() + timeout
        while board.lines[-2:-1] != [prompt]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {n}: {prompt!r} never shown; display {board.lines}; "
                                   f"firmware log {board.log[-4:]}")
            dismiss(board)
            time.sleep(0.05)
        key_in(board, form["game"], self.seen(state, n, form, values), timeout=timeout)
        with self._keyed_lock:
            self.keyed.append(Keyed(n, session, form.get("kind", "result"), form["game"], values))


def set_up_party(handle, *, tables: int, seed: int, sessions: int | None = None, form: str = "draw",
                 **options) -> None:
    """The host's set-up: the party created, 4 guests a table checked in, cards drawn, session 1 begun."""
    extra = {"sessions": sessions, **options} if sessions else options

    def host(hub):
        _must(create_party, hub, tables=tables, form=form, **extra)
        _must(seat_guests, hub, guest_names(4 * tables), seed=seed)
        _must(start_session, hub, 1)
    handle.act(host)


def _must(action, *args, **kwargs) -> None:
    """A host's action, taken again as a host would while a standby rebuilds what a lost hub
    acknowledged (REBUILDING: try again in a moment, hub/rebuild.py)."""
    deadline = time.monotonic() + 2 * REBUILD_MAX_S
    while (verdict := action(*args, **kwargs)).why == REBUILDING and time.monotonic() < deadline:
        time.sleep(0.5)
    if not verdict.ok:
        raise RuntimeError(f"the host's action was refused: {verdict.why}")
