"""The conductor's mends, each with why and its author's name on record: a result
corrected, a game annulled (keyed or in hand), a bell undone, a table's session closed."""
from __future__ import annotations

from hub.refusal import Refusal

from .. import events as k
from ..frozen import FrozenMap
from ..leads import keys_lead
from ..ruling import Admit, Kind, closable, mend_entry, mend_of, outcome, say_why
from ..scoring import score, score_count
from ..state import Entry, PartyState, find_entry, in_play, replace, table_done
from .tables import fold_closed


def entry_of(state, p) -> Entry:
    """The entry a mend names, not annulled."""
    entry_id = p.what.entry
    where = find_entry(state, entry_id) if entry_id is not None else None
    if where is None:
        raise Refusal("NO SUCH GAME")
    si, n, ei = where
    e = (state.play_offs[-1 - si] if si < 0 else state.sessions[si].tables[n]).entries[ei]
    if e.annulled is not None:
        raise Refusal("GAME ANNULLED")
    return e


def corrected_values(state: PartyState, e: Entry, values: FrozenMap) -> tuple[FrozenMap, bool]:
    """The values a correction gives the entry, and whether they name the first lead.
    A correction that leaves out who led keeps the lead first keyed."""
    lead = e.session > 0 and keys_lead(state.setup.form, e.game)
    if lead and "lead" not in values and "lead" in e.values:
        values = values.set("lead", e.values["lead"])
    return values, lead


def check_result_corrected(state, p, login, now):
    say_why(p)
    e = entry_of(state, p)
    values, lead = corrected_values(state, e, p.what.values)
    # a count made in play is scored as one (a header given to the other seat), never as a hand
    scored = score_count(state.setup, e.seats, values) if e.in_play else \
        score(state.setup, e.seats, values, play_off=e.session == 0, lead=lead)
    current = e.session == (state.session.number if state.session else -1)
    return Admit((p.judged(outcome=scored),), "CORRECTED", e.table if current else None)


def fold_result_corrected(state, ev):
    def change(e: Entry) -> Entry:
        values, lead = corrected_values(state, e, ev.what.values)
        scored = outcome(state, ev.what, e.seats, values, play_off=e.session == 0, lead=lead)
        return replace(e, values=values, gains=scored.gains,
                       winners=scored.winners, corrections=e.corrections + (mend_of(ev),))
    return mend_entry(state, ev.what.entry, change)


def check_game_annulled(state, p, login, now):
    """"If it occur that a wrong match has been made ... the conductor or his assistant
    will have to annul the game ... and the players at that particular table will have to
    begin a new game" — a game in hand (no result yet) or one already keyed."""
    say_why(p)
    if p.what.entry is not None:
        e = entry_of(state, p)
        if p.what.table != e.table:
            raise Refusal("WRONG TABLE")
        return Admit((p,), "GAME ANNULLED")
    s, n = state.session, p.what.table
    if s is None or s.started is None or n not in s.tables or \
            table_done(state.setup, s, s.tables[n]) or not in_play(state.setup, s.tables[n]):
        raise Refusal("NOT IN SESSION")
    return Admit((p,), "GAME ANNULLED")


def fold_game_annulled(state, ev):
    if ev.what.entry:
        return mend_entry(state, ev.what.entry, lambda e: replace(e, annulled=mend_of(ev)))
    n = ev.what.table
    t = state.table(n)
    return state.with_table(n, t.noted(annulled_in_hand=t.annulled_in_hand + (mend_of(ev),)))


def check_bell_undone(state, p, login, now):
    say_why(p)
    s = state.session
    bell = next((b for b in (s.bells if s else ()) if b.id == p.what.bell), None)
    if bell is None:
        raise Refusal("NO SUCH BELL")
    if bell.undone is not None:
        raise Refusal("ALREADY UNDONE")
    return Admit((p,), "BELL UNDONE")


def fold_bell_undone(state, ev):
    s = state.session
    bells = tuple(replace(b, undone=mend_of(ev)) if b.id == ev.what.bell else b for b in s.bells)
    return state.with_session(replace(s, bells=bells))


def check_table_closed(state, p, login, now):
    say_why(p)
    s, n = state.sessions[-1] if state.sessions else None, p.what.table   # state.session, a call less
    if s is None or s.started is None or n not in s.tables:
        raise Refusal("NOT IN SESSION")
    closable(state, s, s.tables[n])
    return Admit((p,), "TABLE CLOSED")


KINDS = (
    Kind(k.RESULT_CORRECTED, "staff", check_result_corrected, fold_result_corrected),
    Kind(k.GAME_ANNULLED, "staff", check_game_annulled, fold_game_annulled),
    Kind(k.BELL_UNDONE, "staff", check_bell_undone, fold_bell_undone),
    Kind(k.TABLE_CLOSED, "staff", check_table_closed, fold_closed),
)
