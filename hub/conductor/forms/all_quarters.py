"""The All-Quarters party (Grimm): three games a session, otherwise Block's."""
from dataclasses import replace

from .block import FORMS as BLOCK

FORMS = (replace(
    BLOCK[0], name="all-quarters", title="All-Quarters",
    line="All-Quarters: three games a session, three sessions, counted in quarters",
    game="all-quarters", game_source="000_ff8a6ed40036e836.txt, ALL QUARTERS",
    party_source="000_ff8a6ed40036e836.txt, ALL-QUARTERS: 'Have only three games to a session'; 'Otherwise the party "
                 "rules are the same as in Block.'",
    measure="quarters", games=3),)
