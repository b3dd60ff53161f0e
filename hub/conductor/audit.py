"""The audit: would the conductor have written this journal? (docs/journal.md)

Every input in the journal is admitted again against the state folded before it,
exactly as the hub admitted it (`admit`'s steps, `admitted`, at the time it was
journaled): a refusal is listed with its seq and reason. The hub's decisions are
checked against what the judge decides for the input before them (the bell, the cards
drawn, the players moved) or what the clock brings about (`tick`), and a result's
journaled outcome against the engine's score of it now. A journal the hub wrote passes;
one written around the judge (by hand, by another program, by a bug) shows where.

One pass gives the state too, so the hub audits at start-up instead of replaying.
"""
from __future__ import annotations

from dataclasses import dataclass

from hub.event import Event, Proposal
from hub.refusal import Refusal

from .fold import apply, collector_paused, drafting, initial, undrafted
from .frozen import undo
from .judge import admitted
from .kinds.sessions import tick
from .state import PartyState

@dataclass(frozen=True)
class Finding:
    """A journaled event the conductor would not have written, and why (a refusal's
    reason, or what differs)."""
    seq: int
    id: str
    kind: str
    why: str

    def __str__(self) -> str:
        return f"seq {self.seq} {self.kind} {self.id}: {self.why}"


@collector_paused()
def audit(events, state: PartyState | None = None) -> tuple[PartyState, tuple[Finding, ...]]:
    """The state the journal folds to, and every event of it the conductor would refuse
    or would have decided otherwise, in journal order (fold anomalies included). `state`:
    the party folded from the rows before `events` (an audit already passed them), if any.

    Nobody sees the states between, so the session on's tables are changed in place as a
    replay's are (`fold.drafting`): what `admit` changed is undone (`undo`) where the
    journal is not exactly what it made, before its rows are folded as they are, and so is
    what a row's step changed before it failed; the drafts are frozen before the state is
    returned (`fold.undrafted`). A caller's `state` is left as it was."""
    rows = iter(events)   # read as audited, not held: a list of every row was a party's size again
    state, found, ids, changes = initial() if state is None else state, [], {}, []
    state = drafting(state, changes)
    sessions = state.sessions
    e = next(rows, None)
    while e is not None:
        if e.source == "hub":   # a decision with no input before it: only the clock's
            due = {p.id: p for p in tick(state, e.at)}
            if e.id not in due:
                found.append(Finding(e.seq, e.id, e.kind, "NOT DECIDED"))
            elif not _same(due[e.id], e):
                found.append(Finding(e.seq, e.id, e.kind, "OTHER DECISION"))
            state = _applied(state, e, ids, changes)
            e = next(rows, None)
        else:
            decisions = []   # the hub's decisions on the input, journaled right after it
            after_own = next(rows, None)
            # a decision's id is the input's and "/hub.": looked for in the id first, its
            # prefix spelled only there (an f-string and a call less a row)
            while after_own is not None and "/hub." in after_own.id \
                    and after_own.id.startswith(f"{e.id}/hub."):
                decisions.append(after_own)
                after_own = next(rows, None)
            try:   # the outcome journaled with it (a result's, a correction's, a count's), if any
                outcome = e.what.outcome
            except Refusal:   # no body of its kind: the judge refuses it, with why
                outcome = None
            seen = len(found)
            try:   # the row is the input admitted again, and its own event (`Event.judged`)
                _, after, judged = admitted(state, e, e.seq - 1, e.at)
            except Refusal as r:   # admit's refusal, its why as the table was told it
                judged = ()
                found.append(Finding(e.seq, e.id, e.kind, r.why))
            else:
                if outcome is not None and outcome != judged[0].what.outcome:
                    found.append(Finding(e.seq, e.id, e.kind, "OUTCOME DIFFERS"))
            if decisions or len(judged) > 1:
                found += _decisions(e, judged[1:], decisions)
            # one row and no finding: admit made one event, numbered as the row (every input)
            if len(found) == seen and (not decisions or [(x.seq, x.at) for x in judged]
                                       == [(x.seq, x.at) for x in (e, *decisions)]):
                state = after   # the journal holds exactly what admit made: the same fold
                changes.clear()
            else:
                undo(changes)   # what admit changed in place (a refusal may come after a fold)
                for x in (e, *decisions):   # the journal is what happened: fold it as it is
                    state = _applied(state, x, ids, changes)
            e = after_own
        if state.sessions is not sessions:
            state = drafting(state, changes)
            sessions = state.sessions
    found += [Finding(seq, ids.get(seq, ""), kind, f"NOT FOLDED: {why}")
              for seq, kind, why in state.anomalies]
    return undrafted(state), tuple(sorted(found, key=lambda f: f.seq))


def _applied(state: PartyState, e: Event, ids: dict[int, str], changes: list) -> PartyState:
    """`apply`, noting the id of an event it could not apply (in `ids`, by seq) for its
    finding, what its step changed in place before it failed undone."""
    new = apply(state, e)
    if new.anomalies is not state.anomalies:
        undo(changes)
        ids[e.seq] = e.id
    changes.clear()
    return new


def _decisions(e: Event, wanted, journaled) -> list[Finding]:
    """The hub's decisions journaled on input `e` against the judge's decisions on it."""
    out = [Finding(got.seq, got.id, got.kind, "OTHER DECISION")
           for want, got in zip(wanted, journaled)
           if want.id != got.id or got.source != "hub" or not _same(want, got)]
    out += [Finding(got.seq, got.id, got.kind, "NOT DECIDED") for got in journaled[len(wanted):]]
    if len(journaled) < len(wanted):
        out.append(Finding(e.seq, e.id, e.kind, "DECISION MISSING"))
    return out


def _same(want: Proposal, got: Event) -> bool:
    """The decision the judge makes now and the one journaled, compared as values."""
    try:
        return want.kind == got.kind and want.what == got.what
    except Refusal:   # the journaled one is no body of its kind
        return False
