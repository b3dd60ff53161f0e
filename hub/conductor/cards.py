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
"""
from __future__ import annotations

SEATS = ("A", "B", "C", "D")
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


def home(card: str) -> tuple[int, str]:
    """The table and seat printed on a card (its first-session place)."""
    if card[0] in "WR":
        table, letter = int(card[1:-1]), card[-1]
        return table, SEATS[_PARTNERSHIP_SLOT.index((card[0], letter))]
    return int(card[:-1]), card[-1]


def number(card: str) -> int:
    table, seat = home(card)
    return (table - 1) * 4 + seat_index(seat) + 1


def colour(card: str) -> str | None:
    return {"W": "White", "R": "Red"}.get(card[0])


def label(card: str) -> str:
    """The card's printed name: "TABLE 2 C", "TABLE 1 B WHITE"."""
    if card[0] in "WR":
        return f"TABLE {card[1:-1]} {card[-1]} {colour(card).upper()}"
    return f"TABLE {card[:-1]} {card[-1]}"


def successive(tables: int, partnership: bool) -> list[str]:
    """All cards of a party, in the book's successive order."""
    return [card_at(t, s, partnership) for t in range(1, tables + 1) for s in SEATS]
