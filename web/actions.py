"""The console's actions: a submitted form becomes one Proposal, recorded under its author.

Each action names the journal kind it proposes (hub/conductor/events.py) and
how its body is read from the form. Reading is strict and says what is wrong in
a few words; whether the action can be taken now is the conductor's judgement,
and its refusal is shown on the page as it is.

The proposal id comes from a one-time `action_id` rendered into the form: a
form sent twice (a double click, a browser resubmitting) is the same id and
the same content, so the hub acknowledges it again and records it once.
"""
from __future__ import annotations

import dataclasses
import re
import secrets
from dataclasses import dataclass
from typing import Callable

from hub.conductor import events as ev
from hub.conductor import registry
from hub.conductor.cards import SEATS
from hub.conductor.setup import MOST_TABLES
from hub.event import Proposal
from hub.scoring.forms.trains import BLANKS

from .refusals import field

_ACTION_ID = re.compile(r"^[0-9a-f]{16}$")


class BadForm(ValueError):
    """What is wrong with a submitted form: a sentence naming the field as the page labels it."""

    def __init__(self, key: str, problem: str):
        super().__init__(f"{field(key)}: {problem}")
        self.key = key


def new_action_id() -> str:
    return secrets.token_hex(8)


# ----- readers: form -> value ---------------------------------------------------------
def text(form, key: str, required: bool = True, limit: int = 200) -> str | None:
    value = (form.get(key) or "").strip()
    if not value:
        if required:
            raise BadForm(key, "please fill it in.")
        return None
    if len(value) > limit:
        raise BadForm(key, f"at most {limit} characters, please.")
    return value


def number(form, key: str, required: bool = True, low: int = 0, high: int = 99999) -> int | None:
    raw = (form.get(key) or "").strip()
    if not raw:
        if required:
            raise BadForm(key, "please fill it in.")
        return None
    if not re.fullmatch(r"-?[0-9]{1,6}", raw):
        raise BadForm(key, f"a whole number, please (you typed {raw[:20]!r}).")
    value = int(raw)
    if not low <= value <= high:
        raise BadForm(key, f"a number from {low} to {high}, please.")
    return value


def choice(form, key: str, options: tuple[str, ...]) -> str:
    value = form.get(key)
    if value not in options:
        raise BadForm(key, "choose one, please.")
    return value


def values(form) -> dict[str, int]:
    """The entry form's fields as keyed: inputs named `value.<field>`; a seat field (one
    marked `seat.<field>`) as the board shows it, a letter A-D or "none", or as it is sent, 0-4."""
    out = {}
    for key in form:
        if key.startswith("value."):
            seat = (form.get(key) or "").strip().upper() if form.get("seat." + key[len("value."):]) else ""
            if seat and not re.fullmatch(r"[0-4]|[A-D]|NONE", seat):
                raise BadForm(key, "a seat, A, B, C or D (or none), please.")
            v = SEATS.index(seat) + 1 if seat in SEATS else 0 if seat == "NONE" else \
                number(form, key, required=False, low=-99999)
            if v is not None:
                out[key[len("value."):]] = v
    if not out:
        raise BadForm("values", "key at least one value.")
    return out


def _why(form) -> dict:
    return {"why": text(form, "why")}


def _similar_ok(form) -> dict:
    """The host's word that a near-duplicate name is another person."""
    return {"similar_ok": True} if form.get("similar_ok") else {}


_CARD = re.compile(r"^(?:(WHITE|RED|W|R)\s*)?(?:TABLE\s*)?([0-9]{1,3})\s*([A-D])(?:\s+(WHITE|RED))?$")


def card(form, key: str = "card") -> str:
    """A printed card as the host reads it ("Table 2 C", "2c", "Table 1 B White", "W1B")
    in the conductor's spelling ("2C", "W1B")."""
    raw = " ".join((form.get(key) or "").upper().replace(",", " ").split())
    m = _CARD.match(raw)
    if not m or (m.group(1) and m.group(4)):
        raise BadForm(key, f"type it as printed, e.g. Table 2 C (or Table 1 B White) — not {raw[:20]!r}.")
    colour = (m.group(1) or m.group(4) or "")[:1]
    return f"{colour}{int(m.group(2))}{m.group(3)}"


def changes(form) -> dict:
    """The party's set-up as changed on the form: only the fields the page offers are sent."""
    out = {}
    if "form" in form:
        out["form"] = text(form, "form", limit=20)
    for key in ("tables", "games_per_session", "sessions", "prizes"):
        v = number(form, key, required=False, low=0, high=999)
        if v is not None:
            out[key] = v
    for key in ("booby", "confirm"):
        if key in form:
            out[key] = choice(form, key, ("yes", "no")) == "yes"
    if not out:
        raise BadForm("changes", "change at least one thing.")
    return out


# ----- the actions ----------------------------------------------------------------------
@dataclass(frozen=True)
class Action:
    kind: str
    body: Callable[[object], dict]
    title: str
    conductor_only: bool = False


