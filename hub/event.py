"""The values that pass between the hub's edges and the conductor.

A `Proposal` is an input not yet journaled (a table's event, a conductor's
action, a decision of the hub). The conductor judges it against the state folded
so far and answers with a `Verdict`. Admitted proposals become `Event`s: the
journal gives each its place (`seq`) and time (`at`).

Each holds its body twice over, made once each: `body`, the JSON the journal stores
and digests (as sent), and `what`, that body read as its kind's value the first time
it is asked for — by the judge for a proposal, by the fold or the audit for a row read
back — and handed on from a proposal to its event, and from a decision made as a value,
so never read twice. How a kind's body is read is the kind's own: each registers its
reader in `READERS` as it is declared (hub/conductor/events.py), so this module, below
the conductor, never imports it.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable

import orjson

from .refusal import Refusal, shown
from .speed import derived, filling, journaling, made


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)  # one, not one per call
# orjson spells a body as `_CANONICAL` does — strings, escapes, key order, integers
# (tests/hub/test_canonical.py) — in a tenth of the time, except: a float (its exponent:
# 1e16 against 1e+16), NaN and infinities (null against NaN), an integer past 64 bits, a
# key that is no string, a lone surrogate, a subclass of str, int, dict or list. The last
# four orjson refuses (the passthrough options); the first two show in its spelling as a
# digit followed by . or e, or as null. (A plain Enum or a UUID orjson spells where json
# refuses: no body holds one.)
_EXACT = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
          | orjson.OPT_PASSTHROUGH_DATETIME)
# A digit followed by . or e, looked for with every digit read as 0 and e, E as .: the
# pattern [0-9][.eE] as one search for "0." in C, in half a regular expression's time
# (twice per result keyed).
_DIGITS_AND_MARKS = bytes.maketrans(b"123456789eE", b"000000000..")


def canonical(body: Any) -> str:
    """The one JSON spelling of a body: what the journal stores and digests (json's, with
    sorted keys, no spaces, UTF-8 as it is). Two spellings of a body per result keyed (the
    proposal's for its digest, the event's with its outcome): orjson's where it is the same."""
    try:
        text = orjson.dumps(body, option=_EXACT)
    except TypeError:
        return _CANONICAL.encode(body)
    if b"null" in text or b"0." in text.translate(_DIGITS_AND_MARKS):
        return _CANONICAL.encode(body)
    return text.decode()


def digest(source: str, kind: str, body: dict, body_json: str | None = None) -> str:
    """Tells a resend (same id, same digest) from a reused id (same id, other digest).
    `body_json`: the body's `canonical` spelling, where the caller has it already."""
    text = canonical(body) if body_json is None else body_json
    return hashlib.sha256("\n".join((source, kind, text)).encode()).hexdigest()


# kind -> the function that reads a body of that kind (JSON, as sent or as journaled) as
# its value, or refuses it with why: filled in by the kinds as they are declared
READERS: dict[str, Callable[[Any], Any]] = {}


def read_body(kind: str, body: Any):
    """`body` as its kind's value; `Refusal` if it is not one, or the kind is unknown."""
    reader = READERS.get(kind)
    if reader is None:
        raise Refusal("UNKNOWN KIND", f"kind {kind!r}")
    return reader(body)


def _what(e: "Proposal | Event"):
    """The body read as its kind's value (`Refusal`, with why, if it is none): `read_body`
    spelled out, a call less for every input judged."""
    reader = READERS.get(e.kind)
    if reader is None:
        raise Refusal("UNKNOWN KIND", f"kind {e.kind!r}")
    return reader(e.body)


