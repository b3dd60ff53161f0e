"""The values that pass between the hub's edges and the conductor.

A `Proposal` is an input not yet journaled (a table's event, a conductor's
action, a decision of the hub). The conductor judges it against the state folded
so far and answers with a `Verdict`. Admitted proposals become `Event`s: the
journal gives each its place (`seq`) and time (`at`).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .refusal import shown


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)  # one, not one per call


def canonical(body: Any) -> str:
    """The one JSON spelling of a body: what the journal stores and digests."""
    return _CANONICAL.encode(body)


def digest(source: str, kind: str, body: dict, body_json: str | None = None) -> str:
    """Tells a resend (same id, same digest) from a reused id (same id, other digest).
    `body_json`: the body's `canonical` spelling, where the caller has it already."""
    text = canonical(body) if body_json is None else body_json
    return hashlib.sha256("\n".join((source, kind, text)).encode()).hexdigest()


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

    @cached_property  # a body is never changed once made: asked for up to three times per input
    def digest(self) -> str:
        return self.sent.digest if self.sent else digest(self.source, self.kind, self.body)

    def judged(self, **keys) -> "Proposal":
        """This input with the keys the judge fills in (docs/journal.md), same digest."""
        return Proposal(self.id, self.source, self.kind, {**self.body, **keys}, sent=self.sent or self)

    def event(self, seq: int, at: float) -> "Event":
        return Event(seq, self.id, at, self.source, self.kind, self.body, sent=self.sent)


@dataclass(frozen=True)
class Event:
    seq: int
    id: str
    at: float     # hub clock, Unix seconds
    source: str
    kind: str
    body: dict = field(hash=False)
    sent: Proposal | None = field(default=None, compare=False, repr=False)  # as Proposal.sent

    @cached_property  # a body is never changed once made: spelled once for the digest and the journal
    def body_json(self) -> str:
        return canonical(self.body)

    @cached_property
    def digest(self) -> str:
        return self.sent.digest if self.sent else digest(self.source, self.kind, self.body, self.body_json)

    def to_json(self) -> dict:
        return {"seq": self.seq, "id": self.id, "at": self.at, "source": self.source,
                "kind": self.kind, "body": self.body}


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

    @staticmethod
    def admit(*events: Event, msg: str = "SAVED") -> "Verdict":
        return Verdict(True, tuple(events), msg=shown(msg))

    @staticmethod
    def refuse(why: str, held: bool = False) -> "Verdict":
        return Verdict(False, why=shown(why), held=held)
