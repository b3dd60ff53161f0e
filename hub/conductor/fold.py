"""The fold: state = fold(events). One pure function per kind of event.

Every event here was admitted by the judge against the state folded before it,
so the handlers apply it without asking again. The fold is total all the same: an
event it cannot apply (a journal written by another version, say) is kept in
`anomalies` and changes nothing else, so a party never stops on one bad row.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager

from hub.event import Event, canonical
from hub.refusal import Refusal

from . import events as k
from .cards import SEATS, home
from .events import Outcome
from .frozen import FrozenMap, thawed
from .leads import keys_lead
from .names import indexed, unindexed
from .scoring import score, score_count
from .setup import changed, from_body
from .state import (Bell, Entry, Guest, Mend, PartyState, PlayOff, Session, TableSession, replace,
                    find_entry, seated_cards)


def initial() -> PartyState:
    return PartyState()


def apply(state: PartyState, event: Event) -> PartyState:
    handler = _HANDLERS.get(event.kind)
    if handler is None:
        return replace(state, seq=event.seq)
    try:
        new = handler(state, event)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, Refusal) as e:
        why = e.why if isinstance(e, Refusal) else f"{type(e).__name__}: {e}"
        return replace(state, seq=event.seq,
                       anomalies=state.anomalies + ((event.seq, event.kind, why),))
    if new is state:
        return replace(new, seq=event.seq)
    # a state the handler has just made, seen by nobody yet: numbered where it stands
    # instead of copied once more (a quarter of the copies a replay makes)
    new.__dict__["seq"] = event.seq
    return new


@contextmanager
def collector_paused():
    """Folding a journal makes the party's values and frees almost nothing in cycles: the
    cyclic collector's passes over an ever larger heap found nothing and took a quarter of a
    100,000-event replay (docs/performance.md). Paused while it runs; what it left is
    collected at the next pass after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def collector_spares_the_party() -> None:
    """For a process that keeps a party's state and folds on (the hub, after its start-up's
    replay): what is folded so far stays for the party and holds no cycles, so the cyclic
    collector is told to leave it (`gc.freeze`), and its youngest generation is collected
    after 10,000 new containers instead of 700 — the writer makes a few dozen per result,
    most freed by their counts within the batch. Without this the collector's passes over
    the party's values and the batch's took a tenth of the writer's CPU: 200-250 ms of
    every 8,000 results (docs/performance.md, section 0). No collection first: the replay
    leaves next to no cycles (`collector_paused`), and a full pass over a 100,000-event
    party would add half a second to the start-up."""
    gc.freeze()
    gc.set_threshold(10_000, *gc.get_threshold()[1:])


@collector_paused()
def replay(events) -> PartyState:
    state = initial()
    for e in events:
        state = apply(state, e)
    return state


def _mend(ev: Event) -> Mend:
    """Who did it: the source, or for a hub decision the one whose request it answers."""
    w = ev.what
    return Mend(w.by or ev.source, w.why or "", ev.seq, ev.id)


def _table(state: PartyState, n: int) -> TableSession:
    return state.session.tables[n]


def _put(state: PartyState, n: int, t: TableSession) -> PartyState:
    return state.with_session(state.session.with_table(n, t))


def _seat(state: PartyState, card: str, place) -> PartyState:
    """Take `card` out of its seat in the current session and put it at `place` (or nowhere)."""
    s = state.session
    tables = s.tables
    old = s.place_of(card)
    if old is not None:
        t = tables[old[0]]
        tables = tables.set(old[0], replace(t, seats=tuple(None if c == card else c for c in t.seats)))
    if place is not None:
        n, seat = place
        t = tables[n]
        row = list(t.seats)
        row[SEATS.index(seat)] = card
        # somebody new sits down: the table checks its seats again before its next result
        tables = tables.set(n, replace(t, seats=tuple(row), seat_check=None))
    return state.with_session(replace(s, tables=tables))


def _all_tables(state: PartyState, seats) -> FrozenMap:
    empty = (None,) * 4
    return FrozenMap((n, TableSession(tuple(seats.get(n, empty))))
                     for n in range(1, state.setup.tables + 1))


