"""Score-cards and seats, as the book names them.

Grimm 1896 (000_ff8a6ed40036e836.txt), "SCORE-CARDS": "Number the score-cards
successively Table 1 A, B, C, D; Table 2 A, B, C, D, and so on." FIRST SESSION:
"The one having A of a table sits at the head of the table ... B sits to the
left of A, C is opposite to A, and D opposite to B, and at the same time to the
right of A." So going round to the left: A, B, C, D.

Bergen and Tiddle-a-wink ("BERGEN GAME"): white and red cards each marked
Table 1 A, Table 1 B, Table 2 A ...; partners are of opposite colours. Our
reading: White A sits in seat A, White B in B, Red A in C, Red B in D, so that
partners sit opposite (A with C, B with D) and each partnership is one white and
one red — the same layout the movement keeps at every table.

A card is named by a short string ("2C", or "W2A" / "R2B"); its number, keyed
on a board's keypad in a seat check, is its place in the successive order
(1 = Table 1 A, 5 = Table 2 A), the same for both kinds of cards.

A spare card is a second (third ...) card for a seat whose own card is held by a
guest who left, given to the late-comer who takes the seat: "2C/2", printed
"TABLE 2 C/2", so it names where its holder first sits, like every card (TRAY:
"The card which a person draws will decide at which table and chair he is to be
seated"). Its number is its seat card's plus 10,000 a copy (SPARE), beyond any
party's cards; a board keys it as the seat card then the copy ("2C2", "2A12").
"""
from __future__ import annotations

from functools import lru_cache

from hub.scoring.values import SEATS   # the engine's seat letters, the party's too (read from here)

PARTNER = {"A": "C", "C": "A", "B": "D", "D": "B"}
_PARTNERSHIP_SLOT = (("W", "A"), ("W", "B"), ("R", "A"), ("R", "B"))


def seat_index(seat: str) -> int:
    return SEATS.index(seat)


def left_of(seat: str) -> str:
    """The seat to the left of `seat` ("B sits to the left of A")."""
    return SEATS[(seat_index(seat) + 1) % 4]


def card_at(table: int, seat: str, partnership: bool) -> str:
    """The card whose first-session place is `table`, `seat`."""
    if not partnership:
        return f"{table}{seat}"
    colour, letter = _PARTNERSHIP_SLOT[seat_index(seat)]
    return f"{colour}{table}{letter}"


SPARE = 10_000   # a spare copy's number: its seat card's + SPARE * (copy - 1)


def spare(card: str, copy: int) -> str:
    """Copy `copy` (2, 3 ...) of `card`: a spare card for the same seat."""
    return f"{card}/{copy}"


def copy_of(card: str) -> tuple[str, int]:
    """The seat's own card a spare copies, and which copy it is (1: the card itself)."""
    base, _, copy = card.partition("/")
    return base, int(copy) if copy else 1


def home(card: str) -> tuple[int, str]:
    """The table and seat printed on a card (its first-session place)."""
    card = copy_of(card)[0]
    if card[0] in "WR":
        table, letter = int(card[1:-1]), card[-1]
        return table, SEATS[_PARTNERSHIP_SLOT.index((card[0], letter))]
    return int(card[:-1]), card[-1]


@lru_cache(maxsize=4096)   # the standings rank every card by it at every change
def number(card: str) -> int:
    table, seat = home(card)
    return (table - 1) * 4 + seat_index(seat) + 1 + SPARE * (copy_of(card)[1] - 1)


def colour(card: str) -> str | None:
    return {"W": "White", "R": "Red"}.get(card[0])


def label(card: str) -> str:
    """The card's printed name: "TABLE 2 C", "TABLE 1 B WHITE", a spare "TABLE 2 C/2"."""
    base, copy = copy_of(card)
    table, _ = home(base)
    letter = base[-1] + (f"/{copy}" if copy > 1 else "")
    return f"TABLE {table} {letter}" + (f" {colour(card).upper()}" if colour(card) else "")


def successive(tables: int, partnership: bool) -> list[str]:
    """All cards of a party, in the book's successive order."""
    return [card_at(t, s, partnership) for t in range(1, tables + 1) for s in SEATS]
