"""A replay keeps the session's tables in a draft changed in place (hub/conductor/fold.py,
`replay`; docs/performance.md section 4), and so does the audit, where the live hub copies
the map for every event:
folded both ways, a long party with everything that puts a table back (results,
confirmations, seat checks, bells seen, closings, corrections of an earlier session, a
table added, guests leaving and seated) and rows the fold cannot apply, one of them after it
has emptied a seat, gives the same state after every event; and what the replay returns
is frozen like any state the hub folds."""
import random
from dataclasses import replace

import pytest

from hub.conductor import events as k
from hub.conductor import audit, fold, replay
from hub.conductor.frozen import Draft, FrozenMap, undo
from hub.conductor.leads import keys_lead
from hub.conductor.state import TableSession, in_play, table_done
from hub.event import Event
from party.hands import played_values

from .party import Party


def confirm(p: Party, n: int) -> None:
    """The pending result at table `n`, if any, confirmed by a seat of the side that lost."""
    t = p.state.session.tables[n]
    e = t.pending
    if e is not None:
        seat = next(x for x, c in zip("ABCD", t.seats) if c and x not in e.winners)
        p.must(p.table(n, k.CONFIRM, {"entry": e.id, "seat": seat}))


def play_session(p: Party, rng: random.Random) -> None:
    p.start()
    setup = p.state.setup
    while p.state.session.bell is None:
        s = p.state.session
        n = rng.choice([n for n, t in s.tables.items() if in_play(setup, t) and t.pending is None])
        t = s.tables[n]
        p.must(p.result(n, played_values(setup, t.seats, rng, lead=keys_lead(setup.form, t.entered + 1))))
        if rng.random() < 0.8:   # the other side confirms (now or later)
            confirm(p, n)
    for n in sorted(p.state.session.tables):
        confirm(p, n)
    p.ack_bell()
    s = p.state.session
    for n, t in sorted(s.tables.items()):
        if in_play(setup, t) and not table_done(setup, s, t):
            p.must(p.staff(k.TABLE_CLOSED, {"table": n, "why": "the game in hand abandoned"}))


