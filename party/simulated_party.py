"""A whole simulated party: the room's virtual tables (the real firmware on the
MicroPython unix port) whose players play hands by the scoring engine and key them
in, and a host who seats the guests, starts each session and reseats between them.

The tables only ever act through their boards' keys — what a guest would press
after reading the board — so the demo exercises the same path as a real party:
keypad → firmware → MQTT → hub → journal → standings. `VirtualTables` is the room
alone: the demo's simulated host drives it (`PartySimulator`), and so does a host
clicking the console in a browser test (tests/web/test_whole_night_browser.py).
"""
from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from hardware.sim.board import VirtualBoard
from hardware.sim.party import dismiss, key_count, key_in, prompt_of
from hub import conductor
from hub.conductor import events as k
from hub.conductor.prizes import play_off_winner
from hub.conductor.leads import keys_lead
from party.hands import played_hand
from hub.conductor.state import last_session, session_over

from .keyed import count_as_seen, hand_as_seen, seats_as_seen
from .setup import guest_names, seat_guests, staff_action, start_session


class VirtualTables:
    """A VirtualBoard at every table the party has — a table added during the party gets
    its board as soon as the party has it — each played by its guests in a thread of its
    own: they dismiss the conductor's bell, check their seats, and play and key every
    hand (or play-off game) the board asks for. `hold()` stops them starting an entry
    (the host acts meanwhile), `play()` lets them go on."""

    def __init__(self, hub, *, seed: int = 1, data_dir: str | Path, say=print, pace: float = 1.0,
                 make_board=VirtualBoard):
        # pace: about the seconds a hand takes; make_board(table, host, port, data_dir=): a
        # board of any kind with VirtualBoard's interface (hardware/sim/qemu_board.py's too)
        self.hub, self.say, self.pace, self.seed = hub, say, pace, seed
        self.make_board = make_board
        self.data_dir = Path(data_dir)
        self.boards: dict[int, VirtualBoard] = {}
        self._stop = threading.Event()
        self._playing = threading.Event()
        self._playing.set()
        self._keying = 0                     # tables in the middle of an entry
        self._idle = threading.Condition()
        self._threads: list[threading.Thread] = []

    # ----- life cycle ------------------------------------------------------------
    def start(self) -> "VirtualTables":
        self.say(f"{self._boards_for_new_tables()} virtual boards started (firmware on the MicroPython unix port)")
        self._spawn(self._follow, "room")
        return self

    def stop(self) -> None:
        self._stop.set()
        self._playing.set()
        for t in self._threads:
            t.join(5)
        for board in self.boards.values():
            board.stop()

    def hold(self, timeout: float = 30.0) -> None:
        """The guests start no new entry; returns once none is being keyed."""
        self._playing.clear()
        with self._idle:
            if not self._idle.wait_for(lambda: self._keying == 0, timeout):
                raise TimeoutError(f"a table was still keying after {timeout} s")

    def play(self) -> None:
        self._playing.set()

    def _spawn(self, target, name: str) -> None:
        t = threading.Thread(target=target, name=f"sim-{name}", daemon=True)
        t.start()
        self._threads.append(t)

    def _follow(self) -> None:
        while not self._stop.wait(0.5):
            if self._boards_for_new_tables():
                self.say(f"table {max(self.boards)}'s board started")

    def _boards_for_new_tables(self) -> int:
        new = sorted(set(conductor.tables(self.hub.state)) - set(self.boards))
        for n in new:
            self.boards[n] = self.make_board(n, *self.hub.broker_address, data_dir=self.data_dir / f"table-{n}").start()
            self._spawn(lambda n=n: self._table(n, random.Random(f"{self.seed}/{n}")), f"table-{n}")
        return len(new)

    # ----- a table --------------------------------------------------------------------
    def _table(self, n: int, rng: random.Random) -> None:
        board = self.boards[n]
        while not self._stop.is_set():
            screen = conductor.screens(self.hub.state).get(n, {})
            form = screen.get("form")
            try:
                dismiss(board)  # the conductor's bell was shown: the players saw it
            except TimeoutError as exc:  # the board did not answer: try again on the next turn
                self.say(str(exc))
                continue
            # Key only what the board itself offers: the hub's form for this game.
            if form is None or not board.lines or board.lines[-2] != prompt_of(form["game"]):
                self._stop.wait(0.3)
                continue
            if not self._begin_entry():
                self._stop.wait(0.3)
                continue
            try:
                self._key(n, board, screen, form, rng)
            finally:
                with self._idle:
                    self._keying -= 1
                    self._idle.notify_all()

    def _begin_entry(self) -> bool:
        with self._idle:
            if not self._playing.is_set():
                return False
            self._keying += 1
            return True

    def _key(self, n: int, board: VirtualBoard, screen: dict, form: dict, rng: random.Random) -> None:
        played = self._values(n, form, rng)
        if played is None:
            self._stop.wait(0.5)
            return
        values, counts = played[0], played[1] if "count" in screen else []
        # the hand is being played; each count made in it is keyed as it is made (set-up
        # in_play "each", the screen's count form), then the hand's end
        pause = self.pace / (len(counts) + 1)
        try:
            for count in counts:
                self._stop.wait(pause * rng.uniform(0.5, 1.5))
                if self._stopped() or not key_count(board, count):
                    return   # the stop bell: "all tables stop playing at once" (000, BERGEN GAME)
            self._stop.wait(pause * rng.uniform(0.5, 1.5))
            if self._stopped():
                return
            key_in(board, form["game"], values)
        except TimeoutError as exc:
            self.say(str(exc))
            return
        self._wait_until_moved_on(n, screen)

    def _stopped(self) -> bool:
        """The session's stop bell has rung (a play-off, after the final count, has none)."""
        state = self.hub.state
        s = state.session
        return state.final_count is None and s is not None and s.bell is not None and s.bell.meaning == "stop"

    def _values(self, n: int, form: dict, rng: random.Random) -> tuple[dict, list[dict]] | None:
        """What the table keys for this form, as its guests read it on the board: the entry's
        values, and the counts made in play before it (none but in a hand played with in_play
        "each")."""
        state = self.hub.state
        t = state.session.tables[n] if state.session else None
        if form.get("kind") == "seat-check" and t is not None:
            return seats_as_seen(t.seats), []
        if form.get("kind") == "result" and state.final_count is not None:
            i = conductor.open_play_off(state, n)
            if i is None:
                return None
            cards = state.play_offs[i].cards
            return self._seen(state.setup, cards + (None,) * (4 - len(cards)), rng, play_off=True)
        if form.get("kind") == "result" and t is not None:
            # who led is keyed in the games the rules ask it (leads.py)
            return self._seen(state.setup, t.seats, rng, form["game"],
                              lead=keys_lead(state.setup.form, form["game"]))
        return None  # a confirmation is a guest's judgement, not the simulator's

    @staticmethod
    def _seen(setup, seats, rng: random.Random, game: int = 1, **how) -> tuple[dict, list[dict]]:
        """A hand the engine plays at these seats (game `game` of the session), as the table
        reads what it keys."""
        values, counts = played_hand(setup, seats, rng, game=game, **how)
        return (hand_as_seen(setup, seats, values, **how),
                [count_as_seen(setup, seats, c) for c in counts])

    def _wait_until_moved_on(self, n: int, screen: dict, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self._stop.is_set():
            if conductor.screens(self.hub.state).get(n) != screen:
                return
            self._stop.wait(0.1)


class PartySimulator:
    """The demo's host, who seats the guests, starts each session, reseats between them
    and schedules the play-offs, with the room's virtual tables playing."""

    def __init__(self, hub, *, seed: int = 1, data_dir: str | Path, say=print,
                 pace: float = 1.0, guests: int | None = None):
        # pace: about the seconds a hand takes; the host leaves each screen the room must
        # read (the standings after a session, the movement, the prizes) eight hands long
        self.hub, self.say, self.pace = hub, say, pace
        self.rng = random.Random(seed)
        self.seed = seed
        self.guests = guests
        self.tables = VirtualTables(hub, seed=seed, data_dir=data_dir, say=say, pace=pace)
        self._stop = threading.Event()
        self._host_thread: threading.Thread | None = None

    # ----- life cycle ------------------------------------------------------------
    def start(self) -> "PartySimulator":
        self.tables.start()
        self._host_thread = threading.Thread(target=self._host, name="sim-host", daemon=True)
        self._host_thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._host_thread:
            self._host_thread.join(5)
        self.tables.stop()

    # ----- the host -------------------------------------------------------------------
    def _host(self) -> None:
        state = self.hub.state
        if not state.guests:
            guests = self.guests or 4 * state.setup.tables
            self._must(seat_guests(self.hub, guest_names(guests), seed=self.seed))
            self.say(f"{guests} guests checked in, score-cards drawn")
        step, due = None, 0.0
        while not self._stop.wait(0.5):
            state = self.hub.state
            s = state.session
            if state.final_count is not None:
                self._schedule_play_offs(state)
                continue
            if s is None:
                continue
            if (s.number, s.started is None, session_over(state.setup, s)) != step:
                step, due = (s.number, s.started is None, session_over(state.setup, s)), time.monotonic() + 8 * self.pace
            if time.monotonic() < due:
                continue   # the room reads the screen: standings, movement
            if s.started is None:
                self._must(start_session(self.hub, s.number))
                self.say(f"session {s.number}: the bell rings, play starts")
            elif session_over(state.setup, s):
                if last_session(state):
                    self._must(staff_action(self.hub, k.FINAL_COUNT, {}))
                    self.say("the party is over: final count made, prizes awarded")
                else:
                    self._must(staff_action(self.hub, k.RESEAT, {"seed": self.rng.randrange(1 << 30)}))
                    self.say(f"session {s.number} over: players move to their tables for the next")

    def _schedule_play_offs(self, state) -> None:
        """A tie for a prize is played off at a table of its own, one prize at a time."""
        busy = {p.table for p in state.play_offs if play_off_winner(p, state.setup.lowest_wins) is None}
        decided_or_set = {p.prize for p in state.play_offs}
        for award in conductor.standings(state)["prizes"]:
            if award["needs_play_off"] and award["prize"] not in decided_or_set:
                free = sorted(set(self.tables.boards) - busy)
                if free:
                    verdict = staff_action(self.hub, k.PLAY_OFF, {"prize": award["prize"], "table": free[0]})
                    self._must(verdict)
                    if verdict.ok:
                        self.say(f"a tie for the {award['prize']} prize: play-off at table {free[0]}")
                        busy.add(free[0])

    def _must(self, verdict) -> None:
        if not verdict.ok:
            self.say(f"the host's action was refused: {verdict.why}")
