"""The judge: is an input true to the party so far? Answered before it is journaled.

`admit(state, proposal, seq, now)` is the one step every writer takes (the hub,
the tests' party, the benches, the audit): it refuses (with a reason short
enough for a table's display) or admits the proposal, followed by any decision
it brings about (the bell rung when a table finishes its last game, the cards
drawn, the players moved), numbered after `seq` and folded: the state it returns
is the one the journal will replay to, and the hub journals the events in one
transaction. What the judge decides or computes (a seed, a result's outcome) is
in the events' bodies, so the fold never decides or scores it again.
"""
from __future__ import annotations

import hashlib
import random
import re
from typing import NamedTuple

from hub.event import Event, Proposal, Verdict
from hub.refusal import Refusal

from . import events as k
from . import movement, seating
from .cards import PARTNER, SEATS, card_at, colour, number, successive
from .frozen import FrozenMap
from .names import similar
from .fold import apply, corrected_values, open_play_off
from .leads import keys_lead
from .prizes import awards, totals
from .scoring import rules, score, score_count
from .setup import CHANGEABLE_IN_PLAY, changed, from_body
from .state import (PartyState, find_entry, in_play, last_session, party_over,
                    played_cards, removable_table, session_over, table_done)

_LOGIN = re.compile(r"[a-z0-9-]{1,24}")


class _NotYet(Refusal):
    """A refusal that an earlier input of the same table, still on its way, would lift:
    the verdict is held (Verdict.held), never final."""


class _Admit(NamedTuple):   # a tuple: one is made for every input admitted
    """What a handler admits: the proposal (as journaled) and the decisions it takes."""
    proposals: tuple[Proposal, ...]
    msg: str
    bell_at: int | None = None   # a table whose counted results may now ring the bell


def admit(state: PartyState, p: Proposal, seq: int, now: float
          ) -> tuple[Verdict, PartyState, tuple[Event, ...]]:
    """The verdict on `p`, the state after it and the events to journal (numbered from
    seq + 1, at `now`); a refusal leaves the state as it was and journals nothing."""
    try:
        a = _judge(state, p, now)
        events, after = _fold(state, a.proposals, seq, now)
        due = _bell_due(after, a.bell_at, p) if a.bell_at is not None else ()
        if due:
            bell, after = _fold(after, due, seq + len(events), now)
            events += bell
    except Refusal as r:   # the only exception a bad input raises: anything else is a bug
        return Verdict.refuse(r.why, held=isinstance(r, _NotYet)), state, ()
    return Verdict.admit(*events, msg=a.msg), after, events


def judge(state: PartyState, p: Proposal, now: float) -> Verdict:
    """`admit`'s verdict alone, where the state after it is not wanted (the fuzz tests)."""
    return admit(state, p, state.seq, now)[0]


def _judge(state: PartyState, p: Proposal, now: float) -> _Admit:
    # the body is read (p.what) once its author is known to be one who may send it: a
    # malformed body is refused with why (hub/conductor/events.py), the handlers read values
    if p.kind in k.TABLE_KINDS:
        return _TABLE[p.kind](state, p, _table_of(state, p), now)
    if p.kind in k.STAFF_KINDS:
        login = _staff_of(state, p)
        _ = p.what   # read (or refused) before the handler looks at the state
        return _STAFF[p.kind](state, p, login, now)
    raise Refusal("UNKNOWN KIND")


def tick(state: PartyState, now: float) -> tuple[Proposal, ...]:
    """The hub's own decisions due at `now`: the bell that ends a party run by the clock
    ("The game lasts an hour and a half", BERGEN GAME). The hub journals what it gets.
    Its meaning is the form's own bell: stop at once in the partnership forms, finish
    the game in hand in the others."""
    setup, s = state.setup, state.session
    if (setup is None or setup.time_limit is None or state.started_at is None or s is None
            or s.started is None or s.bell is not None
            or now < state.started_at + setup.time_limit * 60):
        return ()
    return (Proposal.of(f"hub.time.s{s.number}", "hub",
                        k.HubBell(setup.bell_meaning, "time", final=True)),)


# -- helpers ---------------------------------------------------------------------------

def _table_of(state: PartyState, p: Proposal) -> int:
    kind, _, n = p.source.partition(":")
    if kind != "table" or not n.isdigit() or p.what.table != (n := int(n)):
        raise Refusal("WRONG TABLE")
    if state.setup is None:
        raise Refusal("NO PARTY")
    if not 1 <= n <= state.setup.tables:
        raise Refusal("UNKNOWN TABLE")
    return n


