"""A game form: its book, its variants, its rules value, its entry form, its scoring, its player.

Every form in `forms/` is a `GameForm`; the registry (`registry.py`) maps names to them.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .tiles import TILE_SETS, TileSet
from .values import EntryForm, Field, HandOutcome, PlayedHand, Refusal, Rules, side_of


@dataclass(frozen=True)
class Variant:
    """One book's reading of a form. `source` names the book file and quotes the passage."""

    name: str
    source: str
    about: str
    players: tuple[int, ...]
    tile_sets: tuple[str, ...] = ("double-six",)
    partnership: bool = False


class GameForm:
    name: str = ""
    title: str = ""
    variants: dict[str, Variant] = {}
    default: str = ""
    why_default: str = ""

    # --- description ---------------------------------------------------------------
    @property
    def source(self) -> str:
        return self.variants[self.default].source

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(sorted({n for v in self.variants.values() for n in v.players}))

    @property
    def partnership(self) -> bool:
        return self.variants[self.default].partnership

    def variant(self, rules: Rules) -> Variant:
        return self.variants[rules.variant]

    def is_partnership(self, rules: Rules) -> bool:
        return self.variant(rules).partnership

    def tile_set(self, rules: Rules) -> TileSet:
        return TILE_SETS[rules.tile_set]

    def rules(self, players: int | None = None, variant: str | None = None,
              tile_set: str | None = None, **options) -> Rules:
        """A checked `Rules` value; anything left out takes the variant's default."""
        v = self.variants.get(variant or self.default)
        if v is None:
            raise Refusal("NO SUCH VARIANT")
        players = players or (4 if 4 in v.players else v.players[0])
        if players not in v.players:
            raise Refusal("PLAYERS NOT OK")
        tile_set = tile_set or v.tile_sets[0]
        if tile_set not in v.tile_sets:
            raise Refusal("WRONG TILE SET")
        return Rules(self.name, v.name, players, tile_set, tuple(sorted(options.items())))

    # --- a hand ----------------------------------------------------------------------
    def entry_form(self, rules: Rules) -> EntryForm:
        raise NotImplementedError

    def score(self, rules: Rules, values: dict) -> HandOutcome:
        """Points for one hand from what the table keyed, or `Refusal`."""
        if rules.form != self.name:
            raise Refusal("WRONG GAME")
        return self._score(rules, self.entry_form(rules).check(values))

    def _score(self, rules: Rules, values: dict[str, int]) -> HandOutcome:
        raise NotImplementedError

    def play_hand(self, rules: Rules, rng: random.Random) -> PlayedHand:
        raise NotImplementedError

    # --- a game ----------------------------------------------------------------------
    def target(self, rules: Rules) -> int | None:
        """Points that win the game (None: the game is a fixed number of hands)."""
        return rules.option("target", self._target(rules))

    def _target(self, rules: Rules) -> int | None:
        return 100

    def game_over(self, rules: Rules, totals: dict[str, int], hands_played: int = 0) -> bool:
        """`totals` per seat, summed over the hands' `points`."""
        target = self.target(rules)
        return target is not None and any(v >= target for v in totals.values())

    def winners_of_game(self, rules: Rules, totals: dict[str, int]) -> tuple[str, ...]:
        best = max(totals.values())
        return tuple(s for s in rules.seats if totals.get(s) == best)


def seat_value(rules: Rules, n: int) -> str | None:
    """A seat field's number (1-4, 0 = none) as a seat name, refusing seats not at the table."""
    if n == 0:
        return None
    if n > rules.players:
        raise Refusal("NO SUCH SEAT")
    return rules.seats[n - 1]


def seat_field(k: str, label: str, rules: Rules) -> Field:
    """A field naming a seat (0 = none): keyed A-D at a table of four or fewer; beyond four
    players (Tiddle-a-wink, Matador) the player's number is keyed instead."""
    return Field(k, label, 0, rules.players, seat=rules.players <= 4)


def seat_number(rules: Rules, seat: str | None) -> int:
    return 0 if seat is None else rules.seats.index(seat) + 1


def partnership_points(rules: Rules, side_points: dict[str, int]) -> dict[str, int]:
    """Each partner is credited what the side won (Grimm: "they win conjointly")."""
    return {s: side_points[side_of(s)] for s in rules.seats}