def long_party() -> tuple[Party, list[Event]]:
    """A Block party of 38 guests on 10 tables, every result confirmed, three sessions, and
    the journal with rows the fold cannot apply put in (renumbered)."""
    rng, p = random.Random(25), Party()
    p.create(form="block", tables=10, confirm=True)
    p.guests([f"Guest {i:02d}" for i in range(38)])
    p.draw(seed=3)
    play_session(p, rng)
    first = p.state.session.tables[1].entries[0].id
    p.reseat()
    p.must(p.staff(k.TABLE_ADDED, {"why": "more came"}))
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": first, "why": "recount",
                                        "values": dict(p.state.sessions[0].tables[1].entries[0].values)}))
    p.must(p.staff(k.GUEST_LEFT, {"guest": p.state.holders[p.state.session.tables[2].seats[0]],
                                  "why": "last train"}))
    play_session(p, rng)
    p.reseat()
    play_session(p, rng)
    card = p.state.session.tables[3].seats[1]
    bad = [   # a guest seated at a table there is not: his seat emptied, then the step fails
        (len(p.journal) // 2, k.GUEST_SEATED,
         {"guest": p.state.holders[card], "table": 99, "seat": "D", "why": "x"}),
        (len(p.journal) // 3, k.CONFIRM, {"table": 1, "entry": "no such", "seat": "B"}),
        (len(p.journal) - 5, k.GUEST_SEATED, {"guest": "Nobody", "table": 1, "seat": "A", "why": "x"}),
    ]
    journal = list(p.journal)
    for at, kind, body in sorted(bad, reverse=True):
        journal.insert(at, Event(0, f"forged-{at}", p.now, "staff:ann", kind, body))
    return p, [replace(e, seq=i) for i, e in enumerate(journal, start=1)]


@pytest.fixture(scope="module")
def party():
    return long_party()


def test_the_replay_folds_to_the_plain_folds_state_after_every_event(party, monkeypatch):
    p, journal = party
    plain, state = [], fold.initial()
    for e in journal:   # the live hub's fold: a new map of tables for every change
        state = fold.apply(state, e)
        plain.append(state)
    assert len(plain) > 200 and len(state.sessions) == 3 and len(state.anomalies) == 3
    assert "KeyError" in state.anomalies[-2][2]   # the forged seating failed half-way

    for i, want in enumerate(plain, start=1):   # the replay of each stretch of the journal
        replayed = replay(journal[:i])
        assert replayed == want, (i, journal[i - 1].kind)
        assert [dict(s.tables) for s in replayed.sessions] == [dict(s.tables) for s in want.sessions]
    assert replayed == state and replayed.anomalies == state.anomalies


def test_the_audit_folds_in_place_to_the_plain_folds_state_and_finds_the_same(party):
    """The audit changes the session on's tables in place as the replay does: where a row is
    refused (after `admit` folded part of it, or the step failed half-way) what was changed is
    put back, and the row folded as journaled; every stretch of the journal audits to the
    plain fold's state, and the forged rows are found in the same words."""
    p, journal = party
    state = fold.initial()
    for i, e in enumerate(journal, start=1):
        state = fold.apply(state, e)
        if i % 5 == 0 or i == len(journal):
            audited, found = audit(journal[:i])
            assert audited == state, (i, journal[i - 1].kind)
            assert [dict(s.tables) for s in audited.sessions] == [dict(s.tables) for s in state.sessions]
    assert [str(f) for f in found] == [
        "seq 84 table.confirm forged-83: WRONG TABLE",
        "seq 84 table.confirm forged-83: NOT FOLDED: TypeError: cannot unpack non-iterable NoneType object",
        "seq 127 conductor.guest-seated forged-125: NO SUCH SEAT",
        "seq 127 conductor.guest-seated forged-125: NOT FOLDED: KeyError: 99",
        "seq 249 conductor.guest-seated forged-246: NOT CHECKED IN",
        "seq 249 conductor.guest-seated forged-246: NOT FOLDED: KeyError: 'Nobody'"]
    assert not [t for s in audited.sessions for t in s.tables.values() if "_drafted" in vars(t)]
    assert "_drafted" not in vars(audited)   # its seq numbered in place no more (fold.folded)
    assert all(type(s.tables) is FrozenMap for s in audited.sessions)


def test_what_the_replay_returns_is_frozen_and_holds_nothing_it_changes(party):
    p, journal = party
    upto = [e for e in journal if e.seq <= len(journal) // 2]
    half = replay(upto)
    tables = [dict(s.tables) for s in half.sessions]
    assert all(type(s.tables) is FrozenMap for s in half.sessions)
    with pytest.raises(TypeError):
        half.session.tables[1] = half.session.tables[2]
    assert half.session.tables.set(1, half.session.tables[2]) is not half.session.tables
    whole, _ = audit(journal[len(upto):], half)   # folded on from it, as a restarted hub does
    assert [dict(s.tables) for s in half.sessions] == tables and whole == replay(journal) != half


def test_a_table_changed_in_place_by_a_step_that_then_fails_is_put_back(party):
    """A replay's table is changed in place (`TableSession.with_entry`, `with_mended`, `noted`
    through hub.speed.changed) once its draft holds it; where the step then fails, the undo
    gives it back every field and answer it had, and the table the live hub holds is never
    touched."""
    p, journal = party
    state = replay(journal)
    n, t = next((n, t) for n, t in state.session.tables.items() if len(t.entries) > 1)
    held, changes = {n: t}, []
    draft = Draft(held, changes)
    assert t.noted(closed=None) is not t and t.with_entry(t.entries[0]) is not t   # not the draft's
    draft.set(n, t.with_entry(t.entries[0]))
    mine = draft[n]
    answers = (mine.entered, mine.counted, mine.pending)
    before = dict(vars(mine))
    undo_from = len(changes)
    assert mine.with_mended(0, replace(mine.entries[0], annulled=mine.entries[0].corrections)) is mine
    assert mine.noted(acks=mine.acks.set("a bell", 9)) is mine and "a bell" in mine.acks
    assert draft.set(n, mine) is draft and len(changes) > undo_from   # the changes logged, not the set
    undo(changes[undo_from:])
    del changes[undo_from:]
    assert {k: v for k, v in vars(mine).items() if k not in TableSession._derived} == \
        {k: v for k, v in before.items() if k not in TableSession._derived}
    assert (mine.entered, mine.counted, mine.pending) == answers   # dropped, found anew alike
    undo(changes)
    assert draft[n] is t and "_drafted" not in vars(t)


def test_the_replays_tables_are_no_longer_its_own_once_returned(party):
    """What the replay returns holds no table still marked as its draft's: a step folded on
    from it (the audit, the live hub) copies, and the replayed state is left as it was."""
    p, journal = party
    half = replay(journal[:len(journal) // 2])
    assert not [t for s in half.sessions for t in s.tables.values() if "_drafted" in vars(t)]
    assert "_drafted" not in vars(half)
    before = repr(half)
    audit(journal[len(journal) // 2:], half)
    assert repr(half) == before