def _staff_of(state: PartyState, p: Proposal) -> str:
    kind, _, login = p.source.partition(":")
    if kind != "staff" or not _LOGIN.fullmatch(login):
        raise Refusal("NOT STAFF")
    if p.kind != k.PARTY_CREATED:
        if state.setup is None:
            raise Refusal("NO PARTY")
        if login not in state.staff:
            raise Refusal("NOT STAFF")
    return login


def _why(p: Proposal) -> None:
    """A mend must say why: it stays on record with its author's name."""
    if not p.what.why.strip():
        raise Refusal("SAY WHY")


def _fold(state: PartyState, proposals, seq: int, now: float
          ) -> tuple[tuple[Event, ...], PartyState]:
    """The events `proposals` become, numbered after `seq`, and the state after them as
    the journal makes it; refuses what the fold could not apply (so nothing unappliable
    is ever journaled)."""
    seen, events = len(state.anomalies), []
    for q in proposals:
        event = q.event(seq + len(events) + 1, now)
        state = apply(state, event)
        if len(state.anomalies) > seen:
            raise Refusal("BAD MESSAGE")
        events.append(event)
    return tuple(events), state


def _seed(p: Proposal, now: float) -> int:
    if p.what.seed is not None:
        return p.what.seed
    return int(hashlib.sha256(f"{p.id}|{now!r}".encode()).hexdigest()[:16], 16)


def _decision(p: Proposal, n: int, kind: type[k.Body], **fields) -> Proposal:
    """The hub's decision on `p`, naming who asked for it (a staff login, or a table)."""
    return Proposal.of(f"{p.id}/hub.{n}", "hub", kind(**fields, by=p.source))


def _bell_due(state: PartyState, table: int, p: Proposal) -> tuple[Proposal, ...]:
    """The bell a counted result brings about. Block, Draw: "As soon as four games have
    been finished at any table the conductor rings the bell ... but he does not permit a
    new game to be started"; All Quarters, Sebastopol: the third game (finish). Bergen:
    "Ten points made at any table ends a session, whereupon the bell is rung, and all
    tables stop playing at once"; Tiddle-a-wink: "Ten points made in partnership" (stop)."""
    setup, s = state.setup, state.session
    if s is None or s.bell is not None or s.started is None:
        return ()
    counted = s.tables[table].counted   # a count made in play is no game
    if setup.games_per_session is not None and counted.games >= setup.games_per_session:
        return (_decision(p, 1, k.HubBell, meaning="finish",
                          cause=FrozenMap({"table": table, "game": counted.games})),)
    if setup.session_points is not None:
        for side in (0, 1):
            if counted.points[side] >= setup.session_points:
                # the game of the result or of the count made in play that reached ten
                return (_decision(p, 1, k.HubBell, meaning="stop",
                                  cause=FrozenMap({"table": table, "game": counted.last.game})),)
    return ()


# -- the tables -----------------------------------------------------------------------------

