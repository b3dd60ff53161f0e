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


def canonical(body: Any) -> str:
    """The one JSON spelling of a body: what the journal stores and digests."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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

    @cached_property  # a body is never changed once made: asked for up to three times per input
    def digest(self) -> str:
        return digest(self.source, self.kind, self.body)


@dataclass(frozen=True)
class Event:
    seq: int
    id: str
    at: float     # hub clock, Unix seconds
    source: str
    kind: str
    body: dict = field(hash=False)

    @cached_property  # a body is never changed once made: spelled once for the digest and the journal
    def body_json(self) -> str:
        return canonical(self.body)

    @cached_property
    def digest(self) -> str:
        return digest(self.source, self.kind, self.body, self.body_json)

    def to_json(self) -> dict:
        return {"seq": self.seq, "id": self.id, "at": self.at, "source": self.source,
                "kind": self.kind, "body": self.body}


@dataclass(frozen=True)
class Verdict:
    """The conductor's answer to a proposal.

    `events` are what to journal, in order, in one transaction: normally the
    proposal itself, sometimes followed by decisions it triggers (the bell rung
    when a table finishes its last game). `msg`/`why` are at most 16 characters,
    for a table's display.
    """
    ok: bool
    events: tuple[Proposal, ...] = ()
    msg: str = ""
    why: str = ""
    # The state after `events`, where the judge folded them to see their consequences:
    # the hub takes it instead of folding (and scoring) the same events again.
    after: Any = field(default=None, compare=False, repr=False)

    @staticmethod
    def admit(*events: Proposal, msg: str = "SAVED", after: Any = None) -> "Verdict":
        return Verdict(True, tuple(events), msg=msg, after=after)

    @staticmethod
    def refuse(why: str) -> "Verdict":
        assert len(why) <= 16, why
        return Verdict(False, why=why)
