"""The table protocol, version 1 (docs/protocol.md): topics and the envelope.

Only shape is checked here — is this a well-formed event from table N? Whether
it can be true at this moment of the party is the conductor's judgement. The
board's side declares the same values in firmware/protocol.py (and the serial
bridge takes them from here); tests/hub/test_protocol_agrees.py checks they agree.
"""
from __future__ import annotations

import json
import re

import orjson

from .event import Proposal
from .refusal import Refusal

VERSION = 1
MAX_PAYLOAD = 2048

HUB_STATUS = "party/hub/status"
UNREPLICATED = "party/hub/unreplicated"   # the staff's actions a replica lacks (hub/gap.py)
ALL_CMD = "party/all/cmd"
# Serial line only, bridge -> board: "who are you?"; the board answers with its status online.
SERIAL_WHO = "party/serial/who"
# What the hub subscribes to.
TABLE_INPUTS = ("party/table/+/event", "party/table/+/status", "party/table/+/heartbeat")
BOARD_QOS = {"event": 1, "status": 1, "heartbeat": 0}  # what a board publishes, at which QoS
ID_MAX = 24   # a board id, a bell id: 1 to 24 of a-z, 0-9 and '-'

_TABLE_TOPIC = re.compile(r"^party/table/([1-9][0-9]{0,2})/(event|status|heartbeat)$")
_EVENT_ID = re.compile(r"^([a-z0-9-]{1,%d})\.([0-9]{1,9})\.([0-9]{1,9})$" % ID_MAX)
_BELL_ID = re.compile(r"^[a-z0-9-]{1,%d}$" % ID_MAX)
SEATS = ("A", "B", "C", "D")
TABLE_KINDS = ("result", "confirm", "seat-check", "bell", "bell-ack", "call", "no-game", "count",
               "count-undone")
_JOURNALED_AS = {kind: f"table.{kind}" for kind in TABLE_KINDS}   # the kind of the proposal each makes


def table_topic(table: int, leaf: str) -> str:
    """party/table/<table>/<leaf>, leaf one of event, ack, screen, status, heartbeat."""
    return f"party/table/{table}/{leaf}"


class _TopicOf(dict):
    """table -> its topic of one leaf, spelled the first time it is asked for: the hub
    answers every result on two (its ack, its screen)."""

    def __init__(self, leaf: str):
        super().__init__()
        self.leaf = leaf

    def __missing__(self, table: int) -> str:
        topic = self[table] = table_topic(table, self.leaf)
        return topic


ACK_TOPIC, SCREEN_TOPIC = _TopicOf("ack"), _TopicOf("screen")


def split_table_topic(topic: str) -> tuple[int, str] | None:
    m = _TABLE_TOPIC.match(topic)
    return (int(m.group(1)), m.group(2)) if m else None


def board_of(event_id: str) -> str | None:
    """The board an event id names (`board.boot.n`), or None if it is not one."""
    m = _EVENT_ID.match(event_id)
    return m.group(1) if m else None


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


_INT_ONLY = frozenset({int})


def _check_body(kind: str, body: dict) -> str | None:
    """What is wrong with this kind's body, or None."""
    if kind in ("result", "count"):
        values = body.get("values")
        if not _is_int(body.get("game")) or not isinstance(values, dict):
            return f"{kind} needs game (int) and values (object)"
        # a JSON object's keys are strings (the field names); an integer is read as int,
        # true and false as bool: every value's type int, looked at in C
        if not values or not _INT_ONLY.issuperset(map(type, values.values())):
            return f"{kind} values must map field names to integers"
    elif kind == "count-undone":
        if not _is_int(body.get("game")) or not isinstance(body.get("count"), str):
            return "count-undone needs game (int) and count (the count's event id)"
    elif kind == "confirm":
        if not isinstance(body.get("entry"), str) or body.get("seat") not in SEATS:
            return "confirm needs entry (event id) and seat (A-D)"
    elif kind == "seat-check":
        cards = body.get("cards")
        if not isinstance(cards, dict) or not all(k in SEATS and _is_int(v) for k, v in cards.items()):
            return "seat-check needs cards {seat: card number}"
    elif kind == "bell-ack":
        if not isinstance(body.get("bell"), str) or not _BELL_ID.match(body["bell"]):
            return "bell-ack needs a bell id"
    elif kind in ("bell", "call", "no-game"):
        if body:
            return f"{kind} takes an empty body"
    return None


