"""A game form: its book, its variants, its rules value, its entry form, its scoring, its player.

Every form in `forms/` is a `GameForm`; the registry (`registry.py`) maps names to them.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

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
    # the game's winner has the lowest total (the train games: what is left in hand is scored
    # against its holder); by default the highest
    lowest_wins: bool = False
    # what `rules(**options)` accepts; `party`: a table of a party (Grimm's party rules)
    option_names: frozenset[str] = frozenset({"target", "party"})

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
        if variant is None and players is not None:
            # the default, or the first variant that seats this many (Sebastopol's large party)
            variant = next((v.name for v in (self.variants[self.default], *self.variants.values())
                            if players in v.players), self.default)
        v = self.variants.get(variant or self.default)
        if v is None:
            raise Refusal("NO SUCH VARIANT")
        players = players or (4 if 4 in v.players else v.players[0])
        if players not in v.players:
            raise Refusal("PLAYERS NOT OK")
        tile_set = tile_set or v.tile_sets[0]
        if tile_set not in v.tile_sets:
            raise Refusal("WRONG TILE SET")
        if not set(options) <= self.option_names or options.get("in_play", "hand") not in (
                "hand", "each"):
            raise Refusal("NO SUCH OPTION")
        return Rules(self.name, v.name, players, tile_set, tuple(sorted(options.items())))

    # --- a hand ----------------------------------------------------------------------
    def entry_form(self, rules: Rules) -> EntryForm:
        raise NotImplementedError

    def score(self, rules: Rules, values: dict) -> HandOutcome:
        """Points for one hand from what the table keyed, or `Refusal`."""
        if rules.form != self.name:
            raise Refusal("WRONG GAME")
        if not isinstance(values, dict):
            raise Refusal("BAD MESSAGE")
        return self._score(rules, self.checked(rules, values))

    def scorer(self, rules: Rules, made_as: Callable = HandOutcome) -> Callable[[dict], HandOutcome]:
        """`score` for these rules as one function of a hand's values (a dict), its checks and
        settlement looked up once: for a caller that scores many hands of the same rules (the
        conductor keeps one per seating). `made_as`: what the outcome is made as, called as
        `HandOutcome` is: a caller that keeps its own record of a hand (the conductor, in the
        table's seats) has it made at once, not a HandOutcome made to be copied."""
        if rules.form != self.name:
            raise Refusal("WRONG GAME")
        check, settle = _entry_form(self, rules).checker(whole=True), self._score
        return lambda values: settle(rules, check(values), made_as=made_as)

    def checked(self, rules: Rules, values: dict) -> dict[str, int]:
        """`values` checked against the entry form, or `Refusal`."""
        return _entry_form(self, rules).check(values)

    def check_partial(self, rules: Rules, values: dict) -> dict[str, int]:
        """The fields keyed so far checked as `score` checks a whole entry (ranges and the
        checks across fields), or `Refusal`: for a board or a phone checking as it is keyed."""
        return _entry_form(self, rules).check_partial(values)

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        """The outcome of checked values, made as `made_as` (`scorer`)."""
        raise NotImplementedError

    # --- points made in play --------------------------------------------------------
    def count_form(self, rules: Rules) -> EntryForm | None:
        """One count made in play (Muggins' fives, All Quarters' quarters, Bergen's headers,
        Grimm's Tiddle-a-wink doubles); None where nothing is scored in play."""
        return None

    def keys_each_count(self, rules: Rules) -> bool:
        """Option `in_play="each"`: the table keys each count as it is made (`play_entry_form`)
        and the hand's entry form leaves out the in-play totals. By default the hand's entry
        form carries each seat's in-play total, as a score-card does."""
        return rules.option("in_play", "hand") == "each" and self.count_form(rules) is not None

    def play_entry_form(self, rules: Rules) -> EntryForm | None:
        return self.count_form(rules) if self.keys_each_count(rules) else None

    def score_play(self, rules: Rules, values: dict, totals: dict[str, int] | None = None) -> HandOutcome:
        """Points for one count keyed during a hand, or `Refusal`."""
        form = _play_entry_form(self, rules)
        if form is None:
            raise Refusal("NOTHING IN PLAY")
        return self._score_count(rules, form.check(values), totals)

    def _score_count(self, rules: Rules, values: dict[str, int], totals) -> HandOutcome:
        raise NotImplementedError

    def play_hand(self, rules: Rules, rng: random.Random, leader: str | None = None) -> PlayedHand:
        """A whole hand by legal moves. `leader`: the seat that sets (any piece it likes); by
        default the book's first lead (the highest double, the holder of 1-0 bidding first...)."""
        raise NotImplementedError

    # --- a game ----------------------------------------------------------------------
    def target(self, rules: Rules) -> int | None:
        """Points that win the game (None: the game is a fixed number of hands)."""
        return rules.option("target", self._target(rules))

    def _target(self, rules: Rules) -> int | None:
        return 100

    def game_over(self, rules: Rules, totals: dict[str, int], hands_played: int = 0) -> bool:
        """`totals` per seat, summed over the hands' `points`. A form without a target plays
        one hand to a game (Sebastopol, Grimm's Tiddle-a-wink: the hand's winner wins the game)."""
        target = self.target(rules)
        if target is None:
            return hands_played >= 1
        return any(v >= target for v in totals.values())

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


def unless_out(rules: Rules, seat: str) -> tuple:
    """`Field.when` for what a seat holds: not asked of the seat that went out (it holds 0)."""
    return ("out", tuple(n for n in range(rules.players + 1) if n != seat_number(rules, seat)))


def if_blocked(rules: Rules) -> tuple:
    """`Field.when` for what only a block needs (a comparison of hands): asked when nobody went out."""
    return ("out", (0,))


def seat_number(rules: Rules, seat: str | None) -> int:
    return 0 if seat is None else rules.seats.index(seat) + 1


def partnership_points(rules: Rules, side_points: dict[str, int]) -> dict[str, int]:
    """Each partner is credited what the side won (Grimm: "they win conjointly")."""
    return {s: side_points[side_of(s)] for s in rules.seats}


@lru_cache(maxsize=256)
def _entry_form(form: GameForm, rules: Rules) -> EntryForm:
    # A pure function of the rules, asked for every hand scored: made once.
    return form.entry_form(rules)


@lru_cache(maxsize=256)
def _play_entry_form(form: GameForm, rules: Rules) -> EntryForm | None:
    # As `_entry_form`, for every count keyed in play: made anew, each count wrote out its
    # form's checker again (EntryForm.checker), 200-300 us a count.
    return form.play_entry_form(rules)