def _result(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    b, setup = p.what, state.setup
    game = b.game
    if state.final_count is not None:
        i = open_play_off(state, n)
        if i is None:
            raise Refusal("PARTY OVER")
        po = state.play_offs[i]
        if game != sum(e.live for e in po.entries) + 1:
            raise Refusal("NO SUCH GAME")
        outcome = score(setup, po.cards + (None,) * (4 - len(po.cards)), b.values, play_off=True)
        return _Admit((p.judged(outcome=outcome),), "PLAY-OFF SAVED")
    s = state.session
    if s is None or s.started is None:
        raise Refusal("NOT IN SESSION")
    t = s.tables[n]
    if not in_play(setup, t):
        raise Refusal("SEAT EMPTY")
    bell = s.bell
    if t.closed is not None:
        raise Refusal("TABLE CLOSED")
    if bell is not None and bell.meaning == "stop" and bell.id in t.acks:
        # the board had shown the bell: anything keyed after it was played after the stop
        raise Refusal("TABLE STOPPED")
    if game <= t.entered:
        raise Refusal("ALREADY SAVED")
    if setup.games_per_session and game > setup.games_per_session:
        raise Refusal("NO SUCH GAME")
    if t.pending is not None:
        raise _NotYet("CONFIRM FIRST")
    if game != t.entered + 1:   # a later game: the one before it may still be on its way
        raise _NotYet("NO SUCH GAME")
    if bell is not None and bell.meaning == "finish" and bell.id in t.acks \
            and t.entered >= t.acks[bell.id] + 1:
        raise Refusal("NO NEW GAME")
    if setup.seat_check and t.seat_check is None:
        raise _NotYet("SEAT CHECK FIRST")
    outcome = score(setup, t.seats, b.values, lead=keys_lead(setup.form, game))
    msg = f"CONFIRM GAME {game}" if setup.confirm else f"GAME {game} SAVED"
    return _Admit((p.judged(outcome=outcome),), msg, bell_at=n)


def _count(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    """A count made in play, keyed as it is made (set-up `in_play` "each"): Bergen's headers,
    Grimm's Tiddle-a-wink doubles. "Ten points made at any table ends a session, whereupon
    the bell is rung, and all tables stop playing at once" (BERGEN GAME party): the count
    that reaches ten rings the stop bell at once, mid-hand."""
    b, setup, s = p.what, state.setup, state.session
    game = b.game
    if state.final_count is not None or s is None or s.started is None:
        raise Refusal("NOT IN SESSION")
    t = s.tables[n]
    if not in_play(setup, t):
        raise Refusal("SEAT EMPTY")
    if t.closed is not None or table_done(setup, s, t):
        raise Refusal("TABLE DONE")
    if s.bell is not None and s.bell.meaning == "stop":
        raise Refusal("TABLE STOPPED")   # all tables stop at once: nothing made after the bell
    if game <= t.entered:
        raise Refusal("ALREADY SAVED")
    if t.pending is not None:
        raise _NotYet("CONFIRM FIRST")
    if game != t.entered + 1:
        raise _NotYet("NO SUCH GAME")
    if setup.seat_check and t.seat_check is None:
        raise _NotYet("SEAT CHECK FIRST")
    outcome = score_count(setup, t.seats, b.values)
    return _Admit((p.judged(outcome=outcome),), "COUNTED", bell_at=n)


def _count_undone(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    """A table takes back the last count it keyed (a wrong seat, a double that was not one):
    counts are sent without a review page, so one key undoes one. Only while its hand is in
    play: once the hand's result is in, or the stop bell has rung, the count stands and only
    the conductor can annul it."""
    count, s = p.what.count, state.session
    if s is None or s.started is None:
        raise Refusal("NOT IN SESSION")
    t = s.tables[n]
    e = next((e for e in t.entries if e.id == count and e.in_play), None)
    if e is None:
        raise Refusal("NO SUCH COUNT")
    if e.annulled is not None:
        raise Refusal("ALREADY UNDONE")
    if e.game <= t.entered or t.closed is not None:
        raise Refusal("HAND CLOSED")
    if s.bell is not None and s.bell.meaning == "stop":
        raise Refusal("TABLE STOPPED")
    return _Admit((p.judged(why="undone at the table"),), "COUNT UNDONE")


def _confirm(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    entry_id, seat = p.what.entry, p.what.seat
    where = find_entry(state, entry_id, n)
    if where is None or where[1] != n:
        raise Refusal("NO SUCH GAME")
    si, _, ei = where
    e = (state.play_offs[-1 - si] if si < 0 else state.sessions[si].tables[n]).entries[ei]
    if e.annulled is not None:
        raise Refusal("GAME ANNULLED")
    if not e.needs_confirm or e.confirmed_by is not None:
        raise Refusal("CONFIRMED")
    i = SEATS.index(seat)
    if e.seats[i] is None:
        raise Refusal("SEAT EMPTY")
    # "a player of the other side": not one who won the game (nor, with sides, his partner)
    if seat in e.winners or (state.setup.partnership and PARTNER[seat] in e.winners):
        raise Refusal("OTHER SIDE ONLY")
    return _Admit((p,), "CONFIRMED", bell_at=n if si == len(state.sessions) - 1 else None)


def _seat_check(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    s, setup = state.session, state.setup
    keyed = p.what.cards   # card numbers by seat, each a whole number >= 0 (events.SeatCheck)
    if s is None or session_over(setup, s):
        raise Refusal("NOT IN SESSION")
    t = s.tables[n]
    if not in_play(setup, t):
        raise Refusal("SEAT EMPTY")
    if t.seat_check is not None:
        raise Refusal("SEATS CHECKED")
    numbers = [keyed.get(x, 0) for x in SEATS]
    given = [v for v in numbers if v]
    if len(given) != len(set(given)):
        raise Refusal("SEATED TWICE")
    for x, v, card in zip(SEATS, numbers, t.seats):
        if v != (number(card) if card else 0):
            raise Refusal(f"SEAT {x} WRONG")
    return _Admit((p,), "SEATS OK")


def _table_bell(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    s = state.session
    if s is None or s.started is None or session_over(state.setup, s):
        raise Refusal("NOT IN SESSION")
    if s.bell is not None:
        raise Refusal("BELL RUNG")
    due = _bell_due(state, n, p)
    if not due:
        raise Refusal("GAMES REMAIN")
    return _Admit((p, *due), "BELL RUNG")


def _bell_ack(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    s = state.session
    bell = p.what.bell
    if s is None or not any(b.id == bell for b in s.bells):
        raise Refusal("NO SUCH BELL")
    if bell in s.tables[n].acks:
        raise Refusal("BELL SEEN")
    return _Admit((p,), "BELL SEEN")


def _call(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    return _Admit((p,), "CONDUCTOR CALLED")


def _closable(state: PartyState, s, t) -> None:
    """A table's session may be closed (by the table's "no game in hand" or the conductor)
    only while it is not already done and has no result waiting for its confirmation."""
    if t.closed is not None or table_done(state.setup, s, t):
        raise Refusal("TABLE DONE")
    if t.pending is not None:
        raise Refusal("CONFIRM FIRST")


def _no_game(state: PartyState, p: Proposal, n: int, now: float) -> _Admit:
    """After the finish bell ("he does not permit a new game to be started"), a table between
    games says it has no game in hand: its session is over, as the conductor's closing a
    table says (TABLE_CLOSED), without the conductor having to."""
    s = state.session
    if s is None or s.started is None or not in_play(state.setup, s.tables[n]):
        raise Refusal("NOT IN SESSION")
    if s.bell is None or s.bell.meaning != "finish":
        raise Refusal("NO FINISH BELL")
    _closable(state, s, s.tables[n])
    return _Admit((p,), "NO GAME IN HAND")


_TABLE = {k.RESULT: _result, k.CONFIRM: _confirm, k.SEAT_CHECK: _seat_check,
          k.TABLE_BELL: _table_bell, k.BELL_ACK: _bell_ack, k.CALL: _call, k.NO_GAME: _no_game,
          k.COUNT: _count, k.COUNT_UNDONE: _count_undone}


# -- the staff ---------------------------------------------------------------------------

def _party_created(state: PartyState, p: Proposal, login: str, now: float) -> _Admit:
    if state.setup is not None:
        raise Refusal("PARTY EXISTS")
    setup = from_body(p.what.setup)
    rules(setup, 4)    # the engine knows the form, variant and tile set
    return _Admit((p,), "PARTY CREATED")


def _staff_added(state, p, login, now):
    if state.staff.get(login) != "conductor":
        raise Refusal("CONDUCTOR ONLY")
    new, role = p.what.login, p.what.role or "assistant"
    if not _LOGIN.fullmatch(new) or role not in ("assistant", "conductor"):
        raise Refusal("BAD LOGIN")
    if new in state.staff:
        raise Refusal("ALREADY STAFF")
    return _Admit((p,), "STAFF ADDED")


def _staff_removed(state, p, login, now):
    """A login taken off the staff by a conductor (never his own: another conductor may)."""
    if state.staff.get(login) != "conductor":
        raise Refusal("CONDUCTOR ONLY")
    _why(p)
    gone = p.what.login
    if gone not in state.staff:
        raise Refusal("NO SUCH LOGIN")
    if gone == login:
        raise Refusal("NOT YOURSELF")
    return _Admit((p,), "STAFF REMOVED")


def _guest(state, p) -> str:
    name = p.what.guest
    if not name.strip():
        raise Refusal("BAD NAME")
    return name


def _new_name(state, p, key: str = "guest", besides: str | None = None) -> str:
    """A name for the list: not there yet, nor a near-duplicate of one there ("Ann Lee",
    "ann lee", "Ann  Lee") unless the host says it is another person (similar_ok)."""
    name = getattr(p.what, key)
    if not name.strip() or len(name) > 80:
        raise Refusal("BAD NAME")
    if name in state.guests:
        raise Refusal("ALREADY LISTED")
    if not p.what.similar_ok and similar(state.names, name, besides) is not None:
        raise Refusal("SIMILAR NAME")
    return name


def _guest_listed(state, p, login, now):
    _new_name(state, p)
    return _Admit((p,), "LISTED")


def _walk_in(state, p, login, now):
    """A walk-in at the door: listed and checked in in one step; after the draw he is a
    late-comer and gets a vacant seat at the last tables at once."""
    name = _new_name(state, p)
    if state.session is None:
        return _Admit((p,), "CHECKED IN")
    return _late_comer(state, p, name, now)


def _checked_in(state, p, login, now):
    name = _guest(state, p)
    guest = state.guests.get(name)
    if guest is None:
        raise Refusal("NOT ON THE LIST")
    if guest.checked_in:
        raise Refusal("ALREADY IN")
    if state.session is None:
        return _Admit((p,), "CHECKED IN")
    return _late_comer(state, p, name, now)


def _late_comer(state, p, name: str, now: float) -> _Admit:
    """ "Late-comers will have to be satisfied to receive vacant seats at the last tables"
    (LIST): the seat and card are the hub's decision, journaled after the request."""
    if state.final_count is not None:
        raise Refusal("PARTY OVER")
    place = seating.place_late_comer(state)
    if place is None:
        raise Refusal("PARTY FULL")
    card, table, seat = place
    placed = _decision(p, 1, k.GuestPlaced, guest=name, card=card, table=table, seat=seat)
    return _Admit((p, placed), f"TABLE {table} {seat}")


def _draw_seats(state, p, login, now):
    """The hub draws the cards for the guests present, or (by_hand) the seats follow the
    printed cards the guests drew from the tray, as recorded card by card."""
    if state.sessions:
        raise Refusal("SEATS DRAWN")
    setup = state.setup
    guests = [g.name for g in state.guests.values() if g.checked_in and g.left is None]
    need = 4 if setup.partnership else 2
    if len(guests) < need:
        raise Refusal("TOO FEW GUESTS")
    if len(guests) > setup.tables * 4:
        raise Refusal("TOO MANY GUESTS")
    if setup.partnership and len(guests) % 4:
        # "There must always be four players at each table" (BERGEN GAME), two of each colour
        raise Refusal("FOUR AT A TABLE")
    in_hand = {g.name: g.card for g in state.guests.values() if g.card}
    if p.what.by_hand:
        if any(name not in in_hand for name in guests):
            raise Refusal("CARDS NOT DRAWN")
        if sorted(in_hand.values(), key=number) != seating.cards_taken(setup, len(guests)):
            raise Refusal("WRONG CARDS")
        drawn = _decision(p, 1, k.SeatsDrawn, seed=None, by_hand=True,
                          cards=FrozenMap((name, in_hand[name]) for name in guests))
    else:
        if in_hand:
            raise Refusal("DRAWN BY HAND")
        seed = _seed(p, now)
        drawn = _decision(p, 1, k.SeatsDrawn, seed=seed,
                          cards=FrozenMap(seating.draw(setup, guests, random.Random(seed))))
    return _Admit((p, drawn), "SEATS DRAWN")


def _seated_guest(state, p) -> tuple[str, str]:
    name = _guest(state, p)
    guest = state.guests.get(name)
    if guest is None or not guest.checked_in or guest.card is None:
        raise Refusal("NOT CHECKED IN")
    if guest.left is not None:
        raise Refusal("GUEST LEFT")
    return name, guest.card


def _guest_seated(state, p, login, now):
    _why(p)
    name, card = _seated_guest(state, p)
    s = state.session
    table, seat = p.what.table, p.what.seat
    if table not in s.tables:
        raise Refusal("NO SUCH SEAT")
    if s.place_of(card) == (table, seat):
        raise Refusal("ALREADY SEATED")
    if s.tables[table].seats[SEATS.index(seat)] is not None:
        raise Refusal("SEAT TAKEN")
    if state.setup.partnership and colour(card) != colour(card_at(1, seat, True)):
        raise Refusal("WRONG COLOUR")
    return _Admit((p,), f"TABLE {table} {seat}")


def _guest_left(state, p, login, now):
    _why(p)
    name = _guest(state, p)
    guest = state.guests.get(name)
    if guest is None or not guest.checked_in:
        raise Refusal("NOT HERE")
    if guest.left is not None:
        raise Refusal("ALREADY LEFT")
    return _Admit((p,), "GUEST LEFT")


def _guest_back(state, p, login, now):
    """A guest who left comes back (or "has left" was pressed on the wrong row): his own
    card and score, his seat if nobody took it, else a vacant seat at the last tables like
    a late-comer (LIST); before the draw, simply present again; once every session is
    played (the final count made or not), back in the standings and the prizes only."""
    _why(p)
    name = _guest(state, p)
    guest = state.guests.get(name)
    if guest is None:
        raise Refusal("NOT ON THE LIST")
    if guest.left is None:
        raise Refusal("NOT LEFT")
    if state.session is None or party_over(state):
        return _Admit((p,), "GUEST BACK")
    if guest.card is None:   # he left before the draw: now a late-comer with a card of his own
        return _late_comer(state, p, name, now)
    place = seating.place_returning(state, guest)
    if place is None:
        raise Refusal("PARTY FULL")
    table, seat = place
    placed = _decision(p, 1, k.GuestPlaced, guest=name, card=guest.card, table=table, seat=seat)
    return _Admit((p, placed), f"TABLE {table} {seat}")


def _check_in_undone(state, p, login, now):
    _why(p)
    guest = state.guests.get(_guest(state, p))
    if guest is None or not guest.checked_in or guest.left is not None:
        raise Refusal("NOT CHECKED IN")
    if state.final_count is not None:
        raise Refusal("COUNTED")
    if guest.card is not None and guest.card in played_cards(state):
        raise Refusal("HAS A CARD")   # his card has a game on it: he is a guest who left
    # a card nobody played with goes back to the tray: a late-comer checked in by mistake
    return _Admit((p,), "CHECK-IN UNDONE")


def _all_checked_in(state, p, login, now):
    if state.sessions:
        raise Refusal("SEATS DRAWN")
    if all(g.checked_in for g in state.guests.values()):
        raise Refusal("ALL IN")
    return _Admit((p,), "ALL CHECKED IN")


def _guest_renamed(state, p, login, now):
    _why(p)
    old = _guest(state, p)
    if old not in state.guests:
        raise Refusal("NOT ON THE LIST")
    _new_name(state, p, "name", besides=old)
    return _Admit((p,), "RENAMED")


def _guest_removed(state, p, login, now):
    _why(p)
    guest = state.guests.get(_guest(state, p))
    if guest is None:
        raise Refusal("NOT ON THE LIST")
    if guest.card is not None:
        raise Refusal("HAS A CARD")   # his card is on record: he leaves instead
    return _Admit((p,), "REMOVED")


def _card_drawn(state, p, login, now):
    """A printed card drawn from the tray ("The card which a person draws will decide at
    which table and chair he is to be seated", TRAY), recorded by hand before the seats."""
    if state.sessions:
        raise Refusal("SEATS DRAWN")
    guest = state.guests.get(_guest(state, p))
    if guest is None or not guest.checked_in or guest.left is not None:
        raise Refusal("NOT CHECKED IN")
    card = p.what.card
    if card is None:
        if guest.card is None:
            raise Refusal("NO CARD DRAWN")
        return _Admit((p,), "CARD PUT BACK")
    if card not in successive(state.setup.tables, state.setup.partnership):
        raise Refusal("NO SUCH CARD")
    if card in state.holders:
        raise Refusal("CARD TAKEN")
    return _Admit((p,), "CARD DRAWN")


def _table_added(state, p, login, now):
    _why(p)
    if state.final_count is not None:
        raise Refusal("PARTY OVER")
    if state.setup.tables >= 999:
        raise Refusal("BAD TABLES")
    return _Admit((p,), f"TABLE {state.setup.tables + 1} ADDED")


def _table_removed(state, p, login, now):
    """"Add a table" pressed once too often: the last table goes again while nobody has
    ever sat there; else it stays (empty, it is idle and the movement passes it by)."""
    _why(p)
    if state.final_count is not None:
        raise Refusal("COUNTED")
    if state.setup.tables < 2:
        raise Refusal("ONE TABLE")
    n = removable_table(state)
    if n is None:
        raise Refusal("TABLE IN USE")
    return _Admit((p,), f"TABLE {n} REMOVED")


def _party_changed(state, p, login, now):
    """The set-up may change until play begins; after that, only the prizes (and tables
    added, by their own event). Once the seats are drawn the form and tables stay until
    the draw is undone."""
    _why(p)
    changes = p.what.changes
    if not changes:
        raise Refusal("NO CHANGE")
    if state.final_count is not None:
        raise Refusal("COUNTED")
    s = state.session
    if s is not None and (s.started is not None or len(state.sessions) > 1) \
            and not set(changes) <= CHANGEABLE_IN_PLAY:
        raise Refusal("PLAY HAS BEGUN")
    if s is not None and {"form", "tables"} & set(changes):
        raise Refusal("SEATS DRAWN")
    setup = changed(state.setup, changes)
    if setup == state.setup:
        raise Refusal("NO CHANGE")
    rules(setup, 4)
    return _Admit((p,), "PARTY CHANGED")


def _draw_undone(state, p, login, now):
    """Until play begins the draw may be undone (to change the form or the tables, or to
    draw again): the seats were announced, no game was played on them."""
    _why(p)
    s = state.session
    if s is None:
        raise Refusal("SEATS NOT DRAWN")
    if s.started is not None or len(state.sessions) > 1:
        raise Refusal("PLAY HAS BEGUN")
    return _Admit((p,), "DRAW UNDONE")


def _display_changed(state, p, login, now):
    """The projector's standings hidden (or shown again): "the last session's suspense"."""
    standings = p.what.standings
    if standings not in ("hidden", "shown"):
        raise Refusal("BAD MESSAGE")
    if (state.standings_hidden is not None) == (standings == "hidden"):
        raise Refusal(f"ALREADY {standings.upper()}")
    return _Admit((p,), f"STANDINGS {standings.upper()}")


def _session_started(state, p, login, now):
    s = state.session
    if s is None:
        raise Refusal("SEATS NOT DRAWN")
    if p.what.session != s.number:
        raise Refusal("WRONG SESSION")
    if s.started is not None:
        raise Refusal("ALREADY STARTED")
    if not any(in_play(state.setup, t) for t in s.tables.values()):
        raise Refusal("NO TABLES")
    return _Admit((p,), f"SESSION {s.number}")


def _bell(state, p, login, now):
    s = state.session
    meaning = p.what.meaning
    if meaning not in ("finish", "stop"):
        raise Refusal("BAD MESSAGE")
    if s is None or s.started is None or session_over(state.setup, s):
        raise Refusal("NOT IN SESSION")
    if s.bell is not None and (s.bell.meaning == "stop" or meaning == "finish"):
        raise Refusal("BELL RUNG")
    if p.what.final and state.setup.time_limit is None:
        raise Refusal("NOT BY THE CLOCK")
    return _Admit((p,), "BELL RUNG")


def _bell_undone(state, p, login, now):
    _why(p)
    s = state.session
    bell = next((b for b in (s.bells if s else ()) if b.id == p.what.bell), None)
    if bell is None:
        raise Refusal("NO SUCH BELL")
    if bell.undone is not None:
        raise Refusal("ALREADY UNDONE")
    return _Admit((p,), "BELL UNDONE")


def _entry_of(state, p):
    entry_id = p.what.entry
    where = find_entry(state, entry_id) if entry_id is not None else None
    if where is None:
        raise Refusal("NO SUCH GAME")
    si, n, ei = where
    e = (state.play_offs[-1 - si] if si < 0 else state.sessions[si].tables[n]).entries[ei]
    if e.annulled is not None:
        raise Refusal("GAME ANNULLED")
    return e


def _result_corrected(state, p, login, now):
    _why(p)
    e = _entry_of(state, p)
    values, lead = corrected_values(state, e, p.what.values)
    # a count made in play is scored as one (a header given to the other seat), never as a hand
    outcome = score_count(state.setup, e.seats, values) if e.in_play else \
        score(state.setup, e.seats, values, play_off=e.session == 0, lead=lead)
    current = e.session == (state.session.number if state.session else -1)
    return _Admit((p.judged(outcome=outcome),), "CORRECTED",
                  bell_at=e.table if current else None)


def _game_annulled(state, p, login, now):
    """"If it occur that a wrong match has been made ... the conductor or his assistant
    will have to annul the game ... and the players at that particular table will have to
    begin a new game" — a game in hand (no result yet) or one already keyed."""
    _why(p)
    if p.what.entry is not None:
        e = _entry_of(state, p)
        if p.what.table != e.table:
            raise Refusal("WRONG TABLE")
        return _Admit((p,), "GAME ANNULLED")
    s, n = state.session, p.what.table
    if s is None or s.started is None or n not in s.tables or \
            table_done(state.setup, s, s.tables[n]) or not in_play(state.setup, s.tables[n]):
        raise Refusal("NOT IN SESSION")
    return _Admit((p,), "GAME ANNULLED")


def _table_closed(state, p, login, now):
    _why(p)
    s, n = state.session, p.what.table
    if s is None or s.started is None or n not in s.tables:
        raise Refusal("NOT IN SESSION")
    _closable(state, s, s.tables[n])
    return _Admit((p,), "TABLE CLOSED")


def _call_answered(state, p, login, now):
    if not state.calls.get(p.what.table):
        raise Refusal("NO CALL")
    return _Admit((p,), "ANSWERED")


def _reseat(state, p, login, now):
    s, setup = state.session, state.setup
    if s is None or s.started is None:
        raise Refusal("NOT IN SESSION")
    if not session_over(setup, s):
        raise Refusal("RESULTS MISSING")
    if last_session(state):
        raise Refusal("LAST SESSION")
    seed = _seed(p, now)
    m = movement.move(setup, s, totals(state), random.Random(seed))
    moved = _decision(p, 1, k.PlayersMoved, session=s.number + 1, seed=seed, seats=m.seats,
                      lots=m.lots, punches=m.punches)
    return _Admit((p, moved), f"SESSION {s.number + 1} SET")


def _final_count(state, p, login, now):
    """"Before announcing the winners he counts all his score-cards, in order to be sure of
    having as many in his hands as there were players" (THIRD SESSION)."""
    if state.final_count is not None:
        raise Refusal("COUNTED")
    if not party_over(state):
        raise Refusal("PARTY NOT OVER")
    checked = [g for g in state.guests.values() if g.checked_in]
    # a guest who left before the draw never had a card; every other has his own
    if any(state.holders.get(g.card) != g.name for g in checked if g.card or g.left is None):
        raise Refusal("CARDS MISSING")
    if any(e.pending for s in state.sessions for t in s.tables.values() for e in t.entries):
        raise Refusal("RESULTS MISSING")
    msg = f"COUNTED {len(checked)}"
    if not state.setup.partnership:
        return _Admit((p,), msg)
    # the last session's winners get their punch-holes too, though nobody moves any more
    seed = _seed(p, now)
    m = movement.move(state.setup, state.session, totals(state), random.Random(seed))
    punched = _decision(p, 1, k.Punched, session=state.session.number, seed=seed, lots=m.lots,
                        punches=m.punches)
    return _Admit((p, punched), msg)


def _play_off(state, p, login, now):
    """"he requests the candidates for the second prize to play a game among themselves in
    order to solve the tie; and he who wins this game gets the second prize" (THIRD SESSION)."""
    if state.final_count is None:
        raise Refusal("COUNT FIRST")
    prize, table = p.what.prize, p.what.table
    award = next((a for a in awards(state) if a.prize == prize), None)
    if award is None or len(award.cards) < 2:
        raise Refusal("NO TIE")
    if any(po.prize == prize for po in state.play_offs):
        raise Refusal("PLAY-OFF SET")
    if not 1 <= table <= state.setup.tables:
        raise Refusal("UNKNOWN TABLE")
    if open_play_off(state, table) is not None:
        raise Refusal("TABLE BUSY")
    if len(award.cards) > 4:
        raise Refusal("TOO MANY TIED")
    rules(state.setup, len(award.cards), play_off=True)
    seated = _decision(p, 1, k.PlayOffSeated, prize=prize, table=table, cards=tuple(award.cards))
    return _Admit((p, seated), "PLAY-OFF SET")


_STAFF = {
    k.PARTY_CREATED: _party_created, k.STAFF_ADDED: _staff_added, k.GUEST_LISTED: _guest_listed,
    k.STAFF_REMOVED: _staff_removed,
    k.CHECKED_IN: _checked_in, k.DRAW_SEATS: _draw_seats, k.GUEST_SEATED: _guest_seated,
    k.GUEST_LEFT: _guest_left, k.GUEST_BACK: _guest_back, k.SESSION_STARTED: _session_started,
    k.BELL: _bell, k.BELL_UNDONE: _bell_undone, k.RESULT_CORRECTED: _result_corrected,
    k.GAME_ANNULLED: _game_annulled, k.TABLE_CLOSED: _table_closed,
    k.CALL_ANSWERED: _call_answered, k.RESEAT: _reseat, k.FINAL_COUNT: _final_count,
    k.PLAY_OFF: _play_off, k.WALK_IN: _walk_in, k.CHECK_IN_UNDONE: _check_in_undone,
    k.ALL_CHECKED_IN: _all_checked_in, k.GUEST_RENAMED: _guest_renamed,
    k.GUEST_REMOVED: _guest_removed, k.CARD_DRAWN: _card_drawn, k.TABLE_ADDED: _table_added,
    k.TABLE_REMOVED: _table_removed,
    k.PARTY_CHANGED: _party_changed, k.DISPLAY_CHANGED: _display_changed,
    k.DRAW_UNDONE: _draw_undone,
}
