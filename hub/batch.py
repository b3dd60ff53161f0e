"""The hub's batch policy, as one pure step (docs/protocol.md, "One id, one verdict").

    outcome = admit_batch(state, inputs, known, now, rebuild=None, boards=None)
    state, events, replies, refusals = outcome      # and outcome.notes, for the log

A batch of inputs — tables' raw payloads (`TableInput`) and the console's proposals
(`LocalInput`) — judged in order against the state folded so far: the envelope read,
a resend given the verdict its id was given before (journaled, refused for good, or
earlier in this batch), an id reused with other content refused `ID REUSED`, a table's
input held (no answer) where an earlier entry of its table is on its way, a final
refusal recorded, then the hub's own decisions due by the clock (`ticks`). Just after
a takeover (`rebuild`, hub/rebuild.py) the lost hub's acknowledged entries come first,
in its seq order, and nothing new is admitted until they are in.

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
from .rebuild import REBUILDING, GapInput, Heard, Rebuild

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


def admit_batch(state, inputs: Iterable[TableInput | LocalInput | Heard], known: Known, now: float, *,
                rebuild: Rebuild | None = None, boards: dict[int, str] | None = None,
                ticks: bool = True) -> Outcome:
    """One batch of inputs judged, in order, and the decisions due at `now`.

    `rebuild`: after a takeover, what is left of the lost hub's events to re-admit in its
    order (hub/rebuild.py); changed in place, and ended here once complete.
    `boards`: with provisioning, the one board allowed to speak for each table.
    `ticks`: the hub's own decisions due by the clock (the tests' party rings them
    only when a test says the time has come)."""
    seq = state.seq
    appended: list[Event] = []
    in_batch: dict[str, tuple[int, str]] = {}
    replies: list[Reply] = []
    notes: list = []
    inputs = list(inputs)
    rebuilding = rebuild is not None and not rebuild.done
    if rebuilding:
        for item in inputs:
            if type(item) is Heard:
                rebuild.heard(item.table)
    # The proposal each input stands for, or None and the reply refusing its envelope (None
    # where it names no id): read here, not in a call an input.
    parsed: list[tuple[object, tuple[Proposal | None, Reply | None]]] = []
    for item in inputs:
        if type(item) is Heard:
            continue
        if isinstance(item, LocalInput):
            parsed.append((item, (item.proposal, None)))
            continue
        try:
            parsed.append((item, (protocol.parse_event(item.table, item.payload), None)))
        except protocol.Refusal as r:
            notes.append((logging.WARNING, "table %d: refused: %s", (item.table, r), None))
            parsed.append((item, (None, (item, r.event_id, Verdict.refuse(r.why), None) if r.event_id else None)))
    # One look-up for the whole batch: one per input let every other thread of the
    # hub take the GIL between them (a fifth of the writer's time in a rush).
    journaled, refused = known.verdicts([p.id if p is not None else r[1] for _, (p, r) in parsed
                                         if p is not None or r is not None])
    refusing: list[Refused] = []
    # the party's tables, asked again only when an input changed the set-up (a table added
    # or removed): not once per input (conductor.tables and its cache: two calls an input)
    setup, tables = state.setup, conductor.tables(state)
    for item, (proposal, refusal) in parsed:
        if state.setup is not setup:
            setup, tables = state.setup, conductor.tables(state)
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
            if _speaks_for(item.table, protocol.board_of(event_id), tables, boards):
                refusing.append((event_id, digest, refusal[2].why, now))
                refused[event_id] = (digest, refusal[2].why)
            continue
        if proposal is None or not _at_party(item, proposal, tables, boards, notes):
            continue
        journaled_before = in_batch.get(proposal.id) or journaled.get(proposal.id)
        refused_before = refused.get(proposal.id)
        if journaled_before or refused_before:   # a resend, or a reused id
            replies.append((item, proposal.id, *_given(proposal.source, proposal.id, proposal.digest,
                                                       journaled_before, refused_before, notes)))
            continue
        if rebuilding:
            _rebuilding(rebuild, item, proposal, seq + rebuild.offset, replies, notes)
            continue
        # judged against the state so far: admitted, held or refused (one frame less per
        # input than a step of its own with a dozen arguments: docs/performance.md)
        verdict, state_after, events = _judge(state, proposal, seq, now, in_batch, known, notes)
        if verdict.ok:
            state, seq = state_after, seq + len(events)
            appended.extend(events)
            for e in events:
                in_batch[e.id] = (e.seq, e.digest)
            replies.append((item, proposal.id, verdict, events[0].seq if events else None))
        elif verdict.held and not isinstance(item, (LocalInput, GapInput)):
            # an earlier entry of this table is on its way: no verdict the board would
            # keep; it sends this one again and it is judged again then
            notes.append((logging.INFO, "%s held %s: %s", (proposal.source, proposal.id, verdict.why), None))
        else:
            notes.append((logging.INFO, "%s refused %s: %s", (proposal.source, proposal.id, verdict.why), None))
            if not verdict.held and verdict.why != HUB_ERROR:
                refusing.append((proposal.id, proposal.digest, verdict.why, now))
                refused[proposal.id] = (proposal.digest, verdict.why)
            replies.append((item, proposal.id, verdict, None))
    if rebuilding:
        state, seq = _rebuilt(rebuild, state, seq, now, in_batch, known, appended, replies, refusing,
                              refused, notes)
    if ticks and (rebuild is None or rebuild.done):
        for decision in conductor.tick(state, now):  # the hub's own decisions, due by the clock
            if decision.id not in in_batch and not known.find(decision.id):
                seq += 1
                event = decision.event(seq, now)
                state = conductor.apply(state, event)
                appended.append(event)
                in_batch[event.id] = (seq, event.digest)
    return Outcome(state, appended, replies, refusing, notes)


def _rebuilding(rebuild: Rebuild, item, proposal: Proposal, lost_so_far: int, replies: list, notes: list) -> None:
    """An input during a takeover's rebuild: a kept entry waits for its seq; anything new
    waits for the rebuild's end (a table's: no answer, its board sends it again; the
    console's: told to try again, nothing recorded)."""
    if isinstance(item, LocalInput):
        replies.append((item, proposal.id, Verdict.refuse(REBUILDING), None))
        return
    lost_seq = _kept_seq(item.payload)
    if lost_seq is not None and lost_seq > lost_so_far:
        rebuild.hold(lost_seq, item, proposal)
    else:
        rebuild.heard(item.table)   # a new entry: its board sent back what it kept before it
        notes.append((logging.INFO, "%s held %s until the rebuild is over", (proposal.source, proposal.id), None))


