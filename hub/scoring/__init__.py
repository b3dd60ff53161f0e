"""The scoring engine: tiles, the line of play, every game form of the rule books.

Pure functions over small immutable values; nothing here does I/O.

    form = get_form("muggins")
    rules = form.rules(players=4)                 # the book's defaults, checked
    form.entry_form(rules).to_json()              # the protocol's form.fields
    outcome = form.score(rules, values)           # HandOutcome, or raises Refusal(why)
    form.game_over(rules, totals)
    played = form.play_hand(rules, random.Random(1))  # a whole hand by legal moves

docs/scoring.md describes every form, its book, its variants and its entries.
"""
from .form import GameForm, Variant
from .line import CROSS, PLAIN, SPINNER, End, Line, Matching, Placement
from .registry import FORMS, get_form
from .tiles import (DOUBLE_FIFTEEN, DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE, MUSICAL, TILE_SETS,
                    Tile, TileSet)
from .values import (SEATS, SIDES, EntryForm, Field, HandOutcome, Move, PlayedHand,
                     Refusal, Rules, seats_for, side_of)

__all__ = [
    "FORMS", "get_form", "GameForm", "Variant", "Rules", "EntryForm", "Field", "HandOutcome",
    "Refusal", "Move", "PlayedHand", "SEATS", "SIDES", "seats_for", "side_of", "Tile", "TileSet", "TILE_SETS",
    "DOUBLE_SIX", "DOUBLE_NINE", "DOUBLE_TWELVE", "DOUBLE_FIFTEEN", "MUSICAL", "Line", "End", "Placement",
    "Matching", "PLAIN", "SPINNER", "CROSS",
]
