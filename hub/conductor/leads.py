"""Who leads each game, as the book says for each form.

Block, Draw, All Quarters (FIRST SESSION): "the one who has the highest double
begins the first game of every session. The second game of a session is begun
by the player who is to the left of the one who had the first lead ... Those
who begin a game after the first one of a session can begin with any domino
they choose." Sebastopol: "The holder of the Double Whole begins"; "Should it
happen that the Double Whole remains in the stock, then the next highest Double
has to be played". Tiddle-a-wink: "The Double Whole leads at the beginning of a
session; if it is in stock the next highest leads. After the start is made the
players lead alternately". Bergen: "The highest Double begins ... After that the
parties lead alternately."

The board keys who led the first game of a session (the `lead` field), so the
screen can name the seat that leads each later game.
"""
from __future__ import annotations

from functools import lru_cache

from .cards import SEATS
from .forms import FORMS

LEAD_FIELD = {"k": "lead", "label": "FIRST LEAD BY", "min": 1, "max": 4, "seat": True}
# forms where the lead goes round to the left game by game, from a keyed first lead
ROTATING = frozenset(name for name, f in FORMS.items() if f.rotating_lead)


def keys_lead(form: str, game: int) -> bool:
    return form in ROTATING and game == 1


def first_line(form: str) -> str:
    return FORMS[form].first_lead


def line(form: str, seats, entries, game: int) -> str:
    """The screen's line about the lead of `game`, given the session's results so far."""
    if game == 1:
        return first_line(form)
    if form not in ROTATING:
        return "LEAD IN TURN"
    first = None
    for e in entries:   # game 1's, most often the first entry
        if e.game == 1 and e.annulled is None:
            first = e.values.get("lead")
            break
    a, b, c, d = seats
    return _turn_line((a is not None, b is not None, c is not None, d is not None), first, game)


@lru_cache(maxsize=1024)
def _turn_line(taken: tuple, first, game: int) -> str:
    """The line for `game` at a table with seats `taken` (A-D) whose game 1 was led by seat
    number `first` (as keyed, if keyed): the same few for every table, asked for every screen.
    The seat that begins a game is to the left of the last leader, skipping empty seats
    (so the occupied seats in turn from the first)."""
    turn = _turn(taken, SEATS[first - 1]) if isinstance(first, int) and 1 <= first <= 4 else ()
    return f"LEAD: SEAT {turn[(game - 1) % len(turn)]} ANY" if turn else "LEAD: LEFT"


def _turn(taken: tuple, first: str) -> tuple[str, ...]:
    """The occupied seats (`taken`: A-D) in turn from `first`; none if `first` is empty."""
    i = SEATS.index(first)
    if not taken[i]:
        return ()
    return tuple(SEATS[j % 4] for j in range(i, i + 4) if taken[j % 4])
