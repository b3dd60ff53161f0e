"""Block and Draw: match the free ends; the first out ("Domino!") takes the spots left; on a
block each book settles differently. Block passes when a player cannot match; Draw draws.

Sources:
- Parker, 001_9f9bc89015baa380.txt, BLOCK GAME / DRAW GAME.
- Milton Bradley, 003_611dc33fc9a3dd20.txt, BLOCK GAME (2 to 4 Players) / DRAW GAME (2 Players).
- Tandy, 004_ee99a39654249905.txt, DRAW / BLOCK (scored "as in Muggins": the ladder on a block).
- Grimm, 000_ff8a6ed40036e836.txt, BLOCK GAME / DRAW GAME (musical set, eight pieces).
- Pell, 002_0ed9ffa4e00fde7b.txt, DRAW GAME OF DOMINOES, Rules 1st to 7th.
"""
from __future__ import annotations

from ..form import Variant
from ..lineplay import DRAW_UNTIL, NO_DRAW, LineSpec
from ..settle import DIFFERENCE, LADDER, TAKE_ALL, TIE_FEWER_PIECES
from ..values import Rules
from .spots import SpotsForm, party_hand, scaled

SPOTTED = ("double-six", "double-nine", "double-twelve")

PARKER = Variant(
    "parker", "001_9f9bc89015baa380.txt, BLOCK GAME: 'Whoever has the lowest number of spots adds "
    "to his count the number held by his opponents. If there are two with the same number, and "
    "lower than their opponents, there is no count.'",
    "Seven each; on a block the lowest takes all the others' spots; equal lowest: no count.",
    (2, 3, 4))
MILTON_BRADLEY = Variant(
    "milton-bradley", "003_611dc33fc9a3dd20.txt, BLOCK GAME rule 3: 'adds to his score the total "
    "spots held by each of his opponents, minus his count'",
    "Seven each (more with the larger sets); on a block the lowest scores each opponent's spots "
    "minus his own; equal lowest: no score.", (2, 3, 4), SPOTTED)
TANDY = Variant(
    "tandy", "004_ee99a39654249905.txt, MUGGINS: 'the player holding the lowest number is given "
    "the difference between his total and that of each opponent. Then the next lowest ...'",
    "Seven each; on a block the difference ladder: each player scores his difference to every "
    "higher hand.", (2, 3, 4), SPOTTED)
GRIMM = Variant(
    "grimm", "000_ff8a6ed40036e836.txt, BLOCK GAME: 'If there are two with the same amount of "
    "note-values then the holder of the smallest number of dominoes wins.'",
    "Musical set, eight each, counted in sixteenths; equal lowest: fewer dominoes wins; in the "
    "Draw two pieces always stay in the stock.", (2, 3, 4), ("musical",))
PELL = Variant(
    "pell", "002_0ed9ffa4e00fde7b.txt, DRAW GAME, Rule 4th: 'When A. blocks the game, B. is "
    "compelled to draw the remainder of the pack'",
    "Two players, seven each; a blocked player draws the remainder (and if he draws the double "
    "of the blocked suit, plays it and the blocker draws the balance); the lowest takes the "
    "other's spots. Game 100 (or 1000) up.", (2,))

WHY_DEFAULT = ("Parker's, the plainest statement, which Tandy's kit prints on its back and Milton "
               "Bradley restates; the others differ only on a block.")


# on a block, the variants whose book does not have the lowest take all the others' spots
BLOCK_RULES = {"milton-bradley": DIFFERENCE, "tandy": LADDER}


class _BlockDraw(SpotsForm):
    draws: str = NO_DRAW
    why_default = WHY_DEFAULT

    def block_rule(self, rules: Rules) -> str:
        return BLOCK_RULES.get(rules.variant, TAKE_ALL)

    def tie_rule(self, rules: Rules) -> str:
        return TIE_FEWER_PIECES if rules.variant == "grimm" else super().tie_rule(rules)

    def counts_pieces(self, rules: Rules) -> bool:
        return rules.variant == "grimm"

    def _target(self, rules: Rules) -> int:
        # Grimm: "one hundred quarters", scored in sixteenths on his score-cards
        return 400 if rules.variant == "grimm" else 100

    def spec(self, rules: Rules) -> LineSpec:
        if rules.variant == "grimm":
            # BLOCK GAME: "Each player draws eight pieces"; more only at a party's short table
            hand = party_hand(rules, 8)
        else:
            hand = scaled(7, rules, len(self.tile_set(rules)))
        return LineSpec(
            hand_size=hand,
            # Tandy's Draw and Block: "Any domino can be lead"
            lead_any=rules.variant == "tandy",
            draw=self.draws,
            # Grimm: "it is never permissible to completely exhaust the stock, as two pieces
            # must always remain in it"
            keep=2 if rules.variant == "grimm" and self.draws != NO_DRAW else 0)


class Block(_BlockDraw):
    name = "block"
    title = "Block"
    variants = {v.name: v for v in (PARKER, MILTON_BRADLEY, TANDY, GRIMM)}
    default = "parker"


class Draw(_BlockDraw):
    name = "draw"
    title = "Draw"
    draws = DRAW_UNTIL
    variants = {v.name: v for v in (
        PARKER, Variant("milton-bradley", MILTON_BRADLEY.source.replace(
            "BLOCK GAME rule 3", "DRAW GAME (2 Players): 'Rule 3, as found in Block Game, applies'; "
            "BLOCK GAME rule 3"), MILTON_BRADLEY.about, (2,), SPOTTED),
        TANDY, GRIMM, PELL)}
    default = "parker"


BLOCK = Block()
DRAW = Draw()
