"""Play-offs: "he requests the candidates for the second prize to play a game among
themselves in order to solve the tie" (THIRD SESSION). Their results are the tables'
(kinds/tables.py: a result at a table with an open play-off is the play-off's)."""
from __future__ import annotations

from hub.refusal import Refusal

from .. import events as k
from ..prizes import awards, open_play_off
from ..ruling import Admit, Kind, decision, mend_of
from ..scoring import rules
from ..state import PlayOff, replace


def check_play_off(state, p, login, now):
    """"he requests the candidates for the second prize to play a game among themselves in
    order to solve the tie; and he who wins this game gets the second prize" (THIRD SESSION)."""
    if state.final_count is None:
        raise Refusal("COUNT FIRST")
    prize, table = p.what.prize, p.what.table
    award = next((a for a in awards(state) if a.prize == prize), None)
    if award is None or len(award.cards) < 2:
        raise Refusal("NO TIE")
    if any(po.prize == prize for po in state.play_offs):
        raise Refusal("PLAY-OFF SET")
    if not 1 <= table <= state.setup.tables:
        raise Refusal("UNKNOWN TABLE")
    if open_play_off(state, table) is not None:
        raise Refusal("TABLE BUSY")
    if len(award.cards) > 4:
        raise Refusal("TOO MANY TIED")
    rules(state.setup, len(award.cards), play_off=True)
    seated = decision(p, 1, k.PlayOffSeated, prize=prize, table=table, cards=tuple(award.cards))
    return Admit((p, seated), "PLAY-OFF SET")


def fold_play_off_seated(state, ev):
    b = ev.what
    p = PlayOff(b.prize, b.table, b.cards, mend_of(ev))
    return replace(state, play_offs=state.play_offs + (p,))


KINDS = (
    Kind(k.PLAY_OFF, "staff", check_play_off, None),   # folded as its decision
    Kind(k.PLAY_OFF_SEATED, "hub", None, fold_play_off_seated),
)
