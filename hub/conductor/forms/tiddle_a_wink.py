"""The Tiddle-a-wink party (Grimm): partners, a point for every double played."""
from dataclasses import replace

from .bergen import FORMS as BERGEN

FORMS = (replace(
    BERGEN[0], name="tiddle-a-wink", title="Tiddle-a-wink",
    line="Tiddle-a-wink: partners, a point for every double played, ten points end a session",
    game="tiddle-a-wink", game_source="000_ff8a6ed40036e836.txt, TIDDLE-A-WINK",
    party_source="000_ff8a6ed40036e836.txt, TIDDLE-A-WINK: 'Ten points made in partnership at any table ends a session'; the score-cards "
                 "'are made up in the same manner' as Bergen's",
    variant="grimm-party", play_off_variant="grimm", first_lead="DBL WHOLE LEADS"),)
