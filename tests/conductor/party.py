"""A live hub in miniature for the tests: proposals taken through the hub's own batch step
(hub/batch.py: judged, numbered, folded, one id one verdict) and journaled in memory, as the
hub does (the values a table keys for a game: party/hands.py)."""
from __future__ import annotations

import itertools

from hub.batch import Ledger, LocalInput, admit_batch
from hub.conductor import apply, replay, screens, to_json
from hub.conductor import events as k
from hub.conductor.cards import SEATS
from hub.conductor.state import PartyState
from hub.event import Event, Proposal, Verdict
from party.hands import spots_game


class Party:
    def __init__(self, conductor: str = "ann"):
        self.state = PartyState()
        self.journal: list[Event] = []
        self.ledger = Ledger()   # the ids decided, as the journal's tables hold them
        self.now = 1_000_000.0
        self.conductor = conductor
        self._ids = itertools.count(1)

    # -- the hub's loop ----------------------------------------------------------------
    def propose(self, source: str, kind: str, body: dict, id: str | None = None) -> Verdict:
        p = Proposal(id or f"p{next(self._ids)}", source, kind, body)
        # the clock's decisions only when a test says the time has come (`tick`)
        out = admit_batch(self.state, [LocalInput(p)], self.ledger, self.now, ticks=False)
        for _, _, _, exc in out.notes:
            if exc is not None:
                raise exc   # a bug, not the hub's refusal: the test shows its traceback
        ((_, _, v, _),) = out.replies
        assert len(v.msg) <= 16 and len(v.why) <= 16, v   # a board shows 16 columns
        self._journal(out)
        return v

    def _journal(self, out) -> None:
        for ev in out.events:  # one by one, so that every event's screens are looked at
            self.journal.append(ev)
            self.state = apply(self.state, ev)
            assert not self.state.anomalies, self.state.anomalies
            self.journaled(ev)
        assert self.state == out.state   # the step's state is the one the journal folds to
        self.ledger.record(out)

    def journaled(self, ev: Event) -> None:
        """Called after each event is journaled and folded: every screen still fits a board
        (6 lines, docs/protocol.md: the last two only where no bell is shown)."""
        for screen in screens(self.state).values():
            assert len(screen["lines"]) <= 6 and all(len(x) <= 16 for x in screen["lines"]), screen
            assert len(screen["lines"]) <= 4 or screen["bell"] is None, screen
            for f in (screen["form"] or {}).get("fields", ()):
                assert len(f["label"]) <= 16, f

    def tick(self) -> list[Event]:
        """The hub's clock: journal the decisions due now (the time limit's bell)."""
        out = admit_batch(self.state, [], self.ledger, self.now)
        self._journal(out)
        return out.events

    def must(self, v: Verdict) -> Verdict:
        assert v.ok, v.why
        return v

    def staff(self, kind: str, body: dict, login: str | None = None) -> Verdict:
        return self.propose(f"staff:{login or self.conductor}", kind, body)

    def table(self, n: int, kind: str, body: dict) -> Verdict:
        return self.propose(f"table:{n}", kind, dict(body, table=n, board=f"sim-{n}"))

    # -- the conductor's steps ------------------------------------------------------------
    def create(self, **setup) -> None:
        self.must(self.staff(k.PARTY_CREATED, setup))

    def guests(self, names) -> None:
        for name in names:
            self.must(self.staff(k.GUEST_LISTED, {"guest": name}))
            self.must(self.staff(k.CHECKED_IN, {"guest": name}))

    def draw(self, seed: int = 7) -> None:
        self.must(self.staff(k.DRAW_SEATS, {"seed": seed}))

    def start(self) -> None:
        s = self.state.session
        self.must(self.staff(k.SESSION_STARTED, {"session": s.number}))
        if self.state.setup.seat_check:
            for n, t in s.tables.items():
                if t.players >= self.state.setup.fewest:
                    self.must(self.table(n, k.SEAT_CHECK, {"cards": self.card_numbers(n)}))

    def card_numbers(self, n: int) -> dict:
        from hub.conductor.cards import number
        t = self.state.session.tables[n]
        return {x: number(c) if c else 0 for x, c in zip(SEATS, t.seats)}

    def result(self, n: int, values: dict, game: int | None = None) -> Verdict:
        t = self.state.session.tables[n]
        return self.table(n, k.RESULT, {"game": game or t.entered + 1, "values": values})

    def ack_bell(self) -> None:
        s = self.state.session
        bell = s.bell
        for n, t in sorted(s.tables.items()):
            if t.players and bell.id not in t.acks:
                self.must(self.table(n, k.BELL_ACK, {"bell": bell.id}))

    def reseat(self, seed: int = 11) -> Verdict:
        return self.must(self.staff(k.RESEAT, {"seed": seed}))

    # -- what is derived ----------------------------------------------------------------
    def seating(self, session: int | None = None) -> dict:
        """{table: {seat: guest}} for a session (default: the current one)."""
        s = self.state.sessions[(session or len(self.state.sessions)) - 1]
        return {n: {x: self.state.holders[c] for x, c in zip(SEATS, t.seats) if c}
                for n, t in sorted(s.tables.items()) if t.players}

    def where(self, guest: str) -> tuple[int, str]:
        card = self.state.guests[guest].card
        return self.state.session.place_of(card)

    def replayed(self) -> dict:
        return to_json(replay(self.journal))


def cards_seating(party: Party, session: int | None = None) -> dict:
    """{table: "card card card card"} for a session; '-' for an empty seat."""
    s = party.state.sessions[(session or len(party.state.sessions)) - 1]
    return {n: " ".join(c or "-" for c in t.seats) for n, t in sorted(s.tables.items())
            if t.players}


def occupied(party: Party, n: int) -> str:
    return "".join(x for x, c in zip(SEATS, party.state.session.tables[n].seats) if c)


def win(party: Party, n: int, seat: str, gain: int) -> Verdict:
    """A Block/Draw game at table `n` won by `seat` with `gain` sixteenths."""
    t = party.state.session.tables[n]
    lead = occupied(party, n)[0] if t.entered == 0 else None
    return party.result(n, spots_game(occupied(party, n), {seat: gain}, lead=lead))
