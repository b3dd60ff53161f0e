"""What every kind of event is made of, and the few steps its check and its fold share.

A kind (`Kind`) is its name, who may send it, its check (the judge: is it true to the
party so far?) and its fold step (state = fold(events)). The kinds live by concern in
hub/conductor/kinds/, each with its check and its fold side by side; hub/conductor/
registry.py gathers them into the one table the judge and the fold dispatch on.

A check answers `Admit` (the proposal as journaled, the decisions it brings about, the
message for the display) or raises `Refusal`; `NotYet` where an earlier input of the
same table, still on its way, would lift the refusal. A fold step returns the state after
its event; the judge folds every admitted event before the hub journals it, so a fold
step never asks again what its check asked.
"""
from __future__ import annotations

import hashlib
import re
from typing import Callable, NamedTuple

from hub.event import Event, Proposal
from hub.refusal import Refusal
from hub.speed import copied, made

from . import events as k
from .cards import SEATS
from .events import Outcome
from .frozen import FrozenMap
from .scoring import score
from .state import Mend, PartyState, TableSession, find_entry, replace, table_done


class NotYet(Refusal):
    """A refusal that an earlier input of the same table, still on its way, would lift:
    the verdict is held (Verdict.held), never final."""


class Admit(NamedTuple):   # a tuple: one is made for every input admitted
    """What a check admits: the proposal (as journaled) and the decisions it takes."""
    proposals: tuple[Proposal, ...]
    msg: str
    bell_at: int | None = None   # a table whose counted results may now ring the bell


class Kind(NamedTuple):
    """One kind of event: who sends it and what the conductor does with it.
    `by`: "table" (its check is called with the table's number), "staff" (with the login),
    or "hub" (a decision the judge takes itself: nobody may propose it, so no check).
    `fold` None: the request changes nothing but the journal; the decision it brings about
    (a hub event) is what is folded."""
    name: str
    by: str
    check: Callable[..., Admit] | None
    fold: Callable[[PartyState, Event], PartyState] | None


LOGIN = re.compile(r"[a-z0-9-]{1,24}")   # a staff login, as its source names it


# -- the checks' common steps ---------------------------------------------------------------

def guest_named(p: Proposal) -> str:
    """The guest a staff action names (not yet looked up)."""
    name = p.what.guest
    if not name.strip():
        raise Refusal("BAD NAME")
    return name


def say_why(p: Proposal) -> None:
    """A mend must say why: it stays on record with its author's name."""
    if not p.what.why.strip():
        raise Refusal("SAY WHY")


def seed(p: Proposal, now: float) -> int:
    """The seed a draw or a movement uses: the one given, else one made of the request."""
    if p.what.seed is not None:
        return p.what.seed
    return int(hashlib.sha256(f"{p.id}|{now!r}".encode()).hexdigest()[:16], 16)


def decision(p: Proposal, n: int, kind: type[k.Body], **fields) -> Proposal:
    """The hub's decision on `p`, naming who asked for it (a staff login, or a table)."""
    return Proposal.of(f"{p.id}/hub.{n}", "hub", kind(**fields, by=p.source))


def closable(state: PartyState, s, t) -> None:
    """A table's session may be closed (by the table's "no game in hand" or the conductor)
    only while it is not already done and has no result waiting for its confirmation."""
    if t.closed is not None or table_done(state.setup, s, t):
        raise Refusal("TABLE DONE")
    if t.pending is not None:
        raise Refusal("CONFIRM FIRST")


# -- the fold steps' common steps -----------------------------------------------------------

def mend_of(ev: Event) -> Mend:
    """Who did it: the source, or for a hub decision the one whose request it answers."""
    w = ev.what   # made without `__init__`'s call per field (hub/speed.py): once per table closed
    return made(Mend, {"by": w.by or ev.source, "why": w.why or "", "seq": ev.seq, "id": ev.id})


def noted(state: PartyState, ev: Event, what: str) -> PartyState:
    """A change to the party's set-up or guest list, kept with who made it and why."""
    return replace(state, changes=state.changes + ((what, mend_of(ev)),))


def seat(state: PartyState, card: str, place) -> PartyState:
    """Take `card` out of its seat in the current session and put it at `place` (or nowhere)."""
    s = state.session
    tables = s.tables
    old = s.place_of(card)
    if old is not None:
        t = tables[old[0]]
        tables = tables.set(old[0], replace(t, seats=tuple(None if c == card else c for c in t.seats)))
    if place is not None:
        n, chair = place
        t = tables[n]
        row = list(t.seats)
        row[SEATS.index(chair)] = card
        # somebody new sits down: the table checks its seats again before its next result
        tables = tables.set(n, replace(t, seats=tuple(row), seat_check=None))
    return state.with_session(replace(s, tables=tables))


def hand_card(state: PartyState, name: str, card: str | None) -> PartyState:
    """A printed card drawn from the tray (or put back: None): the guest holds it; the
    seats follow at the draw."""
    guest = state.guests[name]
    holders = FrozenMap((c, n) for c, n in state.holders.items() if n != name)
    if card is not None:
        holders = holders.set(card, name)
    return replace(state, guests=state.guests.set(name, replace(guest, card=card)), holders=holders)


def all_tables(state: PartyState, seats) -> FrozenMap:
    """Every table of the party, seated as `seats` says ({table: [card | None] * 4})."""
    empty = (None,) * 4
    return FrozenMap((n, TableSession(tuple(seats.get(n, empty))))
                     for n in range(1, state.setup.tables + 1))


def outcome(state: PartyState, body, seats, values, play_off: bool, lead: bool) -> Outcome:
    """The outcome the judge journaled with a result or a correction; scored here only
    for a journal written before outcomes were journaled (docs/journal.md)."""
    if body.outcome is not None:
        return body.outcome
    return score(state.setup, seats, values, play_off=play_off, lead=lead)


def mend_entry(state: PartyState, entry_id: str, change, table: int | None = None) -> PartyState:
    """The state with the entry `entry_id` (a session's or a play-off's) changed: `change` its
    fields changed (a dict), or a function of the entry making the changed one (a correction,
    scored anew). A confirmation's dict: no function made and called for each result."""
    si, n, ei = find_entry(state, entry_id, table)
    if si < 0:
        pi = -1 - si
        p = state.play_offs[pi]
        e = p.entries[ei]
        e = copied(e, change) if type(change) is dict else change(e)
        entries = p.entries[:ei] + (e,) + p.entries[ei + 1:]
        return replace(state, play_offs=state.play_offs[:pi] + (replace(p, entries=entries),)
                       + state.play_offs[pi + 1:])
    s = state.sessions[si]
    t = s.tables[n]
    e = t.entries[ei]
    t = t.with_mended(ei, copied(e, change) if type(change) is dict else change(e))
    if si == len(state.sessions) - 1:
        return state.with_table(n, t)
    sessions = state.sessions[:si] + (s.with_table(n, t),) + state.sessions[si + 1:]
    return replace(state, sessions=sessions)
