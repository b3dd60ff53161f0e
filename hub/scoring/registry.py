"""Every game form of the rule books, and the train games of published rules, by name."""
from __future__ import annotations

from .form import GameForm
from .forms.block_draw import BLOCK, DRAW
from .forms.all_quarters import ALL_QUARTERS
from .forms.bergen import BERGEN
from .forms.bingo import BINGO_FORM
from .forms.matador import MATADOR
from .forms.muggins import MUGGINS
from .forms.pell import (FOUR_HANDED_MATCH, FOUR_HANDED_SKIN, FOURTEEN_PIECE,
                         THREE_HANDED_NINE_PIECE)
from .forms.sebastopol import SEBASTOPOL
from .forms.texas42 import TEXAS_42
from .forms.tiddle_a_wink import TIDDLE_A_WINK
from .forms.trains import CHICKEN_FOOT, MEXICAN_TRAIN
from .values import Refusal

FORMS: dict[str, GameForm] = {f.name: f for f in (
    BLOCK, DRAW, MUGGINS, ALL_QUARTERS, BERGEN, SEBASTOPOL, TIDDLE_A_WINK, MATADOR, BINGO_FORM,
    TEXAS_42,
    FOURTEEN_PIECE, FOUR_HANDED_MATCH, THREE_HANDED_NINE_PIECE, FOUR_HANDED_SKIN,
    MEXICAN_TRAIN, CHICKEN_FOOT)}


def get_form(name: str) -> GameForm:
    try:
        return FORMS[name]
    except KeyError:
        raise Refusal("NO SUCH GAME") from None
