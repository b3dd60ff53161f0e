"""The hub's batch policy, as one pure step (docs/protocol.md, "One id, one verdict").

    outcome = admit_batch(state, inputs, known, now, settling=False, boards=None)
    state, events, replies, refusals = outcome      # and outcome.notes, for the log

A batch of inputs — tables' raw payloads (`TableInput`) and the console's proposals
(`LocalInput`) — judged in order against the state folded so far: the envelope read,
a resend given the verdict its id was given before (journaled, refused for good, or
earlier in this batch), an id reused with other content refused `ID REUSED`, a table's
input held (no answer) where an earlier entry of its table is on its way or, just
after a takeover, while the boards send back what the replica lacked (`settling`),
a final refusal recorded, then the hub's own decisions due by the clock (`ticks`).

No MQTT, no SQLite, no clock: the caller passes `now`, and `known` answers what was
decided before this batch (the journal, or a `Ledger` in memory); the caller journals
`events` and `refusals` in one transaction and then hands `replies` to the tables and
the console. The hub (hub/service.py), the tests' party, the benches and the drills
take their inputs through this step.
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Protocol

from . import conductor, protocol
from .event import Event, Proposal, Verdict

HUB_ERROR = "HUB ERROR"  # a refusal that is the hub's fault: never final


@dataclass(frozen=True)
class TableInput:
    """A table's raw event payload, as the broker delivered it."""
    table: int
    payload: bytes


@dataclass(frozen=True)
class LocalInput:
    """A proposal of the hub's own side (the console, the demo): answered at once, held or
    not (it does not resend)."""
    proposal: Proposal


class Known(Protocol):
    """What was decided before this batch: the journal (hub/journal.py) or a `Ledger`."""

    def verdicts(self, event_ids: Iterable[str]) -> tuple[dict[str, tuple[int, str]], dict[str, tuple[str, str]]]:
        """{id: (seq, digest)} of those journaled, {id: (digest, why)} of those refused for good."""

    def find(self, event_id: str) -> tuple[int, str] | None:
        """(seq, digest) of the journaled event with this id, if any."""


# (input, event id, verdict, seq of the event journaled, if any): for the input's sender
Reply = tuple[object, str, Verdict, "int | None"]
# (id, digest, why, at): a final refusal, recorded with the batch's events
Refused = tuple[str, str, str, float]


class Outcome(NamedTuple):
    state: object                  # the party after the batch (conductor.PartyState)
    events: list[Event]            # to journal, numbered and timed, in order
    replies: list[Reply]
    refusals: list[Refused]
    # (level, message, args, exception): what the hub's log says of the batch
    notes: list[tuple[int, str, tuple, BaseException | None]]


def admit_batch(state, inputs: Iterable[TableInput | LocalInput], known: Known, now: float, *,
                settling: bool = False, boards: dict[int, str] | None = None, ticks: bool = True) -> Outcome:
    """One batch of inputs judged, in order, and the decisions due at `now`.

    `settling`: the minute after a takeover, when a table's refusal is held as well.
    `boards`: with provisioning, the one board allowed to speak for each table.
    `ticks`: the hub's own decisions due by the clock (the tests' party rings them
    only when a test says the time has come)."""
    seq = state.seq
    appended: list[Event] = []
    in_batch: dict[str, tuple[int, str]] = {}
    replies: list[Reply] = []
    notes: list = []
    parsed = [(item, _parse(item, notes)) for item in inputs]
    # One look-up for the whole batch: one per input let every other thread of the
    # hub take the GIL between them (a fifth of the writer's time in a rush).
    journaled, refused = known.verdicts(p.id if p is not None else r[1] for _, (p, r) in parsed
                                        if p is not None or r is not None)
    refusing: list[Refused] = []
    for item, (proposal, refusal) in parsed:
        if refusal:
            # refused at the envelope: recorded like every other final refusal, as the
            # digest of the bytes sent (nothing else of them can be read), where the
            # input is from a table of this party and its board
            event_id, digest = refusal[1], _bytes_digest(item.payload)
            journaled_before = in_batch.get(event_id) or journaled.get(event_id)
            refused_before = refused.get(event_id)
            if journaled_before or refused_before:
                replies.append((item, event_id, *_given(f"table:{item.table}", event_id, digest, journaled_before,
                                                        refused_before, notes)))
                continue
            replies.append(refusal)
            if _speaks_for(item.table, protocol.board_of(event_id), state, boards):
                refusing.append((event_id, digest, refusal[2].why, now))
                refused[event_id] = (digest, refusal[2].why)
            continue
        if proposal is None or not _at_party(item, proposal, state, boards, notes):
            continue
        journaled_before = in_batch.get(proposal.id) or journaled.get(proposal.id)
        refused_before = refused.get(proposal.id)
        if journaled_before or refused_before:   # a resend, or a reused id
            replies.append((item, proposal.id, *_given(proposal.source, proposal.id, proposal.digest,
                                                       journaled_before, refused_before, notes)))
            continue
        verdict, state_after, events = _judge(state, proposal, seq, now, in_batch, known, notes)
        if verdict.ok:
            state, seq = state_after, seq + len(events)
            appended.extend(events)
            for e in events:
                in_batch[e.id] = (e.seq, e.digest)
            replies.append((item, proposal.id, verdict, events[0].seq if events else None))
        elif (verdict.held or settling) and not isinstance(item, LocalInput):
            # an earlier entry of this table is on its way: no verdict the board would
            # keep; it sends this one again and it is judged again then. Just after a
            # takeover, the entry it rests on may be on its way from another table
            # (a bell-ack before the result that rang the bell): held too.
            notes.append((logging.INFO, "%s held %s: %s", (proposal.source, proposal.id, verdict.why), None))
        else:
            notes.append((logging.INFO, "%s refused %s: %s", (proposal.source, proposal.id, verdict.why), None))
            if not verdict.held and verdict.why != HUB_ERROR:
                refusing.append((proposal.id, proposal.digest, verdict.why, now))
                refused[proposal.id] = (proposal.digest, verdict.why)
            replies.append((item, proposal.id, verdict, None))
    if ticks:
        for decision in conductor.tick(state, now):  # the hub's own decisions, due by the clock
            if decision.id not in in_batch and not known.find(decision.id):
                seq += 1
                event = decision.event(seq, now)
                state = conductor.apply(state, event)
                appended.append(event)
                in_batch[event.id] = (seq, event.digest)
    return Outcome(state, appended, replies, refusing, notes)


