"""The train games: Mexican Train and Chicken Foot. A game is a round per double of the set,
the engine double counting down from the highest to the double-blank; after each round every
player scores what is left in his hand, and after the last round the lowest total wins.

Neither game is in the five rule books of ../shared/seeds (none of them names either): the
sources are published rules on the web, each variant quoting its own. A table keys one number
per seat, the spots left in his hand (the player who went out: 0); the house rules for blanks
(the double-blank 50, each blank 25...) are the option `blanks`, and the table keys each hand
counted by them.
"""
from __future__ import annotations

import random
from functools import lru_cache

from ..bounds import HandBounds
from ..form import GameForm, Variant
from ..tiles import Tile
from ..trainplay import TrainSpec, play_train_round
from ..values import EntryForm, Field, HandOutcome, PlayedHand, Refusal, Rules

# The house rules for blanks left in a hand (option `blanks`), by name: what a piece counts.
SPOTS = "spots"
BLANKS = {
    SPOTS: "each piece its spots",
    # reference.com, How do you play Chicken Foot dominoes?: "A double-blank domino is equal to
    # 50 points."
    "double-blank-50": "the double-blank 50, the rest their spots",
    # docslib.org/doc/4134077, Chickenfoot, rule 7: "DoubleBlank scores 25."
    "double-blank-25": "the double-blank 25, the rest their spots",
    # the Russells' page: "Blanks count as 25 points each, and the double-blank counts fifty":
    # each blank end 25, so the double-blank, two of them, 50
    "blank-25": "each blank end 25 (the double-blank 50), the rest their spots",
}


def worth(tile: Tile, blanks: str = SPOTS) -> int:
    """What a piece left in a hand counts under the house rule `blanks`."""
    if blanks == "blank-25":
        return tile.spots + 25 * ((tile.low == 0) + (tile.high == 0))
    if tile == Tile(0, 0) and blanks.startswith("double-blank-"):
        return int(blanks.rsplit("-", 1)[1])
    return tile.spots


class TrainForm(GameForm):
    """A game of rounds on engine doubles, the spots left scored, the lowest total winning.
    Subclasses give `deals` (variant -> players -> pieces each) and `spec`."""

    lowest_wins = True
    option_names = frozenset({"party", "blanks", "hand"})
    deals: dict[str, dict[int, int]] = {}

    def rules(self, players=None, variant=None, tile_set=None, **options) -> Rules:
        if options.get("blanks", SPOTS) not in BLANKS:
            raise Refusal("NO SUCH OPTION")
        rules = super().rules(players, variant, tile_set, **options)
        if self.hand_size(rules) * rules.players + 1 > len(self.tile_set(rules)):
            raise Refusal("TOO MANY PIECES")
        return rules

    def hand_size(self, rules: Rules) -> int:
        """Pieces dealt to each player: the variant's deal for the players, or `hand=`."""
        return rules.option("hand", self.deals[rules.variant][rules.players])

    def blanks(self, rules: Rules) -> str:
        return rules.option("blanks", SPOTS)

    def spec(self, rules: Rules) -> TrainSpec:
        raise NotImplementedError

    # --- the rounds --------------------------------------------------------------------
    def rounds(self, rules: Rules) -> int:
        """A round for each double of the set, the double-blank's the last."""
        return self.tile_set(rules).top + 1

    def engine(self, rules: Rules, round: int) -> int:
        """The engine double of round `round` (1 = the first): the set's highest, then one
        lower each round down to the double-blank."""
        if not 1 <= round <= self.rounds(rules):
            raise Refusal("NO SUCH ROUND")
        return self.tile_set(rules).top - (round - 1)

    def _target(self, rules: Rules) -> None:
        return None

    def game_over(self, rules: Rules, totals: dict[str, int], hands_played: int = 0) -> bool:
        return hands_played >= self.rounds(rules)

    def winners_of_game(self, rules: Rules, totals: dict[str, int]) -> tuple[str, ...]:
        low = min(totals.values())
        return tuple(s for s in rules.seats if totals.get(s) == low)

    # --- a round -----------------------------------------------------------------------
    def entry_form(self, rules: Rules) -> EntryForm:
        b = train_bounds(self, rules)
        label = "SPOTS" if self.blanks(rules) == SPOTS else "POINTS"
        fields = tuple(Field(s, f"{s} {label} LEFT", 0, b.most_per_seat, total=b.most_in_hands,
                             refuse=f"{s}: {b.most_per_seat} AT MOST") for s in rules.seats)
        return EntryForm(self.title.upper()[:16], fields, (b, one_out(self, rules)))

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        """Each seat scores what it keyed; the round's winners are the lowest (the one out)."""
        points = {s: values[s] for s in rules.seats}
        low = min(points.values())
        return made_as(points, tuple(s for s in rules.seats if points[s] == low), low > 0)

    def play_hand(self, rules: Rules, rng: random.Random, leader: str | None = None,
                  round: int = 1) -> PlayedHand:
        """Round `round` by legal moves, `leader` (by default the first seat) playing first."""
        h = play_train_round(self.tile_set(rules), self.engine(rules, round), rules.seats,
                             self.spec(rules), rng, leader)
        blanks = self.blanks(rules)
        values = {s: sum(worth(t, blanks) for t in h.hands[s]) for s in rules.seats}
        return PlayedHand(rules, tuple(h.moves), self.score(rules, values), values,
                          {s: tuple(v) for s, v in h.hands.items()}, tuple(h.stock), h.dealt)


