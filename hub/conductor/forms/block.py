"""The Block Game party (Grimm), the party the book describes in full."""
from . import PartyForm

FORMS = (PartyForm(
    name="block", title="The Block Game",
    line="The Block Game: four games a session, three sessions, note-values; the bell: finish the game",
    game="block", game_source="000_ff8a6ed40036e836.txt, BLOCK GAME",
    party_source="000_ff8a6ed40036e836.txt, FIRST SESSION: 'As soon as four games have been finished at any table the "
                 "conductor rings the bell'; 'the two luckiest of every table are promoted to the "
                 "preceding table'; THIRD SESSION: 'He puts the highest winner at Table 1, Seat A'",
    movement="by-gains",
    movement_rule="after session I the two with the highest gains of each table move up one table "
                  "(Table 1's to the last); after session II every card ranked by its total, the "
                  "highest at Table 1 A",
    measure="sixteenths", games=4, sessions=3, rotating_lead=True),)
