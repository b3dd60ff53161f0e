"""Pell's four regular Block games (002_0ed9ffa4e00fde7b.txt, "BLOCK GAME OF DOMINOES"): the
Fourteen Piece, the Four Handed Match (partners), the Three Handed Nine Piece (0|0 exposed) and
the Four Handed Skin. No drawing; 6|6 sets; the winner counts the spots left against him.
Pell's Draw game is the "pell" variant of `draw`.

Pell gives the block settlement for the skins only ("after a block it is discovered that the
parties are all a tie, but one ... they, (the spots in this one hand), are divided among the
winners, the odd spots in all cases not to be counted"); for the others the lowest hand (or
side, "the pieces left are counted in connexion") takes the rest, a tie taking nothing.
"""
from __future__ import annotations

from ..form import Variant
from ..lineplay import LineSpec
from ..settle import SHARE, TAKE_ALL
from ..tiles import Tile
from ..values import Rules
from .spots import SpotsForm

def hook_and_ladder_count(a: int, b: int) -> int:
    """The count a Hook and Ladder on suits `a` and `b` wins in the Draw game (Pell, "To
    Calculate the Count of a Hook and Ladder": "You add the two suits together—multiply that by
    6, the number of times these suits play—subtract from this amount 6, the gradual decrease of
    count on every suit from the high Hook and Ladder—subtract this amount from the standard,
    120, and you have the count.")."""
    return 120 - ((a + b) * 6 - 6)


GAME_RULE = "002_0ed9ffa4e00fde7b.txt, DRAW GAME, Rule 7th: 'Game 100 or 1000 up, as the parties may agree.'"


class _PellBlock(SpotsForm):
    hand_size = 7
    aside: tuple[Tile, ...] = ()
    block = TAKE_ALL
    why_default = "Pell gives one reading."

    def block_rule(self, rules: Rules) -> str:
        return self.block

    def spec(self, rules: Rules) -> LineSpec:
        return LineSpec(self.hand_size, aside=self.aside)


class FourteenPiece(_PellBlock):
    name = "fourteen-piece"
    title = "Fourteen Piece"
    hand_size = 14
    variants = {"pell": Variant(
        "pell", "002_0ed9ffa4e00fde7b.txt, FOURTEEN PIECE GAME: 'This game is played by two "
        "persons, the pieces being divided—the 6|6 setting first'; " + GAME_RULE,
        "Two players, fourteen each, no stock.", (2,))}
    default = "pell"


class FourHandedMatch(_PellBlock):
    name = "four-handed-match"
    title = "4 Handed Match"
    variants = {"pell": Variant(
        "pell", "002_0ed9ffa4e00fde7b.txt, FOUR HANDED, OR PARTNER GAME: 'played by four persons, "
        "each choosing, or drawing for partners ... taking 7 pieces each—6|6 commencing'; 'the "
        "Match Game is a partnership game altogether, the pieces always counted in connexion'",
        "Partners A+C against B+D, seven each; the side out (or lower on a block) takes the "
        "other side's spots.", (4,), partnership=True)}
    default = "pell"


class ThreeHandedNinePiece(_PellBlock):
    name = "three-handed-nine-piece"
    title = "3 Handed 9 Piece"
    hand_size = 9
    aside = (Tile(0, 0),)
    block = SHARE
    variants = {"pell": Variant(
        "pell", "002_0ed9ffa4e00fde7b.txt, THREE HANDED NINE PIECE GAME: 'each taking nine pieces."
        "—[0|0 exposed]—every man for himself, and 6|6 making the first dash'; a Skin 'of 7 or 9 "
        "pieces': 'divided among the winners, the odd spots in all cases not to be counted'",
        "Three players, nine each, the double blank turned up and out of play; each for himself.",
        (3,))}
    default = "pell"


class FourHandedSkin(_PellBlock):
    name = "four-handed-skin"
    title = "4 Handed Skin"
    block = SHARE
    variants = {"pell": Variant(
        "pell", "002_0ed9ffa4e00fde7b.txt, FOUR HANDED SKIN: 'played by four persons, each "
        "looking out for himself, having 7 pieces each, and 6|6 taking the lead'; 'divided among "
        "the winners, the odd spots in all cases not to be counted'",
        "Four players, seven each, each for himself; equal lowest on a block divide the rest.",
        (4,))}
    default = "pell"


FOURTEEN_PIECE = FourteenPiece()
FOUR_HANDED_MATCH = FourHandedMatch()
THREE_HANDED_NINE_PIECE = ThreeHandedNinePiece()
FOUR_HANDED_SKIN = FourHandedSkin()