# -- set-up, staff and guests -----------------------------------------------------------

def _party_created(state, ev):
    login = ev.source.partition(":")[2]
    return replace(state, setup=from_body(ev.what.setup), created=_mend(ev),
                   staff=FrozenMap({login: "conductor"}))


def _staff_added(state, ev):
    return replace(state, staff=state.staff.set(ev.what.login, ev.what.role or "assistant"))


def _staff_removed(state, ev):
    gone = ev.what.login
    state = _noted(state, ev, f"{gone} taken off the staff")
    return replace(state, staff=FrozenMap((n, r) for n, r in state.staff.items() if n != gone))


def _guest_listed(state, ev):
    name = ev.what.guest
    return replace(state, guests=state.guests.set(name, Guest(name)),
                   names=indexed(state.names, name))


def _checked_in(state, ev):
    name = ev.what.guest
    if name not in state.guests:   # a journal written around the judge: listed as it comes
        state = _guest_listed(state, ev)
    return replace(state, guests=state.guests.set(name, replace(state.guests[name], checked_in=True)))


def _seats_drawn(state, ev):
    cards = ev.what.cards
    guests, holders, seats = state.guests, state.holders, {}
    for name, card in cards.items():
        guests = guests.set(name, replace(guests[name], card=card))
        holders = holders.set(card, name)
        table, seat = home(card)
        seats.setdefault(table, [None] * 4)[SEATS.index(seat)] = card
    session = Session(1, _all_tables(state, seats), _mend(ev))
    return replace(state, guests=guests, holders=holders, sessions=(session,))


def _guest_placed(state, ev):
    b = ev.what
    name, card = b.guest, b.card
    state = replace(state, guests=state.guests.set(name, replace(state.guests[name], card=card)),
                    holders=state.holders.set(card, name))
    return _seat(state, card, (b.table, b.seat))


def _guest_seated(state, ev):
    b = ev.what
    return _seat(state, state.guests[b.guest].card, (b.table, b.seat))


def _guest_left(state, ev):
    name = ev.what.guest
    guest = state.guests[name]
    if guest.card and state.session is None:
        # a printed card drawn by hand before the seats: it goes back to the tray
        state = _hand_card(state, name, None)
        guest = state.guests[name]
    s = state.session
    place = s.place_of(guest.card) if guest.card and s is not None else None
    vacated = (s.number, *place) if place else None   # his seat, should he come back
    state = replace(state, guests=state.guests.set(name, replace(guest, left=_mend(ev),
                                                                 vacated=vacated)))
    if place:
        state = _seat(state, guest.card, None)
    return state


def _guest_back(state, ev):
    """Back on the list of those present; his seat, if any, follows as hub.guest-placed."""
    name = ev.what.guest
    state = _noted(state, ev, f"{name} is back")
    return replace(state, guests=state.guests.set(name, replace(state.guests[name], left=None,
                                                                vacated=None)))


def _walk_in(state, ev):
    return _checked_in(_guest_listed(state, ev), ev)


def _noted(state, ev, what: str) -> PartyState:
    """A change to the party's set-up or guest list, kept with who made it and why."""
    return replace(state, changes=state.changes + ((what, _mend(ev)),))


def _check_in_undone(state, ev):
    """Not here after all; a card he holds, with no game played on it, goes back to the tray
    and his seat is vacant."""
    name = ev.what.guest
    state = _noted(state, ev, f"check-in of {name} undone")
    card = state.guests[name].card
    if card is not None and state.session is not None:
        state = _seat(state, card, None)
    if card is not None:
        state = _hand_card(state, name, None)
    return replace(state, guests=state.guests.set(name, replace(state.guests[name], checked_in=False)))


def _all_checked_in(state, ev):
    return replace(state, guests=FrozenMap((n, replace(g, checked_in=True))
                                           for n, g in state.guests.items()))


