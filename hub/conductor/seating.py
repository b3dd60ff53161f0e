"""The first session's seats: score-cards taken in successive order and drawn at
random; late-comers given vacant seats at the last tables.

Book (000_ff8a6ed40036e836.txt, LIST and TRAY): the conductor "checks off the
names of the persons who have arrived, then takes as many score-cards in
successive order as there are persons present. Four players are to be at each
table, but should it happen that this number cannot be completed at the last
table, then three or two players may be seated there." "Late-comers will have
to be satisfied to receive vacant seats at the last tables." "The score-cards
are mixed and placed face downward upon a tray ... The card which a person
draws will decide at which table and chair he is to be seated."
"""
from __future__ import annotations

import random

from .cards import SEATS, card_at, colour, spare, successive
from .setup import Setup
from .state import Guest, PartyState


def cards_taken(setup: Setup, guests: int) -> list[str]:
    """The cards for `guests` players, in successive order.

    One player over four to a table cannot be seated as the book wants (a table of
    one cannot play): then the second last table gives up its D card and the last
    two tables have three and two players. Bergen and Tiddle-a-wink must have four
    at each table: the cards of an incomplete last table are still drawn, and its
    players wait there for late-comers (the table is not in play until it is full)."""
    order = successive(setup.tables, setup.partnership)
    if setup.partnership or guests % 4 != 1 or guests < 5:
        return order[:guests]
    full = guests // 4
    return order[:4 * full - 1] + order[4 * full:4 * full + 2]


def draw(setup: Setup, guests: list[str], rng: random.Random) -> dict[str, str]:
    """Each guest draws one of the mixed cards, in the order they come to the tray."""
    cards = cards_taken(setup, len(guests))
    rng.shuffle(cards)
    return dict(zip(guests, cards))


def place_late_comer(state: PartyState) -> tuple[str, int, str] | None:
    """The card and seat for a guest arriving after the draw: the first vacant seat
    (`_vacant`) and its own card, so that his card names where he sits, as the draw's do
    (TRAY). None: no seat is vacant.

    A seat vacated by a guest who left is vacant too, though its card is his: the
    late-comer then gets a spare card for the seat, "2C/2" (cards.spare: his own
    score-card, never the score of the guest who left)."""
    seat = next(_vacant(state), None)
    if seat is None:
        return None
    n, i = seat
    own = card_at(n, SEATS[i], state.setup.partnership)
    card, copy = own, 1
    while card in state.holders:
        copy += 1
        card = spare(own, copy)
    return card, n, SEATS[i]


def place_returning(state: PartyState, guest: Guest) -> tuple[int, str] | None:
    """Where a guest who left sits when he comes back, with his own card (his score kept):
    the seat he left, if nobody has taken it in the same session; else, like a late-comer,
    the first vacant seat at the last tables ("Late-comers will have to be satisfied to
    receive vacant seats at the last tables", LIST), of his card's colour in the
    partnership forms. None: no seat is vacant."""
    s = state.session
    if guest.vacated is not None and guest.vacated[0] == s.number:
        _, n, seat = guest.vacated
        if s.tables[n].seats[SEATS.index(seat)] is None:
            return n, seat
    for n, i in _vacant(state):
        if not state.setup.partnership or colour(card_at(1, SEATS[i], True)) == colour(guest.card):
            return n, SEATS[i]
    return None


def _vacant(state: PartyState):
    """The vacant seats of the session, (table, seat index), in the order a guest arriving
    after the draw takes them: at the last table that has players, then the tables before
    it, then the seats of the next empty table from A."""
    s = state.session
    for n in sorted((n for n, t in s.tables.items() if t.players), reverse=True):
        for i, card in enumerate(s.tables[n].seats):
            if card is None:
                yield n, i
    empty = [n for n, t in sorted(s.tables.items()) if not t.players]
    if empty:
        yield from ((empty[0], i) for i in range(4))
