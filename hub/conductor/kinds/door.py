"""The door: the guest list, check-in (and its undoing), walk-ins and late-comers, renames
and removals, a guest who left and one who comes back."""
from __future__ import annotations

from hub.refusal import Refusal

from .. import events as k
from .. import seating
from ..frozen import FrozenMap
from ..names import control_in, indexed, similar, unindexed
from ..prizes import table_highest
from ..ruling import (Admit, Kind, decision, guest_named, hand_card, mend_of, noted, say_why,
                      seat)
from ..state import Guest, party_over, played_cards, replace


def new_name(state, p, key: str = "guest", besides: str | None = None) -> str:
    """A name for the list: not there yet, nor a near-duplicate of one there ("Ann Lee",
    "ann lee", "Ann  Lee") unless the host says it is another person (similar_ok)."""
    name = getattr(p.what, key)
    if not name.strip() or len(name) > 80:
        raise Refusal("BAD NAME")
    if control_in(name):
        raise Refusal("CONTROL IN NAME")
    if name in state.guests:
        raise Refusal("ALREADY LISTED")
    if not p.what.similar_ok and similar(state.names, name, besides) is not None:
        raise Refusal("SIMILAR NAME")
    return name


def late_comer(state, p, name: str, now: float) -> Admit:
    """ "Late-comers will have to be satisfied to receive vacant seats at the last tables"
    (LIST): the seat and card are the hub's decision, journaled after the request."""
    if state.final_count is not None:
        raise Refusal("PARTY OVER")
    place = seating.place_late_comer(state)
    if place is None:
        raise Refusal("PARTY FULL")
    card, table, chair = place
    # "another club seats late-comers with the table's highest score" (forms/trains.py)
    start = {"start": table_highest(state, table)} if state.setup.late_score == "table-highest" else {}
    placed = decision(p, 1, k.GuestPlaced, guest=name, card=card, table=table, seat=chair, **start)
    return Admit((p, placed), f"TABLE {table} {chair}")


def fold_guest_placed(state, ev):
    b = ev.what
    name, card = b.guest, b.card
    guest = replace(state.guests[name], card=card, start=b.start or 0)
    state = replace(state, guests=state.guests.set(name, guest), holders=state.holders.set(card, name))
    return seat(state, card, (b.table, b.seat))


# -- the list and check-in -------------------------------------------------------------------

def check_guest_listed(state, p, login, now):
    new_name(state, p)
    return Admit((p,), "LISTED")


def fold_guest_listed(state, ev):
    name = ev.what.guest
    return replace(state, guests=state.guests.set(name, Guest(name)),
                   names=indexed(state.names, name))


def check_walk_in(state, p, login, now):
    """A walk-in at the door: listed and checked in in one step; after the draw he is a
    late-comer and gets a vacant seat at the last tables at once."""
    name = new_name(state, p)
    if state.session is None:
        return Admit((p,), "CHECKED IN")
    return late_comer(state, p, name, now)


def fold_walk_in(state, ev):
    return fold_checked_in(fold_guest_listed(state, ev), ev)


def check_checked_in(state, p, login, now):
    name = guest_named(p)
    guest = state.guests.get(name)
    if guest is None:
        raise Refusal("NOT ON THE LIST")
    if guest.checked_in:
        raise Refusal("ALREADY IN")
    if state.session is None:
        return Admit((p,), "CHECKED IN")
    return late_comer(state, p, name, now)


def fold_checked_in(state, ev):
    name = ev.what.guest
    if name not in state.guests:   # a journal written around the judge: listed as it comes
        state = fold_guest_listed(state, ev)
    return replace(state, guests=state.guests.set(name, replace(state.guests[name], checked_in=True)))


def check_check_in_undone(state, p, login, now):
    say_why(p)
    guest = state.guests.get(guest_named(p))
    if guest is None or not guest.checked_in or guest.left is not None:
        raise Refusal("NOT CHECKED IN")
    if state.final_count is not None:
        raise Refusal("COUNTED")
    if guest.card is not None and guest.card in played_cards(state):
        raise Refusal("HAS A CARD")   # his card has a game on it: he is a guest who left
    # a card nobody played with goes back to the tray: a late-comer checked in by mistake
    return Admit((p,), "CHECK-IN UNDONE")


def fold_check_in_undone(state, ev):
    """Not here after all; a card he holds, with no game played on it, goes back to the tray
    and his seat is vacant."""
    name = ev.what.guest
    state = noted(state, ev, f"check-in of {name} undone")
    card = state.guests[name].card
    if card is not None and state.session is not None:
        state = seat(state, card, None)
    if card is not None:
        state = hand_card(state, name, None)
    return replace(state, guests=state.guests.set(name, replace(state.guests[name], checked_in=False)))


def check_all_checked_in(state, p, login, now):
    if state.sessions:
        raise Refusal("SEATS DRAWN")
    if all(g.checked_in for g in state.guests.values()):
        raise Refusal("ALL IN")
    return Admit((p,), "ALL CHECKED IN")


