"""Matador: a tile is played so that its touching end and the open end make the sum; the
matadors fit anywhere and alone can answer a blank. A double is a single end of its value.

Parker, 001_9f9bc89015baa380.txt, MATADOR (double-six, sums of seven, four matadors, three
pieces each); Milton Bradley, 003_611dc33fc9a3dd20.txt, MATADOR (double-nine, sums of ten,
six matadors, doubles half in play and full in hand).
"""
from __future__ import annotations


from ..form import Variant, seat_field, seat_value
from ..line import Matching
from ..lineplay import DRAW_UNTIL, LineHand, LineSpec
from ..settle import DIFFERENCE, WINS_NO_COUNT
from ..tiles import Tile
from ..values import EntryForm, HandOutcome, Rules
from .spots import SpotsForm

T = Tile.of
PARKER_MATCH = Matching(7, frozenset({T(0, 0), T(6, 1), T(5, 2), T(4, 3)}))
MB_MATCH = Matching(10, frozenset({T(9, 1), T(8, 2), T(7, 3), T(6, 4), T(5, 5), T(0, 0)}))


class Matador(SpotsForm):
    name = "matador"
    title = "Matador"
    variants = {v.name: v for v in (
        Variant("parker",
                "001_9f9bc89015baa380.txt, MATADOR: 'must make up the complement of seven'; 'there "
                "are four Matadors, the Double-Blank, and the three natural Seven-spots'; 'Each "
                "player at the commencement, draws three pieces'; 'the hand containing the least "
                "number of spots wins, but it does not count to its own score'",
                "Double-six, three each (three left undrawn when two play), sums of seven; the "
                "first out counts the others' spots; a block is won by the lowest without a "
                "count; game 100.", (2, 3, 4)),
        Variant("milton-bradley",
                "003_611dc33fc9a3dd20.txt, MATADOR (3 to 8 Players) (Use a Double-Nine Set): "
                "'must play a piece one of whose ends, when added to an open end, will make a "
                "count of 10'; 'there are 6 Matador tiles'; 'scores the difference between his "
                "hand and the total of each opponent'",
                "Double-nine, seven each for three to six (five for seven or eight), sums of ten; "
                "a player may draw rather than spend a matador; on a block the lowest scores the "
                "difference to each opponent.", (3, 4, 5, 6, 7, 8), ("double-nine",)),
    )}
    default = "parker"
    why_default = "Parker's plays on the double-six set every party table has."

    def entry_form(self, rules: Rules) -> EntryForm:
        form = super().entry_form(rules)
        if rules.variant != "parker":
            return form
        # "he must play if he can; the failure to do so deprives him of any count in that hand"
        return EntryForm(form.title, form.fields + (seat_field("forfeit", "DID NOT PLAY", rules),))

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        outcome = super()._score(rules, values)
        failed = seat_value(rules, values.get("forfeit", 0))
        points = outcome.points
        if failed is not None and points[failed]:
            points = {**points, failed: 0}
        return made_as(points, outcome.winners, outcome.blocked, outcome.side_points, outcome.tally)

    def values_of(self, rules: Rules, h: LineHand, rng, counts) -> dict[str, int]:
        values = super().values_of(rules, h, rng, counts)
        if rules.variant == "parker":
            values["forfeit"] = 0   # the engine's players always play when they can
        return values

    def block_rule(self, rules: Rules) -> str:
        return DIFFERENCE if rules.variant == "milton-bradley" else WINS_NO_COUNT

    def spec(self, rules: Rules) -> LineSpec:
        if rules.variant == "parker":
            # "When two play, there must be three pieces left undrawn"
            return LineSpec(rules.option("hand", 3), matching=PARKER_MATCH, crosswise=False,
                            draw=DRAW_UNTIL, keep=3 if rules.players == 2 else 0)
        # "If there are 3 to 6 players, each draws 7 tiles. If there are 6 to 8 players, each
        # draws 5." Six players is in both clauses; the first is taken.
        return LineSpec(rules.option("hand", 7 if rules.players <= 6 else 5),
                        matching=MB_MATCH, crosswise=False, draw=DRAW_UNTIL,
                        draw_before_matador=True)


MATADOR = Matador()
