"""The seats: the cards drawn (by the hub, or by hand from the tray, card by card), the
draw undone before play, and a guest moved to a vacant seat by the conductor."""
from __future__ import annotations

import random

from hub.refusal import Refusal

from .. import events as k
from .. import seating
from ..cards import SEATS, card_at, colour, home, number, successive
from ..frozen import FrozenMap
from ..ruling import (Admit, Kind, all_tables, decision, guest_named, hand_card, mend_of, noted,
                      say_why, seat, seed)
from ..state import PartyState, Session, replace


def check_draw_seats(state, p, login, now):
    """The hub draws the cards for the guests present, or (by_hand) the seats follow the
    printed cards the guests drew from the tray, as recorded card by card."""
    if state.sessions:
        raise Refusal("SEATS DRAWN")
    setup = state.setup
    guests = [g.name for g in state.guests.values() if g.checked_in and g.left is None]
    need = setup.fewest
    if len(guests) < need:
        raise Refusal("TOO FEW GUESTS")
    if len(guests) > setup.tables * 4:
        raise Refusal("TOO MANY GUESTS")
    if need == 4 and len(guests) % 4:
        # "There must always be four players at each table" (BERGEN GAME), two of each colour
        raise Refusal("FOUR AT A TABLE")
    in_hand = {g.name: g.card for g in state.guests.values() if g.card}
    if p.what.by_hand:
        if any(name not in in_hand for name in guests):
            raise Refusal("CARDS NOT DRAWN")
        if sorted(in_hand.values(), key=number) != seating.cards_taken(setup, len(guests)):
            raise Refusal("WRONG CARDS")
        drawn = decision(p, 1, k.SeatsDrawn, seed=None, by_hand=True,
                         cards=FrozenMap((name, in_hand[name]) for name in guests))
    else:
        if in_hand:
            raise Refusal("DRAWN BY HAND")
        drawn_with = seed(p, now)
        drawn = decision(p, 1, k.SeatsDrawn, seed=drawn_with,
                         cards=FrozenMap(seating.draw(setup, guests, random.Random(drawn_with))))
    return Admit((p, drawn), "SEATS DRAWN")


def fold_seats_drawn(state, ev):
    cards = ev.what.cards
    # the maps made once, not copied for every guest (a party's 1,000: two million items)
    guests, holders, seats = dict(state.guests), dict(state.holders), {}
    for name, card in cards.items():
        guests[name] = replace(guests[name], card=card)
        holders[card] = name
        table, chair = home(card)
        seats.setdefault(table, [None] * 4)[SEATS.index(chair)] = card
    session = Session(1, all_tables(state, seats), mend_of(ev))
    return replace(state, guests=FrozenMap(guests), holders=FrozenMap(holders), sessions=(session,))


def check_card_drawn(state, p, login, now):
    """A printed card drawn from the tray ("The card which a person draws will decide at
    which table and chair he is to be seated", TRAY), recorded by hand before the seats."""
    if state.sessions:
        raise Refusal("SEATS DRAWN")
    guest = state.guests.get(guest_named(p))
    if guest is None or not guest.checked_in or guest.left is not None:
        raise Refusal("NOT CHECKED IN")
    card = p.what.card
    if card is None:
        if guest.card is None:
            raise Refusal("NO CARD DRAWN")
        return Admit((p,), "CARD PUT BACK")
    if card not in successive(state.setup.tables, state.setup.partnership):
        raise Refusal("NO SUCH CARD")
    if card in state.holders:
        raise Refusal("CARD TAKEN")
    return Admit((p,), "CARD DRAWN")


def fold_card_drawn(state, ev):
    return hand_card(state, ev.what.guest, ev.what.card)


def check_draw_undone(state, p, login, now):
    """Until play begins the draw may be undone (to change the form or the tables, or to
    draw again): the seats were announced, no game was played on them."""
    say_why(p)
    s = state.session
    if s is None:
        raise Refusal("SEATS NOT DRAWN")
    if s.started is not None or len(state.sessions) > 1:
        raise Refusal("PLAY HAS BEGUN")
    return Admit((p,), "DRAW UNDONE")


def fold_draw_undone(state, ev):
    """Every card back in the tray: the guests stay checked in, nobody is seated."""
    guests = FrozenMap((n, replace(g, card=None)) for n, g in state.guests.items())
    return noted(replace(state, guests=guests, holders=FrozenMap(), sessions=()), ev, "the draw undone")


def check_guest_seated(state, p, login, now):
    say_why(p)
    name = guest_named(p)
    guest = state.guests.get(name)
    if guest is None or not guest.checked_in or guest.card is None:
        raise Refusal("NOT CHECKED IN")
    if guest.left is not None:
        raise Refusal("GUEST LEFT")
    card = guest.card
    s = state.session
    if s is None:   # a card drawn by hand from the tray: seated at the draw
        raise Refusal("SEATS NOT DRAWN")
    table, chair = p.what.table, p.what.seat
    if table not in s.tables:
        raise Refusal("NO SUCH SEAT")
    if s.place_of(card) == (table, chair):
        raise Refusal("ALREADY SEATED")
    if s.tables[table].seats[SEATS.index(chair)] is not None:
        raise Refusal("SEAT TAKEN")
    if state.setup.partnership and colour(card) != colour(card_at(1, chair, True)):
        raise Refusal("WRONG COLOUR")
    return Admit((p,), f"TABLE {table} {chair}")


def fold_guest_seated(state: PartyState, ev):
    b = ev.what
    return seat(state, state.guests[b.guest].card, (b.table, b.seat))


KINDS = (
    Kind(k.DRAW_SEATS, "staff", check_draw_seats, None),   # folded as its decision
    Kind(k.SEATS_DRAWN, "hub", None, fold_seats_drawn),
    Kind(k.CARD_DRAWN, "staff", check_card_drawn, fold_card_drawn),
    Kind(k.DRAW_UNDONE, "staff", check_draw_undone, fold_draw_undone),
    Kind(k.GUEST_SEATED, "staff", check_guest_seated, fold_guest_seated),
)