def fold_all_checked_in(state, ev):
    return replace(state, guests=FrozenMap((n, replace(g, checked_in=True))
                                           for n, g in state.guests.items()))


# -- renames and removals -----------------------------------------------------------------

def check_guest_renamed(state, p, login, now):
    say_why(p)
    old = guest_named(p)
    if old not in state.guests:
        raise Refusal("NOT ON THE LIST")
    new_name(state, p, "name", besides=old)
    return Admit((p,), "RENAMED")


def fold_guest_renamed(state, ev):
    old, new = ev.what.guest, ev.what.name
    guest = replace(state.guests[old], name=new)
    guests = FrozenMap((new if n == old else n, guest if n == old else g)
                       for n, g in state.guests.items())
    holders = state.holders.set(guest.card, new) if guest.card else state.holders
    return noted(replace(state, guests=guests, holders=holders,
                         names=indexed(unindexed(state.names, old), new)), ev, f"{old} renamed {new}")


def check_guest_removed(state, p, login, now):
    say_why(p)
    guest = state.guests.get(guest_named(p))
    if guest is None:
        raise Refusal("NOT ON THE LIST")
    if guest.card is not None:
        raise Refusal("HAS A CARD")   # his card is on record: he leaves instead
    return Admit((p,), "REMOVED")


def fold_guest_removed(state, ev):
    name = ev.what.guest
    state = noted(state, ev, f"{name} removed from the list")
    return replace(state, guests=FrozenMap((n, g) for n, g in state.guests.items() if n != name),
                   names=unindexed(state.names, name))


# -- a guest who left, and one who comes back -----------------------------------------------

def check_guest_left(state, p, login, now):
    say_why(p)
    name = guest_named(p)
    guest = state.guests.get(name)
    if guest is None or not guest.checked_in:
        raise Refusal("NOT HERE")
    if guest.left is not None:
        raise Refusal("ALREADY LEFT")
    return Admit((p,), "GUEST LEFT")


def fold_guest_left(state, ev):
    name = ev.what.guest
    guest = state.guests[name]
    if guest.card and state.session is None:
        # a printed card drawn by hand before the seats: it goes back to the tray
        state = hand_card(state, name, None)
        guest = state.guests[name]
    s = state.session
    place = s.place_of(guest.card) if guest.card and s is not None else None
    vacated = (s.number, *place) if place else None   # his seat, should he come back
    state = replace(state, guests=state.guests.set(name, replace(guest, left=mend_of(ev),
                                                                 vacated=vacated)))
    if place:
        state = seat(state, guest.card, None)
    return state


def check_guest_back(state, p, login, now):
    """A guest who left comes back (or "has left" was pressed on the wrong row): his own
    card and score, his seat if nobody took it, else a vacant seat at the last tables like
    a late-comer (LIST); before the draw, simply present again; once every session is
    played (the final count made or not), back in the standings and the prizes only."""
    say_why(p)
    name = guest_named(p)
    guest = state.guests.get(name)
    if guest is None:
        raise Refusal("NOT ON THE LIST")
    if guest.left is None:
        raise Refusal("NOT LEFT")
    if state.session is None or party_over(state):
        return Admit((p,), "GUEST BACK")
    if guest.card is None:   # he left before the draw: now a late-comer with a card of his own
        return late_comer(state, p, name, now)
    place = seating.place_returning(state, guest)
    if place is None:
        raise Refusal("PARTY FULL")
    table, chair = place
    placed = decision(p, 1, k.GuestPlaced, guest=name, card=guest.card, table=table, seat=chair)
    return Admit((p, placed), f"TABLE {table} {chair}")


def fold_guest_back(state, ev):
    """Back on the list of those present; his seat, if any, follows as hub.guest-placed."""
    name = ev.what.guest
    state = noted(state, ev, f"{name} is back")
    return replace(state, guests=state.guests.set(name, replace(state.guests[name], left=None,
                                                                vacated=None)))


KINDS = (
    Kind(k.GUEST_LISTED, "staff", check_guest_listed, fold_guest_listed),
    Kind(k.WALK_IN, "staff", check_walk_in, fold_walk_in),
    Kind(k.CHECKED_IN, "staff", check_checked_in, fold_checked_in),
    Kind(k.CHECK_IN_UNDONE, "staff", check_check_in_undone, fold_check_in_undone),
    Kind(k.ALL_CHECKED_IN, "staff", check_all_checked_in, fold_all_checked_in),
    Kind(k.GUEST_RENAMED, "staff", check_guest_renamed, fold_guest_renamed),
    Kind(k.GUEST_REMOVED, "staff", check_guest_removed, fold_guest_removed),
    Kind(k.GUEST_LEFT, "staff", check_guest_left, fold_guest_left),
    Kind(k.GUEST_BACK, "staff", check_guest_back, fold_guest_back),
    Kind(k.GUEST_PLACED, "hub", None, fold_guest_placed),
)
