"""The audit: would the conductor have written this journal? (docs/journal.md)

Every input in the journal is admitted again against the state folded before it,
exactly as the hub admitted it (`admit`, at the time it was journaled): a refusal
is listed with its seq and reason. The hub's decisions are checked against what
the judge decides for the input before them (the bell, the cards drawn, the
players moved) or what the clock brings about (`tick`), and a result's journaled
outcome against the engine's score of it now. A journal the hub wrote passes; one
written around the judge (by hand, by another program, by a bug) shows where.

One pass gives the state too, so the hub audits at start-up instead of replaying.
"""
from __future__ import annotations

from dataclasses import dataclass

from hub.event import Event, Proposal, canonical

from .fold import apply, collector_paused, initial
from .judge import admit, tick
from .state import PartyState

OUTCOME = "outcome"   # the key the judge adds to a result's body (events.py)


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
def audit(events) -> tuple[PartyState, tuple[Finding, ...]]:
    """The state the journal folds to, and every event of it the conductor would refuse
    or would have decided otherwise, in journal order (fold anomalies included)."""
    events = list(events)
    state, found, i = initial(), [], 0
    while i < len(events):
        e = events[i]
        if e.source == "hub":   # a decision with no input before it: only the clock's
            due = {p.id: p for p in tick(state, e.at)}
            if e.id not in due:
                found.append(Finding(e.seq, e.id, e.kind, "NOT DECIDED"))
            elif not _same(due[e.id].kind, due[e.id].body, e):
                found.append(Finding(e.seq, e.id, e.kind, "OTHER DECISION"))
            state, i = apply(state, e), i + 1
            continue
        own = [e]   # the input and the hub's decisions on it, journaled right after it
        decision = f"{e.id}/hub."
        while i + len(own) < len(events) and events[i + len(own)].id.startswith(decision):
            own.append(events[i + len(own)])
        # the input as it was sent: most bodies have nothing the judge added
        sent = {k: v for k, v in e.body.items() if k != OUTCOME} if OUTCOME in e.body else e.body
        verdict, after, admitted = admit(state, Proposal(e.id, e.source, e.kind, sent),
                                         e.seq - 1, e.at)
        seen = len(found)
        if not verdict.ok:
            found.append(Finding(e.seq, e.id, e.kind, verdict.why))
        elif OUTCOME in e.body and not _same_json(e.body[OUTCOME], admitted[0].body[OUTCOME]):
            found.append(Finding(e.seq, e.id, e.kind, "OUTCOME DIFFERS"))
        if len(own) > 1 or len(admitted) > 1:
            found += _decisions(e, admitted[1:], own[1:])
        if len(found) == seen and [(x.seq, x.at) for x in admitted] == [(x.seq, x.at) for x in own]:
            state = after   # the journal holds exactly what admit made: the same fold
        else:
            for x in own:   # the journal is what happened: fold it as it is
                state = apply(state, x)
        i += len(own)
    ids = {e.seq: e.id for e in events}
    found += [Finding(seq, ids.get(seq, ""), kind, f"NOT FOLDED: {why}")
              for seq, kind, why in state.anomalies]
    return state, tuple(sorted(found, key=lambda f: f.seq))


def _decisions(e: Event, wanted, journaled) -> list[Finding]:
    """The hub's decisions journaled on input `e` against the judge's decisions on it."""
    out = [Finding(got.seq, got.id, got.kind, "OTHER DECISION")
           for want, got in zip(wanted, journaled)
           if want.id != got.id or got.source != "hub" or not _same(want.kind, want.body, got)]
    out += [Finding(got.seq, got.id, got.kind, "NOT DECIDED") for got in journaled[len(wanted):]]
    if len(journaled) < len(wanted):
        out.append(Finding(e.seq, e.id, e.kind, "DECISION MISSING"))
    return out


def _same(kind: str, body: dict, e: Event) -> bool:
    return kind == e.kind and _same_json(body, e.body)


def _same_json(a, b) -> bool:
    """Equal as the journal stores them (a decision made now holds tuples, the journal's
    were read back from JSON as lists)."""
    return a == b or canonical(a) == canonical(b)