ACTIONS: dict[str, Action] = {
    "add-staff": Action(ev.STAFF_ADDED, lambda f: {
        "login": text(f, "login", limit=24), "role": choice(f, "role", ("assistant", "conductor"))},
        "Add to the staff", conductor_only=True),
    "list-guest": Action(ev.GUEST_LISTED, lambda f: {"guest": text(f, "guest", limit=80)}, "Add a guest"),
    "check-in": Action(ev.CHECKED_IN, lambda f: {"guest": text(f, "guest", limit=80)}, "Check in"),
    "draw-seats": Action(ev.DRAW_SEATS, lambda f: {}, "Draw the seats"),
    "seat-guest": Action(ev.GUEST_SEATED, lambda f: {
        "guest": text(f, "guest", limit=80), "table": number(f, "table", low=1, high=MOST_TABLES),
        "seat": choice(f, "seat", SEATS), **_why(f)}, "Seat a guest"),
    "guest-left": Action(ev.GUEST_LEFT, lambda f: {"guest": text(f, "guest", limit=80), **_why(f)},
                         "A guest left"),
    "guest-back": Action(ev.GUEST_BACK, lambda f: {"guest": text(f, "guest", limit=80), **_why(f)},
                         "A guest came back"),
    "start-session": Action(ev.SESSION_STARTED, lambda f: {"session": number(f, "session", low=1, high=99)},
                            "Start the session"),
    "bell": Action(ev.BELL, lambda f: {"meaning": choice(f, "meaning", ("finish", "stop")),
                                       **({"why": w} if (w := text(f, "why", required=False)) else {})},
                   "Ring the bell"),
    "undo-bell": Action(ev.BELL_UNDONE, lambda f: {"bell": text(f, "bell", limit=24), **_why(f)}, "Undo the bell"),
    "correct": Action(ev.RESULT_CORRECTED, lambda f: {
        "entry": text(f, "entry", limit=60), "values": values(f), **_why(f)}, "Correct a result"),
    "annul": Action(ev.GAME_ANNULLED, lambda f: {
        "table": number(f, "table", low=1, high=MOST_TABLES), **_why(f),
        **({"entry": e} if (e := text(f, "entry", required=False, limit=60)) else {})},
        "Annul a game"),
    "close-table": Action(ev.TABLE_CLOSED, lambda f: {"table": number(f, "table", low=1, high=MOST_TABLES), **_why(f)},
                          "Close a table"),
    "answer-call": Action(ev.CALL_ANSWERED, lambda f: {"table": number(f, "table", low=1, high=MOST_TABLES)},
                          "Answer a call"),
    "move-players": Action(ev.RESEAT, lambda f: {}, "Move the players"),
    "final-count": Action(ev.FINAL_COUNT, lambda f: {}, "Final count"),
    "walk-in": Action(ev.WALK_IN, lambda f: {"guest": text(f, "guest", limit=80), **_similar_ok(f)},
                      "A walk-in"),
    "undo-check-in": Action(ev.CHECK_IN_UNDONE, lambda f: {"guest": text(f, "guest", limit=80), **_why(f)},
                            "Undo the check-in"),
    "check-in-all": Action(ev.ALL_CHECKED_IN, lambda f: {}, "Check in everyone listed"),
    "rename": Action(ev.GUEST_RENAMED, lambda f: {
        "guest": text(f, "guest", limit=80), "name": text(f, "new_name", limit=80), **_why(f), **_similar_ok(f)},
        "Rename a guest"),
    "remove-guest": Action(ev.GUEST_REMOVED, lambda f: {"guest": text(f, "guest", limit=80), **_why(f)},
                           "Remove from the list"),
    "card-drawn": Action(ev.CARD_DRAWN, lambda f: {"guest": text(f, "guest", limit=80), "card": card(f)},
                         "Card drawn"),
    "card-back": Action(ev.CARD_DRAWN, lambda f: {"guest": text(f, "guest", limit=80), "card": None},
                        "Card put back"),
    "seat-by-cards": Action(ev.DRAW_SEATS, lambda f: {"by_hand": True}, "Seat by the cards drawn"),
    "add-table": Action(ev.TABLE_ADDED, _why, "Add a table"),
    "remove-table": Action(ev.TABLE_REMOVED, _why, "Remove the last table"),
    "undo-draw": Action(ev.DRAW_UNDONE, _why, "Undo the draw", conductor_only=True),
    "display": Action(ev.DISPLAY_CHANGED, lambda f: {"standings": choice(f, "standings", ("hidden", "shown"))},
                      "The projector"),
    "change-party": Action(ev.PARTY_CHANGED, lambda f: {"changes": changes(f), **_why(f)},
                           "Change the party", conductor_only=True),
    "play-off": Action(ev.PLAY_OFF, lambda f: {
        "prize": text(f, "prize", limit=40), "table": number(f, "table", low=1, high=MOST_TABLES)}, "Schedule a play-off"),
}


