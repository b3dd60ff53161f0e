"""A live hub in miniature for the tests: proposals admitted (judged, numbered, folded) and
journaled, exactly as the hub does; plus the values a table keys for a game."""
from __future__ import annotations

import itertools

from hub.conductor import admit, apply, replay, screens, to_json
from hub.conductor import events as k
from hub.conductor.cards import SEATS
from hub.conductor.state import PartyState
from hub.event import Event, Proposal, Verdict
from hub.scoring import MUSICAL
from hub.scoring.bounds import most_spots


class Party:
    def __init__(self, conductor: str = "ann"):
        self.state = PartyState()
        self.journal: list[Event] = []
        self.now = 1_000_000.0
        self.conductor = conductor
        self._ids = itertools.count(1)

    # -- the hub's loop ----------------------------------------------------------------
    def propose(self, source: str, kind: str, body: dict, id: str | None = None) -> Verdict:
        p = Proposal(id or f"p{next(self._ids)}", source, kind, body)
        v, after, events = admit(self.state, p, len(self.journal), self.now)
        assert len(v.msg) <= 16 and len(v.why) <= 16, v   # a board shows 16 columns
        for ev in events:  # one by one, so that every event's screens are looked at
            self.journal.append(ev)
            self.state = apply(self.state, ev)
            assert not self.state.anomalies, self.state.anomalies
            self.journaled(ev)
        assert self.state == after   # admit's state is the one the journal folds to
        return v

    def journaled(self, ev: Event) -> None:
        """Called after each event is journaled and folded: every screen still fits a board."""
        for screen in screens(self.state).values():
            assert len(screen["lines"]) <= 4 and all(len(x) <= 16 for x in screen["lines"]), screen
            for f in (screen["form"] or {}).get("fields", ()):
                assert len(f["label"]) <= 16, f

    def tick(self) -> list[Event]:
        """The hub's clock: journal the decisions due now (the time limit's bell)."""
        from hub.conductor import tick
        out = []
        for q in tick(self.state, self.now):
            ev = Event(len(self.journal) + 1, q.id, self.now, q.source, q.kind, q.body)
            self.journal.append(ev)
            self.state = apply(self.state, ev)
            self.journaled(ev)
            out.append(ev)
        return out

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
                if t.players >= (4 if self.state.setup.partnership else 2):
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


# -- what a table keys for a game: values that give the wanted result ----------------------

def spots_game(seats_at_table: str, gains: dict[str, int], lead: str | None = None) -> dict:
    """Block/Draw (Grimm): the seat with a gain goes out ("Domino!") and takes the
    sixteenths the others hold (one other seat holds them, in as few pieces as can show
    them); `gains` names one seat. A gain of 0 is a block with two seats equal lowest in
    note-values and dominoes: "there is no count"."""
    (winner, gain), = gains.items()
    others = [s for s in seats_at_table if s != winner]
    if not gain:
        values = {"out": 0}
        for s in seats_at_table:   # 1|3 and 2|2 tie lowest; 2|6, 4|4 hold more
            values[s], values[f"{s}_pieces"] = (4 if s in (winner, others[0]) else 8), 1
    else:
        values = {"out": SEATS.index(winner) + 1}
        for s in seats_at_table:
            values[s], values[f"{s}_pieces"] = 0, 0
        values[others[0]] = gain
        values[f"{others[0]}_pieces"] = next(
            k for k in range(1, len(MUSICAL)) if most_spots(MUSICAL.tiles, k) >= gain)
    if lead:
        values["lead"] = SEATS.index(lead) + 1
    return values


def quarters_game(seats_at_table: str, quarters: dict[str, int], lead: str | None = None) -> dict:
    """All Quarters: the quarters each seat made in play; A goes out, the next seat holds a
    1|2 (3 sixteenths, no whole quarter), so the count is the play's."""
    values = {"out": SEATS.index(seats_at_table[0]) + 1}
    for s in seats_at_table:
        values[s], values[f"{s}_pieces"], values[f"{s}_play"] = 0, 0, quarters.get(s, 0)
    values[seats_at_table[1]], values[f"{seats_at_table[1]}_pieces"] = 3, 1
    if lead:
        values["lead"] = SEATS.index(lead) + 1
    return values


def sebastopol_game(seats_at_table: str, winner: str) -> dict:
    """Sebastopol: `winner` makes "domino"; another seat is left holding a 1|2."""
    values = {"out": SEATS.index(winner) + 1, "draw": 0}
    for s in seats_at_table:
        values[s], values[f"{s}_pieces"] = 0, 0
    other = next(s for s in seats_at_table if s != winner)
    values[other], values[f"{other}_pieces"] = 3, 1
    return values


def bergen_hand(winner: str, doubles: int = 0) -> dict:
    """Bergen (party): `winner` makes "domino" (1 point) and `doubles` double-headers (2 each)."""
    return bergen_game("".join(SEATS), winner, doubles)


def bergen_game(seats_at_table: str, winner: str, doubles: int = 0) -> dict:
    """Bergen each for himself (a play-off): `winner` makes "domino" and `doubles` headers."""
    values = {"out": SEATS.index(winner) + 1}
    for s in seats_at_table:
        for key in ("_double", "_triple", "", "_doubles", "_low"):
            values[s + key] = 0
    values[f"{winner}_double"] = doubles
    values[next(s for s in seats_at_table if s != winner)] = 3   # a 1|2 left with another
    return values


def tiddle_hand(winner: str, doubles: int = 0) -> dict:
    """Tiddle-a-wink (party): `winner` calls "Tiddle-a-wink" (1 point) having played
    `doubles` doubles (1 point each)."""
    values = {"out": SEATS.index(winner) + 1}
    for s in SEATS:
        values[s], values[f"{s}_doubles"] = 0, 0
    values[f"{winner}_doubles"] = doubles
    values[next(s for s in SEATS if s != winner)] = 3   # a 1|2 left with another
    return values


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