class Ledger:
    """What was decided, in memory: `Known` for a party without a journal (the tests'
    party, the benches, the drills). `record` takes each outcome as the journal would."""

    def __init__(self, events: Iterable[Event] = ()):
        self.journaled: dict[str, tuple[int, str]] = {e.id: (e.seq, e.digest) for e in events}
        self.refused: dict[str, tuple[str, str]] = {}

    def verdicts(self, event_ids):
        ids = list(event_ids)
        return ({i: self.journaled[i] for i in ids if i in self.journaled},
                {i: self.refused[i] for i in ids if i in self.refused})

    def find(self, event_id):
        return self.journaled.get(event_id)

    def record(self, outcome: Outcome) -> None:
        self.journaled.update((e.id, (e.seq, e.digest)) for e in outcome.events)
        self.refused.update((id_, (digest, why)) for id_, digest, why, _ in outcome.refusals)


def _parse(item, notes: list) -> tuple[Proposal | None, Reply | None]:
    """The proposal an input stands for, or None and the reply refusing its envelope
    (None where it names no id)."""
    if isinstance(item, LocalInput):
        return item.proposal, None
    try:
        return protocol.parse_event(item.table, item.payload), None
    except protocol.Refusal as r:
        notes.append((logging.WARNING, "table %d: refused: %s", (item.table, r), None))
        return None, ((item, r.event_id, Verdict.refuse(r.why), None) if r.event_id else None)


def _at_party(item, proposal: Proposal, state, boards: dict[int, str] | None, notes: list) -> bool:
    """Whether a table's event comes from a table of this party and its board;
    unanswered if not (there is no board of ours to show a refusal on)."""
    if isinstance(item, LocalInput):
        return True
    if item.table not in conductor.tables(state):
        notes.append((logging.WARNING, "table %d is not at this party: refused %s", (item.table, proposal.id), None))
        return False
    if boards is not None and not _provisioned(proposal.body["board"], boards.get(item.table)):
        # A spoofer (the broker's ACL should have stopped it): no ack, nothing journaled.
        notes.append((logging.WARNING, "table %d: event %s from board %r, not the table's provisioned board: refused",
                      (item.table, proposal.id, proposal.body["board"]), None))
        return False
    return True


def _speaks_for(table: int, board: str | None, state, boards: dict[int, str] | None) -> bool:
    """Whether an input refused at its envelope is from a table of this party and, with
    provisioning, that table's board (the board its id names): only then is it recorded."""
    return (board is not None and table in conductor.tables(state)
            and (boards is None or _provisioned(board, boards.get(table))))


def _bytes_digest(payload: bytes) -> str:
    """An input's digest where its envelope could not be read: that of its bytes. A
    proposal's digest (hub/event.py) is of its source, kind and body: the two never meet,
    so the same id with any well-formed content is `ID REUSED`."""
    return hashlib.sha256(payload).hexdigest()


def _provisioned(board: str, allowed: str | None) -> bool:
    """A table's provisioned board, or a real board deployed with its config: that
    board id, a dash and the board's own chip id (firmware/drivers/board.py)."""
    return allowed is not None and (board == allowed or board.startswith(allowed + "-"))


def _judge(state, proposal: Proposal, seq: int, now: float, in_batch: dict, known: Known, notes: list):
    """The verdict, and if admitted the state after it and its numbered events."""
    try:
        verdict, after, events = conductor.admit(state, proposal, seq, now)
        for e in events[1:]:
            # the proposal's own id was looked up before judging; the decisions' ids are new
            if e.id in in_batch or known.find(e.id):
                raise ValueError(f"the conductor made an event id that exists: {e.id}")
        return verdict, after, events
    except Exception as exc:
        notes.append((logging.ERROR, "judging %s %s failed", (proposal.kind, proposal.id), exc))
        return Verdict.refuse(HUB_ERROR), state, ()


def _given(source: str, event_id: str, digest: str, journaled: tuple[int, str] | None,
           refused: tuple[str, str] | None, notes: list) -> tuple[Verdict, int | None]:
    """The verdict this id was given before (journaled: (seq, digest); refused for good:
    (digest, why)), for a resend of it with this digest. One id, one verdict."""
    if (journaled[1] if journaled else refused[0]) != digest:
        notes.append((logging.WARNING, "%s reused id %s with other content", (source, event_id), None))
        return Verdict.refuse("ID REUSED"), None
    if journaled:   # a resend: acknowledge again, record once
        return Verdict.admit(msg="SAVED"), journaled[0]
    return Verdict.refuse(refused[1]), None