def _guest_renamed(state, ev):
    old, new = ev.what.guest, ev.what.name
    guest = replace(state.guests[old], name=new)
    guests = FrozenMap((new if n == old else n, guest if n == old else g)
                       for n, g in state.guests.items())
    holders = state.holders.set(guest.card, new) if guest.card else state.holders
    return _noted(replace(state, guests=guests, holders=holders,
                          names=indexed(unindexed(state.names, old), new)), ev, f"{old} renamed {new}")


def _guest_removed(state, ev):
    name = ev.what.guest
    state = _noted(state, ev, f"{name} removed from the list")
    return replace(state, guests=FrozenMap((n, g) for n, g in state.guests.items() if n != name),
                   names=unindexed(state.names, name))


def _card_drawn(state, ev):
    return _hand_card(state, ev.what.guest, ev.what.card)


def _hand_card(state, name: str, card: str | None):
    """A printed card drawn from the tray (or put back: None): the guest holds it; the
    seats follow at the draw."""
    guest = state.guests[name]
    holders = FrozenMap((c, n) for c, n in state.holders.items() if n != name)
    if card is not None:
        holders = holders.set(card, name)
    return replace(state, guests=state.guests.set(name, replace(guest, card=card)), holders=holders)


def _table_added(state, ev):
    """A new last table; in the session under way it is empty until late-comers sit there."""
    n = state.setup.tables + 1
    state = _noted(replace(state, setup=replace(state.setup, tables=n)), ev, f"Table {n} added")
    s = state.session
    if s is None:
        return state
    return state.with_session(replace(s, tables=s.tables.set(n, TableSession((None,) * 4))))


def _table_removed(state, ev):
    """The last table taken away again: it never had a player, in any session."""
    n = state.setup.tables
    state = _noted(replace(state, setup=replace(state.setup, tables=n - 1)), ev, f"Table {n} removed")
    sessions = tuple(replace(s, tables=FrozenMap((m, t) for m, t in s.tables.items() if m != n))
                     for s in state.sessions)
    return replace(state, sessions=sessions)


def _party_changed(state, ev):
    setup = changed(state.setup, ev.what.changes)
    was, now = state.setup.to_json(), setup.to_json()
    what = ", ".join(f"{key.replace('_', ' ')} {was[key]} → {now[key]}" for key in now if now[key] != was[key])
    return _noted(replace(state, setup=setup), ev, f"set-up: {what}")


def _draw_undone(state, ev):
    """Every card back in the tray: the guests stay checked in, nobody is seated."""
    guests = FrozenMap((n, replace(g, card=None)) for n, g in state.guests.items())
    return _noted(replace(state, guests=guests, holders=FrozenMap(), sessions=()), ev, "the draw undone")


def _display_changed(state, ev):
    return replace(state, standings_hidden=_mend(ev) if ev.what.standings == "hidden" else None)


# -- sessions and the bell ------------------------------------------------------------

def _session_started(state, ev):
    s = state.session
    state = state.with_session(replace(s, started=_mend(ev)))
    return replace(state, started_at=ev.at) if s.number == 1 else state


def _bell(state, ev):
    s, b = state.session, ev.what
    cause = getattr(b, "cause", None)   # the hub's bell says what rang it; the staff's, why
    why = b.why or (canonical(thawed(cause)) if cause is not None else "")
    # a bell rung once the party's time is up ends its last session
    limit = state.setup.time_limit
    late = limit is not None and state.started_at is not None and \
        ev.at >= state.started_at + limit * 60
    # the hub's bell is the hub's (its cause names the table); a staff bell is the staff's
    bell = Bell(f"s{s.number}-bell-{len(s.bells) + 1}", b.meaning, s.number,
                Mend(ev.source, why, ev.seq, ev.id), bool(b.final) or late)
    return state.with_session(replace(s, bells=s.bells + (bell,)))


def _bell_undone(state, ev):
    s = state.session
    bells = tuple(replace(b, undone=_mend(ev)) if b.id == ev.what.bell else b for b in s.bells)
    return state.with_session(replace(s, bells=bells))


def _bell_ack(state, ev):
    n = ev.what.table
    t = _table(state, n)
    return _put(state, n, replace(t, acks=t.acks.set(ev.what.bell, t.entered)))


def _table_bell(state, ev):
    return state   # the claim is on record; the bell it rang follows as hub.bell-rung