@lru_cache(maxsize=256)
def train_bounds(form: TrainForm, rules: Rules) -> HandBounds:
    """What a seat can hold when a round ends: the pieces it was dealt and every piece of the
    boneyard (one drawn a turn, it may draw them all), at most the heaviest so many of the set;
    all the seats together, the set less the engine and at least one piece played. Made once
    per rules."""
    tiles = form.tile_set(rules).tiles
    dealt = form.hand_size(rules) * rules.players
    boneyard = len(tiles) - 1 - dealt
    return HandBounds(rules.seats, tiles, form.hand_size(rules) + boneyard, dealt + boneyard - 1,
                      worth=lambda t, blanks=form.blanks(rules): worth(t, blanks))


def one_out(form: TrainForm, rules: Rules):
    """A round ends when one player is out: no more seats hold nothing than the one out and
    the pieces that count nothing (the double-blank counted as its spots)."""
    most = 1 + sum(worth(t, form.blanks(rules)) == 0 for t in form.tile_set(rules).tiles)

    def check(values: dict[str, int]) -> None:
        if sum(values.get(s) == 0 for s in rules.seats) > most:
            raise Refusal("ONE GOES OUT")
    return check


# --- Mexican Train ---------------------------------------------------------------------------
OFFICIAL = ("https://mexicantrain.com/rules.html, Official rules for playing Mexican Train "
            "Dominoes: 'Domino Set: Double-Twelves', 'Number of Rounds: 13', 'Number of Players: "
            "4', 'Number of Dominoes Dealt (to each player): 15'; 'The player with the fewest "
            "points at the end of the game wins. Each dot on a domino is worth a point.' The "
            "'official' rules are the inventors', Roy and Katie Parsons (1994), sold to Puremco "
            "(https://htfbw.com/games-cards/Games/76031.shtml, Invention).")
FIFTEEN_TWELVE_ELEVEN = (
    "https://docslib.org/doc/4134077/mexican-train-2-8-players, Mexican Train (2-8 players): "
    "'Players: 2 3 4 5 6 7 8 ... Double Twelve 15 15 15 12 12 11 11'; on a double-fifteen, "
    "https://ourpastimes.com/play-15-mexican-train-dominoes-7719632.html: 'With two to four "
    "players draw 15 tiles, five to six players draw 12 tiles and seven or more draw 11 "
    "dominoes each.'")
SIXTEEN_TO_TEN = (
    "https://www.idahogoodsam.org/gamerules/9, Mexican Train: '2 players - 16 tiles, 3 players - "
    "15 tiles, 4 players - 14 tiles, 5 players - 13 tiles, 6 players - 12 tiles, 7 players - 11 "
    "tiles, 8 players - 10 tiles'; 'If a double is played, that player must \"satisfy\" that "
    "double by playing another matching tile on the double.'")

PRESSMAN = (
    "https://www.paperzz.com/doc/7043126/object-of-the-game-contents-set-up-beginning-the, "
    "Pressman's Mexican Train (2015), SET UP: 'Players Draw 2-4 ... 15, 5-6 ... 11, 7-8 ... 8'; "
    "OBJECT OF THE GAME: 'The lowest total score after all rounds is the winner.'")