def parse_event(table: int, payload: bytes) -> Proposal:
    """The proposal a table's event stands for, or `Refusal` with why."""
    if len(payload) > MAX_PAYLOAD:
        raise Refusal("TOO LONG", f"{len(payload)} bytes > {MAX_PAYLOAD}")
    try:
        msg = decode_object(payload)
    except ValueError as exc:
        raise Refusal("BAD MESSAGE", str(exc))
    event_id = msg.get("id")
    if not isinstance(event_id, str) or not event_id.isascii():
        event_id = None   # no reply can carry it (a lone surrogate is no UTF-8): nothing to answer to
    if msg.get("v") != VERSION:
        raise Refusal("UPDATE FIRMWARE", f"protocol version {msg.get('v')!r}, hub speaks {VERSION}", event_id)
    m = _EVENT_ID.match(event_id or "")
    if not m:
        raise Refusal("BAD MESSAGE", f"bad event id {msg.get('id')!r}")
    if msg.get("table") != table:
        raise Refusal("WRONG TABLE", f"table {msg.get('table')!r} on the topic of table {table}", event_id)
    kind, body = msg.get("kind"), msg.get("body")
    journaled_as = _JOURNALED_AS.get(kind) if isinstance(kind, str) else None
    if journaled_as is None:
        raise Refusal("UNKNOWN KIND", f"kind {kind!r}", event_id)
    if not isinstance(body, dict):
        raise Refusal("BAD MESSAGE", "body must be an object", event_id)
    problem = _check_body(kind, body)
    if problem:
        raise Refusal("BAD MESSAGE", problem, event_id)
    # The body just read is this proposal's alone: the sender's table and board added in place
    # (where the body named them too, at their places, as {**body, ...} would put them).
    body["table"], body["board"] = table, m.group(1)
    return Proposal(event_id, f"table:{table}", journaled_as, body)


def ack(event_id: str, *, seq: int | None = None, msg: str = "", why: str = "", seal: str | None = None) -> bytes:
    """`encode`'s spelling; orjson's at once, as an ack holds nothing past its range. `seal`:
    the journal's seal of the row at `seq` (hub/seal.py), the chain's head as it was committed."""
    if why:
        return orjson.dumps({"v": VERSION, "id": event_id, "ok": False, "why": why})
    return orjson.dumps({"v": VERSION, "id": event_id, "ok": True, "seq": seq, "msg": msg, "seal": seal})


# 19 digits or more: an integer orjson may read past 64 bits, as a float where json reads an int.
# Looked for with every digit read as 0: one search in C, a third of [0-9]{19}'s time.
_DIGITS = bytes.maketrans(b"123456789", b"000000000")
_LONG_NUMBER = b"0" * 19


def decode_object(payload: bytes) -> dict:
    """A payload's JSON object, or ValueError saying what it is instead. Read as `json`
    reads it: by orjson (a fifth of the time, every event a table sends) where the two read
    the same — orjson refuses what json reads otherwise (NaN, a lone surrogate, a byte-order
    mark, other encodings), except an integer past 64 bits, which it reads as a float and
    which takes 19 digits or more — and by json wherever orjson refuses, so a refusal's
    text is json's."""
    if type(payload) is bytes and _LONG_NUMBER not in payload.translate(_DIGITS):
        try:
            msg = orjson.loads(payload)
        except orjson.JSONDecodeError:
            pass
        else:
            if not isinstance(msg, dict):
                raise ValueError("not a JSON object")
            return msg
    try:
        msg = json.loads(payload)
    except ValueError as exc:  # UnicodeDecodeError is a ValueError too
        raise ValueError(f"not JSON: {exc}") from None
    except RecursionError:  # 2048 bytes hold ~1000 nested brackets: past json's depth limit
        raise ValueError("not JSON: nested too deeply") from None
    if not isinstance(msg, dict):
        raise ValueError("not a JSON object")
    return msg


def screen_message(seq: int, table: int, screen: dict, forms: dict) -> bytes:
    """A table's retained screen as the boards read it: `encode` of {"v", "seq", "table",
    **screen}. Its form, 700 of its 900 bytes, is spelled once per `forms` (the publication
    round's: form id -> (form, JSON)): hub/conductor/screens.py gives the tables seated
    alike at one game the same form, and a room keys the same game at many tables."""
    message = {"v": VERSION, "seq": seq, "table": table, **screen}
    form = screen["form"]
    if form is None:
        return encode(message)
    known = forms.get(id(form))
    if known is None or known[0] is not form:   # the form itself is kept: its id is not reused
        known = forms[id(form)] = (form, orjson.Fragment(encode(form)))
    message["form"] = known[1]
    return encode(message)


def encode(obj: dict) -> bytes:
    """A message as the boards read it: compact JSON in UTF-8. orjson, not the standard
    library: a board's screen (800 bytes, its form's fields) is spelled for every result
    the table keys, 20 us with `json`, 2 with orjson. (The journal's canonical spelling,
    which digests depend on, stays `json`'s: hub/event.py.)"""
    try:
        return orjson.dumps(obj)
    except TypeError:   # past orjson's range (an int over 64 bits, in a staff action's body)
        return json.dumps(obj, separators=(",", ":")).encode()
