"""The Sebastopol party (Grimm): the games won, two of each table moving up."""
from . import PartyForm

FORMS = (PartyForm(
    name="sebastopol", title="Sebastopol",
    line="Sebastopol: three games a session, four sessions, the games won",
    game="sebastopol", game_source="000_ff8a6ed40036e836.txt, SEBASTOPOL",
    party_source="000_ff8a6ed40036e836.txt, SEBASTOPOL: 'There are four sessions. Each session is ended as soon as any "
                 "table has finished its third game'; 'after every session two players of each "
                 "table move to the next (higher) one. Those two always move who have won the most "
                 "games in the session ended.'",
    movement="sebastopol",
    movement_rule="the two who won the most games at each table move up one table; a tie drawn by "
                  "lot",
    measure="games", games=3, sessions=4, first_lead="DBL WHOLE LEADS"),)
