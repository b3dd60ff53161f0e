"""Muggins, or All Fives, as a party: Milton Bradley's game to 100 a session. Its books give
no party rule, so the party is Grimm's progression by gains."""
from . import GRIMM_BY_GAINS, PartyForm

FORMS = (PartyForm(
    name="muggins", title="Muggins (All Fives)",
    line="Muggins or All Fives: a session is a game to 100 (the first to it rings the bell, the "
         "others finish the hand), three sessions, the points won; Grimm's movement by gains",
    game="muggins",
    game_source="003_611dc33fc9a3dd20.txt, MUGGINS or ALL FIVES: 'The player to score 100 points "
                "first wins the game'; 001_9f9bc89015baa380.txt, MUGGINS",
    party_source=GRIMM_BY_GAINS,
    movement="by-gains",
    movement_rule="Grimm's by gains: after session I the two who won the most points at each "
                  "table move up one table (Table 1's to the last); after session II every card "
                  "ranked by its points, the highest at Table 1 A",
    measure="points", session_points=100, sessions=3),)