def _call(state, ev):
    n = ev.what.table
    return replace(state, calls=state.calls.set(n, state.calls.get(n, 0) + 1))


def _call_answered(state, ev):
    return replace(state, calls=state.calls.set(ev.what.table, 0))


def _table_closed(state, ev):
    n = ev.what.table
    return _put(state, n, replace(_table(state, n), closed=_mend(ev)))


# -- results and their mends -------------------------------------------------------------

def _outcome(state, body, seats, values, play_off: bool, lead: bool) -> Outcome:
    """The outcome the judge journaled with a result or a correction; scored here only
    for a journal written before outcomes were journaled (docs/journal.md)."""
    if body.outcome is not None:
        return body.outcome
    return score(state.setup, seats, values, play_off=play_off, lead=lead)


def _entry(state, ev, session: int, seats) -> Entry:
    b = ev.what
    outcome = _outcome(state, b, seats, b.values, play_off=session == 0,
                       lead=session > 0 and keys_lead(state.setup.form, b.game))
    return Entry.keyed(ev.id, ev.seq, session, b.table, b.game, tuple(seats),
                       b.values, outcome.gains, outcome.winners,
                       needs_confirm=state.setup.confirm and session > 0)


def _count(state, ev):
    """A count made in play: an entry of the game in hand that is not the game's result."""
    b = ev.what
    n = b.table
    t = _table(state, n)
    outcome = b.outcome if b.outcome is not None else score_count(state.setup, t.seats, b.values)
    entry = Entry.keyed(ev.id, ev.seq, state.session.number, n, b.game, tuple(t.seats),
                        b.values, outcome.gains, outcome.winners, in_play=True)
    return _put(state, n, t.with_entry(entry))


def _count_undone(state, ev):
    """The table took back a count: it stays on record, annulled by the table."""
    return _mend_entry(state, ev.what.count, lambda e: replace(e, annulled=_mend(ev)),
                       ev.what.table)


def open_play_off(state: PartyState, table: int) -> int | None:
    """The index of the undecided play-off at `table`, if any."""
    from .prizes import play_off_winner
    for i, p in enumerate(state.play_offs):
        if p.table == table and play_off_winner(p) is None:
            return i
    return None


def _result(state, ev):
    n = ev.what.table
    i = open_play_off(state, n) if state.final_count else None
    if i is not None:
        p = state.play_offs[i]
        entry = _entry(state, ev, 0, p.cards + (None,) * (4 - len(p.cards)))
        p = replace(p, entries=p.entries + (entry,))
        return replace(state, play_offs=state.play_offs[:i] + (p,) + state.play_offs[i + 1:])
    t = _table(state, n)
    entry = _entry(state, ev, state.session.number, t.seats)
    return _put(state, n, t.with_entry(entry))


def _mend_entry(state, entry_id: str, change, table: int | None = None) -> PartyState:
    si, n, ei = find_entry(state, entry_id, table)
    if si < 0:
        pi = -1 - si
        p = state.play_offs[pi]
        entries = p.entries[:ei] + (change(p.entries[ei]),) + p.entries[ei + 1:]
        return replace(state, play_offs=state.play_offs[:pi] + (replace(p, entries=entries),)
                       + state.play_offs[pi + 1:])
    s = state.sessions[si]
    t = s.tables[n]
    t = replace(t, entries=t.entries[:ei] + (change(t.entries[ei]),) + t.entries[ei + 1:])
    sessions = state.sessions[:si] + (replace(s, tables=s.tables.set(n, t)),) + state.sessions[si + 1:]
    return replace(state, sessions=sessions)


def _confirm(state, ev):
    return _mend_entry(state, ev.what.entry, lambda e: replace(e, confirmed_by=ev.what.seat),
                       ev.what.table)


def corrected_values(state: PartyState, e: Entry, values: FrozenMap) -> tuple[FrozenMap, bool]:
    """The values a correction gives the entry, and whether they name the first lead.
    A correction that leaves out who led keeps the lead first keyed."""
    lead = e.session > 0 and keys_lead(state.setup.form, e.game)
    if lead and "lead" not in values and "lead" in e.values:
        values = values.set("lead", e.values["lead"])
    return values, lead


