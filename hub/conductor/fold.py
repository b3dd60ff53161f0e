"""The fold: state = fold(events), each event by its kind's fold step (hub/conductor/
kinds/, gathered by registry.py).

Every event here was admitted by the judge against the state folded before it,
so the steps apply it without asking again. The fold is total all the same: an
event it cannot apply (a journal written by another version, say) is kept in
`anomalies` and changes nothing else, so a party never stops on one bad row.
The judge folds what it admits with `folded`, which is not total: a step that fails
there is the judge's mistake (a bug), and raises.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager

from hub.event import Event
from hub.refusal import Refusal
from hub.speed import DRAFTED, copied, drafted, numbered

from .frozen import Draft, undo
from .registry import FOLDS
from .state import PartyState, replace


def initial() -> PartyState:
    return PartyState()


def apply(state: PartyState, event: Event) -> PartyState:
    """The state after `event`; one it cannot apply is listed in `anomalies`. One try around
    the step, which `folded` spells without it."""
    step = FOLDS.get(event.kind)
    try:
        new = state if step is None else step(state, event)
    except FAILED as e:
        return _anomaly(state, event, e)
    return numbered(state, new, event.seq)


# what a step raises on an event it cannot apply (a journal written by another version)
FAILED = (KeyError, TypeError, ValueError, AttributeError, IndexError, Refusal)


def _anomaly(state: PartyState, event: Event, e: Exception) -> PartyState:
    """`state`, numbered, with `event` listed among the events it could not apply."""
    why = e.why if isinstance(e, Refusal) else f"{type(e).__name__}: {e}"
    return replace(state, seq=event.seq, anomalies=state.anomalies + ((event.seq, event.kind, why),))


def folded(state: PartyState, event: Event) -> PartyState:
    """The state after `event`, as its kind's fold step makes it; raises where it fails. A step
    that gives back the state it was given changed nothing, or changed a pass's own state in
    place (`drafting`: the audit's, a table's row at every input): numbered in place there,
    where a copy was 7,600 instructions an input; copied elsewhere. The seq is not logged for
    `undo` (2.6 k instructions an input): the audit folds the journal's rows after an undo,
    and each numbers the state again (a state derives nothing from its seq)."""
    step = FOLDS.get(event.kind)
    new = state if step is None else step(state, event)
    if new is state and DRAFTED in state.__dict__:
        return numbered(None, state, event.seq)
    return numbered(state, new, event.seq)


@contextmanager
def collector_paused():
    """Folding a journal makes the party's values and frees almost nothing in cycles: the
    cyclic collector's passes over an ever larger heap found nothing and took a quarter of a
    100,000-event replay (docs/performance.md). Paused while it runs; what it left is
    collected at the next pass after.

    What the paused stretch made and kept (the party) is counted as the youngest generation's,
    so the collector's first allocation after would pass over all of it (0.14 s after a
    100,000-event replay, timed inside the replay): it is moved to the oldest generation
    instead, in two list splices (`gc.freeze` then `unfreeze`), as the passes it would have
    survived would have moved it. Not where something is frozen already (a hub's party,
    `collector_spares_the_party`): `unfreeze` would let go of that too."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def collector_spares_the_party() -> None:
    """For a process that keeps a party's state and folds on (the hub, after its start-up's
    replay): what is folded so far stays for the party and holds no cycles, so the cyclic
    collector is told to leave it (`gc.freeze`), and its youngest generation is collected
    after 10,000 new containers instead of 700 — the writer makes a few dozen per result,
    most freed by their counts within the batch. Without this the collector's passes over
    the party's values and the batch's took a tenth of the writer's CPU: 200-250 ms of
    every 8,000 results (docs/performance.md, section 0). No collection first: the replay
    leaves next to no cycles (`collector_paused`), and a full pass over a 100,000-event
    party would add half a second to the start-up."""
    gc.freeze()
    gc.set_threshold(10_000, *gc.get_threshold()[1:])


@collector_paused()
def replay(events) -> PartyState:
    """The state `events` fold to. Nobody sees the states between, so the session on keeps
    its tables in a `Draft`, changed in place, instead of a copy of every table per event;
    each draft is frozen before the state is returned (`undrafted`). `apply` spelled out, a replay's way:
    the state numbered once, at the end (no step reads its seq), and its session looked at
    only where a step made its sessions anew (a replay calls this once per row: its calls
    were a fifth of the fold's, docs/performance.md section 4)."""
    state, changes, steps, seq = initial(), [], FOLDS, 0
    sessions = state.sessions
    for e in events:
        seq, step = e.seq, steps.get(e.kind)
        if step is None:
            continue
        try:
            state = step(state, e)
        except FAILED as why:
            undo(changes)   # what the step set in the drafts before it failed (Draft.set's log)
            state = _anomaly(state, e, why)
        changes.clear()
        if state.sessions is not sessions:
            state = drafting(state, changes)
            sessions = state.sessions
    return undrafted(numbered(None, state, seq) if seq else state)


def drafting(state: PartyState, changes: list) -> PartyState:
    """`state` with its session on's tables in a `Draft` logging in `changes` (a session
    seated anew, or one another fold made), for a pass over a journal nobody sees the states
    between (`replay`, the audit) to change in place; `state` itself where it is one already.
    The map a caller's state holds is left as it was: the draft is a new one, and a table it
    takes is copied on its first change, then the draft's."""
    sessions = state.sessions
    if not sessions or type(sessions[-1].tables) is Draft:
        return state
    s = sessions[-1]
    state = state.with_session(copied(s, {"tables": Draft(s.tables, changes)}))
    drafted(state, changes)   # the pass's own too, and each state it makes from it
    return state


def undrafted(state: PartyState) -> PartyState:
    """`state` with its sessions' drafts frozen: FrozenMaps, as a step makes them, and no
    longer the pass's own (its mark taken off)."""
    sessions = tuple(copied(s, {"tables": s.tables.frozen()}) if type(s.tables) is Draft else s
                     for s in state.sessions)
    return copied(state, {"sessions": sessions}, (DRAFTED,)) if state.sessions else state
