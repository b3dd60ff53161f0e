"""Tiles and tile sets: double-six, double-nine, double-twelve, double-fifteen and Grimm's
musical set.

A tile's two ends are plain integers. For the spotted sets an end is its number of
spots; for the musical set an end is its note value in sixteenths, so tiles match
on value ("a whole note, to a whole rest", 000_ff8a6ed40036e836.txt, General Rules).
What a tile *counts* for is the game's business (Bingo counts a blank as seven),
so a set only says which tiles exist.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hub.speed import derived


@dataclass(frozen=True, order=True)
class Tile:
    """One domino; `low <= high` so that a tile has one spelling."""

    low: int
    high: int

    def __post_init__(self):
        if self.low > self.high:
            raise ValueError(f"tile ends out of order: {self.low}|{self.high}")

    @classmethod
    def of(cls, a: int, b: int) -> "Tile":
        return cls(min(a, b), max(a, b))

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def spots(self) -> int:
        return self.low + self.high

    def has(self, value: int) -> bool:
        return self.low == value or self.high == value

    def other(self, value: int) -> int:
        """The end left open when this tile is matched on `value`."""
        if self.low == value:
            return self.high
        if self.high == value:
            return self.low
        raise ValueError(f"{self} has no {value}")

    def __str__(self):
        return f"{self.low}|{self.high}"


# Grimm's note values in sixteenths (issue 3; 000_ff8a6ed40036e836.txt, "TABLE OF NOTES"):
# sixteenth, eighth, dotted eighth, quarter, dotted quarter, half, dotted half, whole.
MUSICAL_VALUES = (1, 2, 3, 4, 6, 8, 12, 16)
MUSICAL_NAMES = {1: "SIXTEENTH", 2: "EIGHTH", 3: "DOT EIGHTH", 4: "QUARTER",
                 6: "DOT QUARTER", 8: "HALF", 12: "DOT HALF", 16: "WHOLE"}


@dataclass(frozen=True)
class TileSet:
    """Every pairing of `values` with itself, doubles included."""

    name: str
    values: tuple[int, ...]
    tiles: tuple[Tile, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        vs = sorted(self.values)
        object.__setattr__(self, "tiles", tuple(
            Tile(a, b) for i, a in enumerate(vs) for b in vs[i:]))

    def __len__(self):
        return len(self.tiles)

    # a set never changes: its answers are made once (Bergen's check of the doubles held
    # asked for the musical set's doubles twice a hand, a walk over its 36 pieces each)
    @derived
    def top(self) -> int:
        return max(self.values)

    @derived
    def total_spots(self) -> int:
        return sum(t.spots for t in self.tiles)

    @derived
    def doubles(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if t.is_double)

    def name_of(self, value: int) -> str:
        if self.name == "musical":
            return MUSICAL_NAMES[value]
        return str(value)


DOUBLE_SIX = TileSet("double-six", tuple(range(7)))
DOUBLE_NINE = TileSet("double-nine", tuple(range(10)))
DOUBLE_TWELVE = TileSet("double-twelve", tuple(range(13)))
# the train games' larger clubs (Mexican Train on a double-fifteen: 136 pieces)
DOUBLE_FIFTEEN = TileSet("double-fifteen", tuple(range(16)))
MUSICAL = TileSet("musical", MUSICAL_VALUES)

TILE_SETS = {s.name: s for s in (DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE, DOUBLE_FIFTEEN,
                                       MUSICAL)}


def heaviest(tiles) -> Tile:
    """The highest double, or with no double the heaviest piece (Parker, Grimm, Pell Rule 1)."""
    doubles = [t for t in tiles if t.is_double]
    if doubles:
        return max(doubles)
    return max(tiles, key=lambda t: (t.spots, t.high))
