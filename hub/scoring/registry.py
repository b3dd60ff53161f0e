"""Every game form of the rule books, by name."""
from __future__ import annotations

from .form import GameForm
from .forms.block_draw import BLOCK, DRAW
from .forms.muggins import MUGGINS
from .values import Refusal

FORMS: dict[str, GameForm] = {f.name: f for f in (BLOCK, DRAW, MUGGINS)}


def get_form(name: str) -> GameForm:
    try:
        return FORMS[name]
    except KeyError:
        raise Refusal("NO SUCH GAME") from None