def _result_corrected(state, ev):
    def change(e: Entry) -> Entry:
        values, lead = corrected_values(state, e, ev.what.values)
        outcome = _outcome(state, ev.what, e.seats, values, play_off=e.session == 0, lead=lead)
        return replace(e, values=values, gains=outcome.gains,
                       winners=outcome.winners, corrections=e.corrections + (_mend(ev),))
    return _mend_entry(state, ev.what.entry, change)


def _game_annulled(state, ev):
    if ev.what.entry:
        return _mend_entry(state, ev.what.entry, lambda e: replace(e, annulled=_mend(ev)))
    n = ev.what.table
    t = _table(state, n)
    return _put(state, n, replace(t, annulled_in_hand=t.annulled_in_hand + (_mend(ev),)))


def _seat_check(state, ev):
    n = ev.what.table
    return _put(state, n, replace(_table(state, n), seat_check=ev.id))


# -- movement, the final count and play-offs ----------------------------------------------

def _players_moved(state, ev):
    b = ev.what
    before = state.session
    seats = b.seats
    after = Session(before.number + 1, _all_tables(state, seats), _mend(ev), lots=b.lots)
    was, now = seated_cards(before), seated_cards(after)
    moves = tuple((c, was.get(c), now[c]) for n in sorted(seats) for c in seats[n] if c)
    punches = tuple((before.number, c) for c in b.punches)
    return replace(state, sessions=state.sessions + (replace(after, moves=moves),),
                   punches=state.punches + punches)


def _punched(state, ev):
    b = ev.what
    s = state.session
    state = state.with_session(replace(s, lots=s.lots + b.lots))
    return replace(state, punches=state.punches + tuple((b.session, c) for c in b.punches))


def _final_count(state, ev):
    return replace(state, final_count=_mend(ev))


def _play_off_seated(state, ev):
    b = ev.what
    p = PlayOff(b.prize, b.table, b.cards, _mend(ev))
    return replace(state, play_offs=state.play_offs + (p,))


_HANDLERS = {
    k.PARTY_CREATED: _party_created, k.STAFF_ADDED: _staff_added, k.STAFF_REMOVED: _staff_removed,
    k.GUEST_LISTED: _guest_listed, k.CHECKED_IN: _checked_in, k.SEATS_DRAWN: _seats_drawn,
    k.WALK_IN: _walk_in, k.CHECK_IN_UNDONE: _check_in_undone, k.ALL_CHECKED_IN: _all_checked_in,
    k.GUEST_RENAMED: _guest_renamed, k.GUEST_REMOVED: _guest_removed, k.CARD_DRAWN: _card_drawn,
    k.TABLE_ADDED: _table_added, k.TABLE_REMOVED: _table_removed,
    k.PARTY_CHANGED: _party_changed,
    k.DISPLAY_CHANGED: _display_changed, k.DRAW_UNDONE: _draw_undone,
    k.GUEST_PLACED: _guest_placed, k.GUEST_SEATED: _guest_seated, k.GUEST_LEFT: _guest_left,
    k.GUEST_BACK: _guest_back,
    k.SESSION_STARTED: _session_started, k.BELL: _bell, k.HUB_BELL: _bell,
    k.BELL_UNDONE: _bell_undone, k.BELL_ACK: _bell_ack, k.TABLE_BELL: _table_bell,
    k.CALL: _call, k.CALL_ANSWERED: _call_answered, k.TABLE_CLOSED: _table_closed,
    k.NO_GAME: _table_closed,
    k.RESULT: _result, k.CONFIRM: _confirm, k.RESULT_CORRECTED: _result_corrected,
    k.COUNT: _count, k.COUNT_UNDONE: _count_undone,
    k.GAME_ANNULLED: _game_annulled, k.SEAT_CHECK: _seat_check,
    k.PLAYERS_MOVED: _players_moved, k.FINAL_COUNT: _final_count,
    k.PLAY_OFF_SEATED: _play_off_seated, k.PUNCHED: _punched,
}