# its own page's route (web/console.py, remove_staff), which also drops the password
REMOVE_STAFF = Action(ev.STAFF_REMOVED, lambda f: {"login": text(f, "login", limit=24), **_why(f)},
                      "Take off the staff", conductor_only=True)


# A staff kind with no form of its own above (one added in hub/conductor/kinds/,
# docs/conductor.md) is offered all the same, a field for each of its body's: read by type.
_FIELD_READERS: dict[str, Callable] = {
    "str": lambda f, key, required: text(f, key, required=required),
    "int": lambda f, key, required: number(f, key, required=required, low=-99999),
    "bool": lambda f, key, required: bool(f.get(key)),
    "Seat": lambda f, key, required: choice(f, key, SEATS) if required or f.get(key) else None,
}


@dataclass(frozen=True)
class Field:
    name: str
    type: str        # "str", "int", "bool" or "Seat": how the page asks for it
    required: bool


@dataclass(frozen=True)
class KindAction(Action):
    fields: tuple[Field, ...] = ()


def _fields(cls) -> tuple[Field, ...] | None:
    """The body's fields as a form asks for them; None if one is of a shape no form asks
    for (a set of values, a set-up)."""
    out = []
    for f in dataclasses.fields(cls):
        if f.name in ("by", "outcome", "board"):
            continue   # filled in by the judge or the edge, never typed
        base = f.type.removesuffix(" | None")
        if base not in _FIELD_READERS:
            return None
        out.append(Field(f.name, base, f.default is dataclasses.MISSING))
    return tuple(out)


def _kind_body(fields: tuple[Field, ...]) -> Callable[[object], dict]:
    def body(form) -> dict:
        out = {}
        for f in fields:
            value = _FIELD_READERS[f.type](form, f.name, f.required)
            if value is not None and (value is not False or f.required):
                out[f.name] = value
        return out
    return body


def kind_actions() -> dict[str, KindAction]:
    """An action for every staff kind the conductor registers that `ACTIONS` has no form
    for, named by its kind ("conductor.note" -> "note"), titled by its body's first line."""
    have = {a.kind for a in ACTIONS.values()} | {REMOVE_STAFF.kind, CREATE_PARTY.kind}
    out = {}
    for kind in sorted(registry.STAFF_KINDS - have):
        cls, name = ev.BODIES[kind], kind.partition(".")[2]
        fields = _fields(cls)
        if fields is None or name in ACTIONS:
            continue
        title = (cls.__doc__ or "").strip().split("\n")[0].rstrip(".") or name.replace("-", " ").capitalize()
        out[name] = KindAction(kind, _kind_body(fields), title, fields=fields)
    return out


def find(name: str) -> Action | None:
    """The action a console form names (its URL's `/act/<name>`), if there is one."""
    return ACTIONS.get(name) or kind_actions().get(name)


def action_id(form) -> str:
    """The form's one-time id (rendered with it): part of every proposal id it makes."""
    value = form.get("action_id", "")
    if not _ACTION_ID.match(value):
        raise BadForm("action_id", "reload the page and try again.")
    return value


def proposal(action: Action, form, login: str) -> Proposal:
    """The Proposal a console form stands for; `BadForm` if the form is wrong."""
    return Proposal(f"staff.{login}.{action_id(form)}", f"staff:{login}", action.kind, action.body(form))


def each(action: Action, bodies: list[dict], form, login: str) -> list[Proposal]:
    """A proposal of `action` a body, all under the form's one-time id (`...<id>.0`, `.1`...):
    a list of guests added, or taken off, at once."""
    batch = action_id(form)
    return [Proposal(f"staff.{login}.{batch}.{i}", f"staff:{login}", action.kind, body)
            for i, body in enumerate(bodies)]


def party_body(form) -> dict:
    """The party-created body from the console's form (blank options: the book's defaults)."""
    body = {"form": text(form, "form", limit=20), "tables": number(form, "tables", low=1, high=MOST_TABLES)}
    for key in ("games_per_session", "sessions", "prizes", "time_limit"):
        v = number(form, key, required=False, low=0, high=999)
        if v is not None:
            body[key] = v
    for key in ("variant",):
        v = text(form, key, required=False, limit=40)
        if v:
            body[key] = v
    for key in ("booby", "confirm"):
        if form.get(key):
            body[key] = True
    if form.get("in_play"):
        body["in_play"] = "each"
    # the train games' club options (hub/conductor/forms/trains.py): blank, the form's own
    for key, allowed in (("movement", ("three-lowest", "winner")), ("bell", ("finish", "stop"))):
        if form.get(key):
            body[key] = choice(form, key, allowed)
    for key in ("session_limit", "hand"):
        v = number(form, key, required=False, low=1, high=MOST_TABLES)
        if v is not None:
            body[key] = v
    if form.get("late_score"):
        body["late_score"] = "table-highest"
    if form.get("blanks"):
        body["blanks"] = choice(form, "blanks", tuple(BLANKS))
    return body


# its own form on the console's first page (web/console.py, create_party)
CREATE_PARTY = Action(ev.PARTY_CREATED, party_body, "Create the party")
