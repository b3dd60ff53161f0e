"""The judge: is an input true to the party so far? Answered before it is journaled.

`admit(state, proposal, seq, now)` is the one step every writer takes (the hub,
the tests' party, the benches; the audit its steps less the verdict, `admitted`): it
refuses (with a reason short enough for a table's display) or admits the proposal,
followed by any decision it brings about (the bell rung when a table finishes its last
game, the cards drawn, the players moved), numbered after `seq` and folded: the state it
returns is the one the journal will replay to, and the hub journals the events in one
transaction. What the judge decides or computes (a seed, a result's outcome) is
in the events' bodies, so the fold never decides or scores it again. Each kind's
check is its concern's, in hub/conductor/kinds/ (registry.py gathers them); here, only
who may send what and the steps every input takes.
"""
from __future__ import annotations

from functools import lru_cache

from hub.event import Event, Proposal, Verdict
from hub.refusal import Refusal, shown

from . import events as k
from .fold import folded
from .kinds.sessions import bell_due
from .registry import CHECKS
from .setup import MOST_TABLES
from .ruling import LOGIN, NotYet
from .state import PartyState


def admit(state: PartyState, p: Proposal, seq: int, now: float
          ) -> tuple[Verdict, PartyState, tuple[Event, ...]]:
    """The verdict on `p`, the state after it and the events to journal (numbered from
    seq + 1, at `now`); a refusal leaves the state as it was and journals nothing."""
    try:
        msg, after, events = admitted(state, p, seq, now)
    except Refusal as r:   # the only exception a bad input raises: anything else is a bug
        return Verdict.refuse(r.why, held=isinstance(r, NotYet)), state, ()
    # Verdict.admit's verdict, without its call and its events gathered again (every input)
    return Verdict(True, events, shown(msg)), after, events


def admitted(state: PartyState, p: Proposal, seq: int, now: float
             ) -> tuple[str, PartyState, tuple[Event, ...]]:
    """`admit` less its verdict: the message for the display (not yet cut to its width), the
    state after `p` and the events; raises the `Refusal` that `admit` answers with. The
    start-up's audit calls it for every row: it reads the refusal's why and the events, and
    a verdict with its message `shown` was 6 k instructions a row it threw away."""
    # who may send it, then its kind's check (one frame for both: every input, and every
    # row of the start-up audit). The body is read (p.what) once its author is known to
    # be one who may send it: a malformed body is refused with why (hub/conductor/body.py),
    # the checks read values.
    by_check = CHECKS.get(p.kind)
    if by_check is None:   # a hub decision is the judge's own: nobody proposes one
        raise Refusal("UNKNOWN KIND")
    by, check = by_check
    if by == "table":   # from a table of this party, saying its own number
        n = _TABLE_SOURCES.get(p.source) or _table_of(p.source)
        if n is None or p.what.table != n:
            raise Refusal("WRONG TABLE")
        if state.setup is None:
            raise Refusal("NO PARTY")
        if not 1 <= n <= state.setup.tables:
            raise Refusal("UNKNOWN TABLE")
        a = check(state, p, n, now)
    else:
        login = _staff_of(state, p)
        _ = p.what   # read (or refused) before the check looks at the state
        a = check(state, p, login, now)
    events, after = _fold(state, a.proposals, seq, now)
    due = bell_due(after, a.bell_at, p) if a.bell_at is not None else ()
    if due:
        bell, after = _fold(after, due, seq + len(events), now)
        events += bell
    return a.msg, after, events


def judge(state: PartyState, p: Proposal, now: float) -> Verdict:
    """`admit`'s verdict alone, where the state after it is not wanted (the fuzz tests)."""
    return admit(state, p, state.seq, now)[0]


# -- helpers ---------------------------------------------------------------------------

# Every table's own source as the hub's edge spells it ("table:3", hub/protocol.py) and its
# number, made once: split and read at each input it was 1.9 k instructions (every table's
# input, every audited row). Made at the import, not remembered as asked, so that no table's
# first input pays for the remembering (the rush: 200 tables' first).
_TABLE_SOURCES = {f"table:{n}": n for n in range(1, MOST_TABLES + 1)}


def _table_of(source: str) -> int | None:
    """The table a source names ("table:3", "table:03"), or None where it names none."""
    kind, _, n = source.partition(":")
    return int(n) if kind == "table" and n.isdigit() else None


def _staff_of(state: PartyState, p: Proposal) -> str:
    login = _login_of(p.source)
    if login is None:
        raise Refusal("NOT STAFF")
    if p.kind != k.PARTY_CREATED:
        if state.setup is None:
            raise Refusal("NO PARTY")
        if login not in state.staff:
            raise Refusal("NOT STAFF")
    return login


@lru_cache(maxsize=1024)   # a party's few staff, each asked at every action they take
def _login_of(source: str) -> str | None:
    """The login a staff member's source names ("staff:ann"), or None where it names none."""
    kind, _, login = source.partition(":")
    return login if kind == "staff" and LOGIN.fullmatch(login) else None


def _fold(state: PartyState, proposals, seq: int, now: float
          ) -> tuple[tuple[Event, ...], PartyState]:
    """The events `proposals` become, numbered after `seq`, and the state after them as
    the journal makes it; refuses what the fold could not apply (so nothing unappliable
    is ever journaled). A tuple grown, not a list made one (mostly one event: every input)."""
    events = ()
    for q in proposals:
        seq += 1
        event = q.event(seq, now)
        try:
            state = folded(state, event)
        except Refusal:
            raise Refusal("BAD MESSAGE") from None
        events += (event,)
    return events, state