class MexicanTrain(TrainForm):
    name = "mexican-train"
    title = "Mexican Train"
    variants = {v.name: v for v in (
        Variant("puremco", OFFICIAL, "The official rules: four players, 15 each from a "
                "double-twelve, thirteen rounds (the engine 12-12 down to 0-0).", (4,),
                ("double-twelve",)),
        Variant("fifteen-twelve-eleven", FIFTEEN_TWELVE_ELEVEN, "15 each at two to four players, "
                "12 at five or six, 11 at seven or eight; on a double-twelve (13 rounds) or a "
                "double-fifteen (16 rounds, the engine 15-15 down to 0-0).", tuple(range(2, 9)),
                ("double-twelve", "double-fifteen")),
        Variant("sixteen-to-ten", SIXTEEN_TO_TEN, "16 each at two players, one fewer for each "
                "more player, 10 at eight; double-twelve, 13 rounds.", tuple(range(2, 9)),
                ("double-twelve",)),
        Variant("pressman", PRESSMAN, "A boxed set's rules card: 15 each at two to four, 11 at "
                "five or six, 8 at seven or eight; double-twelve, 13 rounds.", tuple(range(2, 9)),
                ("double-twelve",)),
    )}
    default = "puremco"
    why_default = ("The inventors' rules, published by Puremco, deal 15 each at a table of four; "
                   "other tables take the first variant that seats them (15, 12, 11).")
    deals = {
        "puremco": {4: 15},
        "fifteen-twelve-eleven": {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11},
        "sixteen-to-ten": {n: 18 - n for n in range(2, 9)},
        "pressman": {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 8, 8: 8},
    }

    def spec(self, rules: Rules) -> TrainSpec:
        return TrainSpec(self.hand_size(rules))


# --- Chicken Foot ----------------------------------------------------------------------------
DOUBLE_FOOT = (
    "http://web.archive.org/web/20020103201512/http:/www.flash.net/~russellr/mindshare/humor/"
    "chknfoot.htm, Chicken Foot: 'One set of double nine dominoes'; 'The next six plays will be "
    "on the double nine, three tiles on each side forming a double chicken foot'; 'The next "
    "three plays must be made on this chicken foot before any tiles can be played anywhere "
    "else.' The deal, https://docslib.org/doc/4134077/mexican-train-2-8-players, Chickenfoot: "
    "'42 / [# of players], rounded to the nearest whole number ... Players 2 3 4 5 6 7 8 ... "
    "Draw 21 14 11 8 7 6 5'.")
CROSS = (
    "http://www.cardsdicedominoes.com/chickenfoot-domino-rules.htm, How to Play Chickenfoot "
    "Dominoes: 'the next four players will play a tile-end matching the initial double'; 'For "
    "a double-nine set with four to five players, seven initial tiles'; 'ten rounds for the "
    "double-nines'. For two and three, https://htfbw.com/games-cards/Games/39024.shtml: 'In a "
    "two-player game, each player removes nine dominoes'; 'In a three- or four-player game, "
    "each player removes seven dominoes.'")


class ChickenFoot(TrainForm):
    name = "chicken-foot"
    title = "Chicken Foot"
    variants = {v.name: v for v in (
        Variant("double-foot", DOUBLE_FOOT, "Double-nine, ten rounds (9-9 down to 0-0); six "
                "pieces on the engine, three a side, then three toes on every double; 42 pieces "
                "shared out (21 each at two ... 5 at eight).", tuple(range(2, 9)),
                ("double-nine",)),
        Variant("cross", CROSS, "Double-nine, ten rounds; four pieces on the engine, a cross, "
                "then three toes on every double; 9 each at two, 7 at three to five.",
                (2, 3, 4, 5), ("double-nine",)),
    )}
    default = "double-foot"
    why_default = ("The double chicken foot on the engine is the game's name-giving layout, and "
                   "its deal (42 shared out) is given for two to eight players.")
    deals = {
        "double-foot": {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5},
        "cross": {2: 9, 3: 7, 4: 7, 5: 7},
    }

    def spec(self, rules: Rules) -> TrainSpec:
        return TrainSpec(self.hand_size(rules), engine_arms=6 if rules.variant == "double-foot"
                         else 4, toes=3)


MEXICAN_TRAIN = MexicanTrain()
CHICKEN_FOOT = ChickenFoot()
