"""The party's words as the screens say them: where it stands, what a form counts, a prize,
a place. Read by every page (the console's, the projector's, the printed ones)."""
from __future__ import annotations

from hub.conductor import state as S
from hub.conductor.setup import PARTY_FORMS

# each party form's name as the book heads it (hub/conductor/forms/)
FORM_NAMES = {name: form.title for name, form in PARTY_FORMS.items()}


# ----- where the party stands -------------------------------------------------------------
# The conductor's session phase (hub.conductor.state.session_phase) in the screens' words: the
# console's pill and what it offers next, the projector's state (web/projection.py; its
# web/static/standings.js says each to the room). Seated for the first session, the room waits for the bell; seated by the
# movement for a later one, it is between sessions, as after the last one ended.
_SAID = {"ended": "between"}


def phase_of(session: str | None, number: int = 0) -> str:
    """guests (no session yet: before the draw) | waiting | playing | finishing | stopped |
    between | over, for a session in phase `session` numbered `number`."""
    if session is None:
        return "guests"
    if session == "seated":
        return "waiting" if number == 1 else "between"
    return _SAID.get(session, session)


def phase(state) -> str:
    """setup (no party yet) | the current session's `phase_of`."""
    if state.setup is None:
        return "setup"
    s = state.session
    return phase_of(S.session_phase(state, s) if s else None, s.number if s else 0)


# what a score-card counts, in the book's words
MEASURE_WORDS = {"sixteenths": "note-values", "quarters": "quarters", "games": "games won",
                 "punch-holes": "punch-holes", "points": "points", "spots": "spots left"}


def measure_of(form: str) -> str:
    """What a party form's standings count, in the book's words."""
    return MEASURE_WORDS[PARTY_FORMS[form].measure]


def name_of(state, card: str | None) -> str:
    return state.holders.get(card, "") if card else ""


def place_label(place) -> str:
    return f"Table {place[0]} {place[1]}" if place else ""


_ORDINALS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth",
             "Eleventh", "Twelfth")


def prize_label(prize: str) -> str:
    if prize.isdigit():
        n = int(prize)
        return f"{_ORDINALS[n - 1]} prize" if 1 <= n <= len(_ORDINALS) else f"Prize {prize}"
    return {"booby": "Booby prize"}.get(prize, f"{prize} side")
