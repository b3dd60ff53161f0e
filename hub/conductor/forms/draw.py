"""The Draw Game party (Grimm): "The party rules are the same as in Block"."""
from dataclasses import replace

from .block import FORMS as BLOCK

FORMS = (replace(
    BLOCK[0], name="draw", title="The Draw Game",
    line="The Draw Game: as Block, drawing from the stock when blocked",
    game="draw", game_source="000_ff8a6ed40036e836.txt, DRAW GAME",
    party_source="000_ff8a6ed40036e836.txt, DRAW GAME: 'The party rules are the same as in Block.'"),)
