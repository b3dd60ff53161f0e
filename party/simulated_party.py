"""A whole simulated party: N virtual tables (the real firmware on the MicroPython
unix port) whose players play hands by the scoring engine and key them in, and
a host who seats the guests, starts each session and reseats between them.

The tables only ever act through their boards' keys — what a guest would press
after reading the board — so the demo exercises the same path as a real party:
keypad → firmware → MQTT → hub → journal → standings.
"""
from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from hardware.sim.board import VirtualBoard
from hardware.sim.party import dismiss, key_in, prompt_of
from hub import conductor
from hub.conductor import events as k
from hub.conductor.cards import SEATS, number
from hub.conductor.prizes import play_off_winner
from hub.conductor.state import last_session, session_over

from .setup import guest_names, seat_guests, staff_action, start_session


class PartySimulator:
    def __init__(self, hub, *, seed: int = 1, data_dir: str | Path, say=print,
                 pace: float = 1.0, guests: int | None = None):
        # pace: about the seconds a hand takes; the host leaves each screen the room must
        # read (the standings after a session, the movement, the prizes) eight hands long
        self.hub, self.say, self.pace = hub, say, pace
        self.rng = random.Random(seed)
        self.seed = seed
        self.data_dir = Path(data_dir)
        self.guests = guests
        self.boards: dict[int, VirtualBoard] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # ----- life cycle ------------------------------------------------------------
    def start(self) -> "PartySimulator":
        broker = self.hub.broker_address
        for n in sorted(conductor.tables(self.hub.state)):
            self.boards[n] = VirtualBoard(n, *broker, data_dir=self.data_dir / f"table-{n}").start()
        self.say(f"{len(self.boards)} virtual boards started (firmware on the MicroPython unix port)")
        self._spawn(self._host, "host")
        for n in self.boards:
            self._spawn(lambda n=n: self._table(n, random.Random(self.rng.random())), f"table-{n}")
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(5)
        for board in self.boards.values():
            board.stop()

    def _spawn(self, target, name: str) -> None:
        t = threading.Thread(target=target, name=f"sim-{name}", daemon=True)
        t.start()
        self._threads.append(t)

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
        busy = {p.table for p in state.play_offs if play_off_winner(p) is None}
        decided_or_set = {p.prize for p in state.play_offs}
        for award in conductor.standings(state)["prizes"]:
            if award["needs_play_off"] and award["prize"] not in decided_or_set:
                free = sorted(set(self.boards) - busy)
                if free:
                    verdict = staff_action(self.hub, k.PLAY_OFF, {"prize": award["prize"], "table": free[0]})
                    self._must(verdict)
                    if verdict.ok:
                        self.say(f"a tie for the {award['prize']} prize: play-off at table {free[0]}")
                        busy.add(free[0])

    def _must(self, verdict) -> None:
        if not verdict.ok:
            self.say(f"the host's action was refused: {verdict.why}")

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
            if form is None or not board.lines or board.lines[-2] != prompt_of(form):
                self._stop.wait(0.3)
                continue
            values = self._values(n, form, rng)
            if values is None:
                self._stop.wait(0.5)
                continue
            self._stop.wait(self.pace * rng.uniform(0.5, 1.5))  # the hand is being played
            try:
                key_in(board, form, values)
            except TimeoutError as exc:
                self.say(str(exc))
                continue
            self._wait_until_moved_on(n, screen)

    def _values(self, n: int, form: dict, rng: random.Random) -> dict | None:
        state = self.hub.state
        t = state.session.tables[n] if state.session else None
        if form.get("kind") == "seat-check" and t is not None:
            return {x: number(c) if c else 0 for x, c in zip(SEATS, t.seats)}
        if form.get("kind") == "result" and state.final_count is not None:
            i = conductor.open_play_off(state, n)
            if i is None:
                return None
            cards = state.play_offs[i].cards
            return conductor.played_values(state.setup, cards + (None,) * (4 - len(cards)), rng, play_off=True)
        if form.get("kind") == "result" and t is not None:
            lead = any(f["k"] == "lead" for f in form["fields"])  # who led, where the form asks it
            return conductor.played_values(state.setup, t.seats, rng, lead=lead)
        return None  # a confirmation is a guest's judgement, not the simulator's

    def _wait_until_moved_on(self, n: int, screen: dict, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self._stop.is_set():
            if conductor.screens(self.hub.state).get(n) != screen:
                return
            self._stop.wait(0.1)