@dataclass(frozen=True)
class Proposal:
    id: str       # idempotency key: a board's event id, or one the hub/console made
    source: str   # 'table:3', 'staff:ann', 'hub'
    kind: str     # 'table.result', 'conductor.bell', …
    body: dict = field(hash=False)
    # The input as it was sent, where the judge added keys to its body (a result's
    # outcome): its digest is this one's, so a resend of the same bytes is still
    # recognised as one. Spelled and hashed only when asked (the audit never asks).
    sent: "Proposal | None" = field(default=None, compare=False, repr=False)

    # (self, id, source, kind, body, sent=None): one proposal is made for every input the
    # hub takes (hub/speed.py)
    __init__ = filling("id", "source", "kind", "body", sent=None)

    @derived  # a body is never changed once made: asked for up to three times per input
    def digest(self) -> str:
        return self.sent.digest if self.sent else digest(self.source, self.kind, self.body)

    what = derived(_what)   # -> the body as its kind's value

    @staticmethod
    def of(id: str, source: str, what: "Any") -> "Proposal":
        """A proposal made as a value (the hub's decisions): spelled once for the journal."""
        return Proposal.read_as(id, source, what.to_json(), what)

    @staticmethod
    def read_as(id: str, source: str, body: dict, what: "Any", sent: "Proposal | None" = None
                ) -> "Proposal":
        """A proposal whose body `body` is already read as `what` (made as `Event.journaled`
        makes an event: the judge makes one per result)."""
        return made(Proposal, {"id": id, "source": source, "kind": what.KIND, "body": body, "sent": sent,
                               "what": what})   # as if read

    def judged(self, **fields) -> "Proposal":
        """This input with the fields the judge fills in (docs/journal.md), same digest."""
        what, body = self.what.replaced(**fields), dict(self.body)
        for key, value in fields.items():
            body[key] = what.SPELLING[key][0](value)
        # as `read_as` makes it, without its call: one per result judged
        return made(Proposal, {"id": self.id, "source": self.source, "kind": what.KIND, "body": body,
                               "sent": self.sent or self, "what": what})

    def event(self, seq: int, at: float) -> "Event":
        if "what" in self.__dict__:   # read already: handed on (one event per event admitted)
            return made(Event, {"seq": seq, "id": self.id, "at": at, "source": self.source,
                                "kind": self.kind, "body": self.body, "sent": self.sent,
                                "what": self.__dict__["what"]})
        return made(Event, {"seq": seq, "id": self.id, "at": at, "source": self.source, "kind": self.kind,
                            "body": self.body, "sent": self.sent})


@dataclass(frozen=True)
class Event:
    seq: int
    id: str
    at: float     # hub clock, Unix seconds
    source: str
    kind: str
    body: dict = field(hash=False)
    sent: Proposal | None = field(default=None, compare=False, repr=False)  # as Proposal.sent

    what = derived(_what)   # -> the body as its kind's value

    @derived  # a body is never changed once made: spelled once for the digest and the journal
    def body_json(self) -> str:
        return canonical(self.body)

    @derived
    def digest(self) -> str:
        return self.sent.digest if self.sent else digest(self.source, self.kind, self.body, self.body_json)

    # An event is also an input admitted again from its row (the start-up's audit, hub/conductor/
    # audit.py): no check reads what the judge fills in (a result's outcome, a count undone's
    # why), and where the judge fills in what the row holds, the row is its own judged copy
    # and its own event, compared as values (no proposal made from the row, no body spelled,
    # no event made: 7 k instructions a row, 45 k a result); otherwise, a proposal made from it
    # as from any other, for the audit to compare.
    def judged(self, **fields) -> "Event | Proposal":
        what = self.what
        for name, value in fields.items():
            if getattr(what, name) != value:
                return Proposal.judged(self, **fields)
        return self

    def event(self, seq: int, at: float) -> "Event":
        if seq == self.seq and at == self.at:
            return self
        return Proposal.event(self, seq, at)

    def to_json(self) -> dict:
        return {"seq": self.seq, "id": self.id, "at": self.at, "source": self.source,
                "kind": self.kind, "body": self.body}


# Event.journaled(seq, id, at, source, kind, body): an event read back from the journal,
# its body read here, at the journal's edge (the fold and the audit read every row); a body
# its kind's reader refuses is read again, and refused with why, where the fold or the
# audit asks. Made in one frame, without `__init__`'s call per field (a frozen dataclass
# sets each through object.__setattr__): a replay makes one per row (hub/speed.py).
Event.journaled = staticmethod(journaling(Event, READERS, Refusal))


@dataclass(frozen=True)
class Verdict:
    """The conductor's answer to a proposal.

    `events` are what to journal, in order, in one transaction, numbered and
    timed: normally the proposal itself, sometimes followed by decisions it
    triggers (the bell rung when a table finishes its last game). `msg`/`why`
    are what a table's display shows (hub.refusal.shown: at most 16 characters).
    """
    ok: bool
    events: tuple[Event, ...] = ()
    msg: str = ""
    why: str = ""
    # A refusal only because an earlier input of the same table has not arrived yet (a
    # broker redelivering out of order): a table is not answered, so it sends the input
    # again, and it is admitted once the earlier one is in (docs/protocol.md).
    held: bool = False

    # (self, ok, events=(), msg="", why="", held=False), as Proposal's: a verdict is made for
    # every input judged
    __init__ = filling("ok", events=(), msg="", why="", held=False)

    @staticmethod
    def admit(*events: Event, msg: str = "SAVED") -> "Verdict":
        return Verdict(True, tuple(events), msg=shown(msg))

    @staticmethod
    def refuse(why: str, held: bool = False) -> "Verdict":
        return Verdict(False, why=shown(why), held=held)