def _rebuilt(rebuild: Rebuild, state, seq: int, now: float, in_batch: dict, known: Known, appended: list,
             replies: list, refusing: list, refused: dict, notes: list):
    """The held inputs whose turn has come, in the lost hub's seq order; then, once the
    rebuild is complete, the seqs nobody sent back said, and what is left judged in its order."""
    while True:
        while seq + 1 + rebuild.offset in rebuild.held:
            lost = seq + 1 + rebuild.offset
            item, proposal = rebuild.held.pop(lost)
            # a staff action at the time it was done: its draws seeded as they were
            at = item.at if isinstance(item, GapInput) else now
            verdict, state_after, events = _judge(state, proposal, seq, at, in_batch, known, notes)
            if not verdict.ok:
                # the lost hub acknowledged it here: never a refusal now (one id, one verdict)
                notes.append((logging.ERROR, "rebuild: %s %s, journaled at %d by the lost hub, is %s here",
                              (proposal.kind, proposal.id, lost, verdict.why), None))
                rebuild.holes.append((lost, lost))
                rebuild.offset += 1
                continue
            state, seq = state_after, seq + len(events)
            appended.extend(events)
            for e in events:
                in_batch[e.id] = (e.seq, e.digest)
            replies.append((item, proposal.id, verdict, events[0].seq))
        if not rebuild.complete(now):
            return state, seq
        if not rebuild.held:
            if rebuild.staff_after_hole:
                rebuild.holes.append((seq + 1 + rebuild.offset, rebuild.staff_after_hole - 1))
                rebuild.staff_after_hole = 0
            rebuild.done = True
            notes.append((logging.WARNING, "rebuild over at seq %d; the lost hub's seqs nobody sent back: %s",
                          (seq, rebuild.holes or "none"), None))
            return state, seq
        # time is up and a seq is missing: said; a table's entry after it is taken in its
        # order, a staff action left to the conductor (redo or discard: hub/gap.py)
        for lost in [s for s, (item, _) in rebuild.held.items() if isinstance(item, GapInput)]:
            del rebuild.held[lost]
            rebuild.staff_after_hole = min(rebuild.staff_after_hole or lost, lost)
        if not rebuild.held:
            continue   # said below, up to the first staff action left to the conductor
        rebuild.staff_after_hole = 0
        nearest = min(rebuild.held)
        rebuild.holes.append((seq + 1 + rebuild.offset, nearest - 1))
        notes.append((logging.WARNING, "rebuild: the lost hub's seqs %d-%d were sent back by nobody",
                      (seq + 1 + rebuild.offset, nearest - 1), None))
        rebuild.offset = nearest - seq - 1


def _kept_seq(payload: bytes) -> int | None:
    """The seq a lost hub's ack gave this entry, where its board sends it back after a takeover."""
    try:
        seq = protocol.decode_object(payload).get("seq")
    except ValueError:
        return None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


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


def _at_party(item, proposal: Proposal, tables: frozenset[int], boards: dict[int, str] | None, notes: list) -> bool:
    """Whether a table's event comes from a table of this party and its board;
    unanswered if not (there is no board of ours to show a refusal on)."""
    if isinstance(item, LocalInput):
        return True
    if item.table not in tables:
        notes.append((logging.WARNING, "table %d is not at this party: refused %s", (item.table, proposal.id), None))
        return False
    if boards is not None and not _provisioned(proposal.body["board"], boards.get(item.table)):
        # A spoofer (the broker's ACL should have stopped it): no ack, nothing journaled.
        notes.append((logging.WARNING, "table %d: event %s from board %r, not the table's provisioned board: refused",
                      (item.table, proposal.id, proposal.body["board"]), None))
        return False
    return True


def _speaks_for(table: int, board: str | None, tables: frozenset[int], boards: dict[int, str] | None) -> bool:
    """Whether an input refused at its envelope is from a table of this party and, with
    provisioning, that table's board (the board its id names): only then is it recorded."""
    return (board is not None and table in tables
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
