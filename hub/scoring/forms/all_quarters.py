"""All Quarters (Grimm, 000_ff8a6ed40036e836.txt, ALL QUARTERS and the party's ALL-QUARTERS):
the musical set; a play scores the ends' total in quarters when it is a whole number of
quarters; every double crosswise, counting both halves; a player who cannot match draws until
he can or two are left; the first out (or the lowest on a block) takes the others'
sixteenths divided by four, the remainder dropped.
"""
from __future__ import annotations

from ..form import Variant
from ..line import Line
from ..lineplay import DRAW_UNTIL, LineHand, LineSpec
from ..settle import TIE_FEWER_PIECES
from ..values import Field, HandOutcome, Rules
from .spots import SpotsForm

MAX_PLAY = 999


def quarters(before: Line, after: Line) -> int:
    """Quarters a play scores: the ends' sixteenths over four, when they divide evenly."""
    c = after.count
    return c // 4 if c and c % 4 == 0 else 0


class AllQuarters(SpotsForm):
    name = "all-quarters"
    title = "All Quarters"
    variants = {"grimm": Variant(
        "grimm", "000_ff8a6ed40036e836.txt, ALL QUARTERS: 'Each player draws six pieces'; 'this "
        "amount of quarters counts to the score of the one setting it'; 'The game is one hundred "
        "quarters, if two play; but seventy-five if more play.'; ALL-QUARTERS (party): 'In "
        "All-Quarters every double must be laid cross-wise'; 'divide the total by 4 ... "
        "Remainders of sixteenths are not marked'",
        "Musical set, six each (more than five players: an equal share, two left in the stock); "
        "scored in quarters.", (2, 3, 4, 5, 6, 7, 8), ("musical",))}
    default = "grimm"
    why_default = "Grimm's is the only book with this game."
    keys_pieces = True   # "Otherwise the party rules are the same as in Block": fewer dominoes wins a tie

    def tie_rule(self, rules: Rules) -> str:
        return TIE_FEWER_PIECES

    def _target(self, rules: Rules) -> int:
        return 100 if rules.players == 2 else 75

    def spec(self, rules: Rules) -> LineSpec:
        hand = 6 if rules.players <= 5 else (36 - 2) // rules.players
        return LineSpec(rules.option("hand", hand), draw=DRAW_UNTIL, keep=2, on_play=quarters)

    def play_fields(self, rules: Rules) -> tuple[Field, ...]:
        return tuple(Field(f"{s}_play", f"{s} PLAY QUARTERS", 0, MAX_PLAY) for s in rules.seats)

    def _score(self, rules: Rules, values: dict[str, int]) -> HandOutcome:
        sixteenths, winners, blocked, _ = self._settle(rules, values)
        points = {s: values[f"{s}_play"] + sixteenths[s] // 4 for s in rules.seats}
        return HandOutcome(points, winners, blocked,
                           tally={f"{s}_sixteenths": sixteenths[s] for s in rules.seats})

    def values_of(self, rules: Rules, h: LineHand, rng) -> dict[str, int]:
        values = super().values_of(rules, h, rng)
        for s in rules.seats:
            values[f"{s}_play"] = h.scored[s]
        return values


ALL_QUARTERS = AllQuarters()
