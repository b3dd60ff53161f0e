"""The Bergen party (Grimm): White and Red sides, partners, ten points end a session."""
from . import PartyForm

FORMS = (PartyForm(
    name="bergen", title="The Bergen Game",
    line="The Bergen Game: partners by White and Red cards, ten points end a session, "
         "an hour and a half by the clock; the bell: stop now",
    game="bergen", game_source="000_ff8a6ed40036e836.txt, BERGEN GAME",
    party_source="000_ff8a6ed40036e836.txt, BERGEN GAME: 'Ten points made at any table ends a session, whereupon the "
                 "bell is rung, and all tables stop playing at once'; 'The partners having won the "
                 "greatest number of points at that moment get each a punch hole in their "
                 "score-cards and move to the next (higher) table'; 'The game lasts an hour and a half'",
    movement="partners",
    movement_rule="the partners ahead at each table get a punch-hole each, move up one table and "
                  "separate, each taking a partner of the other colour",
    measure="punch-holes", partnership=True, players=4, session_points=10, time_limit=90, bell="stop",
    variant="party", play_off_variant="game", in_play=True),)
