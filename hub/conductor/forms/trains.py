"""Mexican Train and Chicken Foot as parties, as clubs play them progressively (none of the
seeds' books has either game; the engine's sources are published pages, hub/scoring/forms/
trains.py). A session is a whole game, a round for each double of the set (13 on the
double-twelve, 16 on the double-fifteen, 10 on Chicken Foot's double-nine); the first table
to finish its last round rings the bell and the others finish the round in hand (a set-up's
`bell: "stop"` ends it at once; `session_limit` makes the game a timed one). The lowest total
wins: spots left in hand are scored against their holder.

The movement, named options of the set-up (`movement`):
- "three-lowest" (the default): a retirement community's rule, "deal 11 and move the three
  lowest scores to another table after each game": the three lowest of each table's game move
  up one table (Table 1's to the last), the highest stays.
- "winner": the winner of each table's game (its lowest) moves up one table, the others stay.
Late-comers (`late_score: "table-highest"`): "another club seats late-comers with the table's
highest score"; by default a late-comer starts at 0.
"""
from . import PartyForm

CLUBS = ("issue 27, the clubs' progressive rules: a retirement community's 'deal 11 and move the "
         "three lowest scores to another table after each game'; senior-games events' 'timed "
         "games of 60 minutes'; 'another club seats late-comers with the table's highest score'")

MEXICAN_TRAIN = PartyForm(
    name="mexican-train", title="Mexican Train",
    line="Mexican Train: a session is a game, a round per double (13 on the double-twelve), the "
         "first table done rings the bell; the lowest total wins; the three lowest of each table "
         "move up one table (or the winner only)",
    game="mexican-train",
    game_source="hub/scoring/forms/trains.py: https://mexicantrain.com/rules.html (the inventors', "
                "Puremco); docslib.org/doc/4134077; idahogoodsam.org/gamerules/9",
    party_source=CLUBS,
    movement="three-lowest", movements=("winner",),
    movement_rule="the three lowest totals of each table's game move up one table (Table 1's to "
                  "the last), the highest stays; or (movement \"winner\") only the lowest moves",
    measure="spots", rounds=True, sessions=3, variant="fifteen-twelve-eleven",
    lowest_wins=True, late_scores=True)

CHICKEN_FOOT = PartyForm(
    name="chicken-foot", title="Chicken Foot",
    line="Chicken Foot: a session is a game of ten rounds (the double-nine down to the "
         "double-blank), the lowest total wins; the three lowest of each table move up one "
         "table (or the winner only)",
    game="chicken-foot",
    game_source="hub/scoring/forms/trains.py: the Russells' Chicken Foot (web.archive.org, "
                "chknfoot.htm); cardsdicedominoes.com; docslib.org/doc/4134077",
    party_source=CLUBS,
    movement="three-lowest", movements=("winner",),
    movement_rule=MEXICAN_TRAIN.movement_rule,
    measure="spots", rounds=True, sessions=3,
    lowest_wins=True, late_scores=True)

FORMS = (MEXICAN_TRAIN, CHICKEN_FOOT)
