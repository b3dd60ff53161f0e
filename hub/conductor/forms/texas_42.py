"""Texas 42 as a party: partners of White and Red cards, five hands a session ("The team
having the most points after five games usually is declared the winner"). The book gives no
party rule, so the party is Grimm's partnership party, Bergen's: the winning partners move
up and separate. Partners tied for a prize play off each for himself, in Milton Bradley's
Block game (the same book, two to four players; 42 has no game without sides)."""
from . import GRIMM_PARTNERS, PartyForm

FORMS = (PartyForm(
    name="texas-42", title="Texas 42",
    line="Texas 42: partners by White and Red cards, five hands a session, three sessions; the "
         "winning partners get a punch-hole, move up and separate (Grimm's Bergen movement)",
    game="texas-42",
    game_source="003_611dc33fc9a3dd20.txt, TEXAS 42 (4 playing as Partners): 'The team having "
                "the most points after five games usually is declared the winner.'",
    party_source=GRIMM_PARTNERS,
    movement="partners",
    movement_rule="Grimm's Bergen movement: the partners with the most points at each table get a "
                  "punch-hole each, move up one table and separate, each taking a partner of "
                  "the other colour",
    measure="punch-holes", partnership=True, players=4, games=5, sessions=3,
    play_off_game="block", play_off_variant="milton-bradley", first_lead="1-0 BIDS FIRST"),)
