"""A takeover's rebuild (hub/rebuild.py, through the batch step hub/batch.py; docs/takeover.md):
the lost hub's acknowledged entries beyond the replica, sent back by the boards with the seq
its ack gave them and by the broker (the staff's), re-admitted in that seq order before
anything new, so the standby's journal is the lost hub's row for row. The four failures
issue 24 found in a double machine loss, each made impossible here:
1. a bell-ack sent back before the result that rang its bell was held as NO SUCH BELL;
2. a table the lost hub had closed was offered another game and admitted it;
3. the movement seated players otherwise than the lost hub announced;
4. when the settling minute ended, entries the lost hub acknowledged got a second verdict."""
import json
import random

import pytest

from hub import gap
from hub.batch import Ledger, LocalInput, TableInput, admit_batch
from hub.conductor import replay
from hub.conductor import events as k
from hub.conductor.leads import keys_lead
from hub.event import Proposal
from hub.rebuild import REBUILD_MAX_S, REBUILDING, Heard, rebuild_for
from party.hands import played_values
from tests.conductor.party import Party

LOST_AT = 1_000_500.0      # the lost hub's clock
TAKEN_AT = 1_000_900.0     # the standby's, minutes later


def sent(n: int, event_id: str, kind: str, body: dict, seq: int | None = None) -> TableInput:
    msg = {"v": 1, "id": event_id, "table": n, "kind": kind, "body": body}
    if seq is not None:
        msg["seq"] = seq   # sent back after a takeover: the seq the lost hub's ack gave it
    return TableInput(n, json.dumps(msg).encode())


@pytest.fixture
def lost():
    """A Draw party at two tables, four games a session, two sessions; the replica holds it
    up to the start of session I. The lost hub then journals, one input a batch: both tables'
    four games (table 1's fourth rings the hub's finish bell: Draw, "as soon as four games
    have been finished at any table the conductor rings the bell"), both bell-acks, and the
    conductor's movement (its seed drawn by the hub)."""
    p = Party()
    p.create(form="draw", tables=2, games_per_session=4, sessions=2, seat_check=False)
    p.guests([f"Guest {i}" for i in range(8)])
    p.draw()
    p.start()
    restored = p.state.seq
    state, ledger, events, acked, gap_actions = p.state, Ledger(p.journal), list(p.journal), {}, []

    def journal(item) -> None:
        nonlocal state
        out = admit_batch(state, [item], ledger, LOST_AT + len(events))
        ((_, event_id, verdict, seq),) = out.replies
        assert verdict.ok, verdict.why
        ledger.record(out)
        events.extend(out.events)
        state = out.state
        if isinstance(item, TableInput):
            acked[event_id] = (item, seq)
        else:
            staff = gap.StaffGap()
            staff.journaled(out.events)
            gap_actions.extend(json.loads(staff.payload())["actions"])

    for game in (1, 2, 3):
        for n in (1, 2):
            journal(_result(state, n, game))
    journal(_result(state, 1, 4))   # the bell: table 1 has its four games
    bell = state.session.bell.id
    journal(_result(state, 2, 4))   # the game in hand at table 2
    for n in (2, 1):
        journal(sent(n, f"sim-{n}.1.9", "bell-ack", {"bell": bell}))
    journal(LocalInput(Proposal("console-9", "staff:ann", k.RESEAT, {})))   # seed: the hub's draw
    return {"party": p, "restored": restored, "events": events, "acked": acked, "gap": gap_actions,
            "state": state}


def _result(state, n: int, game: int) -> TableInput:
    setup = state.session and state.setup
    values = played_values(setup, state.session.tables[n].seats, random.Random(f"{n}.{game}"),
                           lead=keys_lead(setup.form, game))
    return sent(n, f"sim-{n}.1.{game}", "result", {"game": game, "values": values})


def sent_back(lost: dict, event_id: str) -> TableInput:
    """A board's kept entry sent back to the standby, with the seq the lost hub gave it."""
    item, seq = lost["acked"][event_id]
    return TableInput(item.table, item.payload[:-1] + b', "seq": %d}' % seq)


def standby(lost: dict):
    """The standby's party as `party takeover` restores it: the replica's journal, and the
    rebuild of what is after it."""
    upto = [e for e in lost["events"] if e.seq <= lost["restored"]]
    state, ledger = replay(upto), Ledger(upto)
    return state, ledger, rebuild_for(lost["restored"], TAKEN_AT, (1, 2), lost["gap"], TAKEN_AT)


def rows(events) -> list[tuple]:
    return [(e.seq, e.id, e.source, e.kind, json.dumps(e.body, sort_keys=True)) for e in events]


def run(state, ledger, rebuild, batches, now=TAKEN_AT):
    """Each batch through the step as the hub's writer takes it; all that came out."""
    events, replies, refusals = [], [], []
    for batch in batches:
        out = admit_batch(state, batch, ledger, now, rebuild=rebuild)
        ledger.record(out)
        state = out.state
        events += out.events
        replies += out.replies
        refusals += out.refusals
    return state, events, replies, refusals


def test_the_standby_journals_the_lost_hubs_rows_in_its_order_from_entries_sent_back_in_any(lost):
    state, ledger, rebuild = standby(lost)
    ids = list(lost["acked"])
    back = [sent_back(lost, i) for i in reversed(ids)]   # the worst order: the last one first
    state, events, replies, refusals = run(state, ledger, rebuild, [[b] for b in back] + [[Heard(1), Heard(2)]])
    assert rebuild.done and rebuild.holes == []
    assert rows(events) == rows(e for e in lost["events"] if e.seq > lost["restored"])
    assert refusals == []
    assert {i: (v.ok, seq) for item, i, v, seq in replies if isinstance(item, TableInput)} == \
        {i: (True, s) for i, (_, s) in lost["acked"].items()}
    assert state == lost["state"]


def test_1_a_bell_ack_sent_back_before_the_result_that_rang_its_bell_waits_for_it(lost):
    state, ledger, rebuild = standby(lost)
    ack = sent_back(lost, "sim-1.1.9")
    state, events, replies, refusals = run(state, ledger, rebuild, [[ack]])
    assert (events, replies, refusals) == ([], [], [])   # no NO SUCH BELL: no verdict yet
    rest = [sent_back(lost, i) for i in lost["acked"] if i != "sim-1.1.9"]
    _, events, replies, refusals = run(state, ledger, rebuild, [rest])
    assert ("sim-1.1.9", True, lost["acked"]["sim-1.1.9"][1]) in [(i, v.ok, s) for _, i, v, s in replies]
    assert refusals == []


def test_2_a_new_entry_waits_for_the_rebuild_and_is_judged_against_the_lost_hubs_party(lost):
    state, ledger, rebuild = standby(lost)
    # table 1's fifth game, keyed after the lost hub's bell, sent before its kept entries
    # reached the standby; and the conductor's console meanwhile
    extra = sent(1, "sim-1.2.1", "result", {"game": 5, "values": {"A": 10, "B": 0}})
    console = LocalInput(Proposal("console-10", "staff:ann", k.BELL, {"meaning": "stop"}))
    state, events, replies, refusals = run(state, ledger, rebuild, [[extra, console]])
    assert [(i, v.why) for _, i, v, _ in replies] == [("console-10", REBUILDING)]
    assert events == [] and refusals == []   # the console's answer is not final
    back = [sent_back(lost, i) for i in lost["acked"]]
    state, events, replies, _ = run(state, ledger, rebuild, [back, [Heard(2)]])
    assert rebuild.done
    assert "sim-1.2.1" not in [i for _, i, _, _ in replies]   # held: its board sends it again
    _, events, replies, _ = run(state, ledger, rebuild, [[extra]])
    (verdict,) = [v for _, i, v, _ in replies if i == "sim-1.2.1"]
    lost_says = admit_batch(lost["state"], [extra], Ledger(lost["events"]), TAKEN_AT).replies[0][2]
    assert not verdict.ok and verdict.why == lost_says.why   # what the lost hub would have said


def test_3_the_movement_seats_the_room_as_the_lost_hub_announced_it(lost):
    state, ledger, rebuild = standby(lost)
    back = [sent_back(lost, i) for i in lost["acked"]]
    state, events, _, _ = run(state, ledger, rebuild, [back, [Heard(1), Heard(2)]])
    (moved,) = [e for e in events if e.kind == k.PLAYERS_MOVED]
    (announced,) = [e for e in lost["events"] if e.kind == k.PLAYERS_MOVED]
    assert (moved.seq, moved.body) == (announced.seq, announced.body)
    assert state.session.tables == lost["state"].session.tables


def test_4_no_id_the_lost_hub_acknowledged_gets_a_second_verdict_when_the_rebuild_ends(lost):
    state, ledger, rebuild = standby(lost)
    ids = list(lost["acked"])
    random.Random(4).shuffle(ids)
    halves = [[sent_back(lost, i) for i in ids[:5]], [sent_back(lost, i) for i in ids[5:]]]
    # the rebuild's time runs out between the halves: nothing of it is refused, then or after
    state, _, replies, refusals = run(state, ledger, rebuild, halves[:1])
    state, _, more, late = run(state, ledger, rebuild, halves[1:] + [[Heard(1), Heard(2)]],
                               now=TAKEN_AT + REBUILD_MAX_S + 1)
    assert refusals == late == []
    verdicts = {}
    for item, i, v, seq in replies + more:
        if isinstance(item, TableInput):
                verdicts.setdefault(i, set()).add((v.ok, seq))
    assert verdicts == {i: {(True, s)} for i, (_, s) in lost["acked"].items()}


def test_a_seq_nobody_kept_is_said_by_seq_and_what_follows_is_judged_in_its_order(lost):
    state, ledger, rebuild = standby(lost)
    first = next(iter(lost["acked"]))   # its board lost with the hub
    back = [sent_back(lost, i) for i in lost["acked"] if i != first]
    state, events, replies, _ = run(state, ledger, rebuild, [back, [Heard(1), Heard(2)]])
    assert not rebuild.done and events == []   # the gap at its seq is waited for
    state, events, replies, _ = run(state, ledger, rebuild, [[]], now=TAKEN_AT + REBUILD_MAX_S)
    missing = lost["acked"][first][1]
    assert rebuild.done and rebuild.holes[0] == (missing, missing)
    # what was sent back is judged now, in the lost hub's order, without the one nobody kept
    # (table 1's first game): table 2's games and the bell-acks saved (table 2's fourth game
    # rings the bell here); table 1's later games held, as any game ahead of its table
    answered = {i: v.ok for item, i, v, _ in replies if isinstance(item, TableInput)}
    assert answered == {**{f"sim-2.1.{g}": True for g in (1, 2, 3, 4)}, "sim-1.1.9": True, "sim-2.1.9": True}
    assert events and not any(e.id == first for e in events)


def test_a_redo_of_a_staff_action_reuses_the_seed_the_lost_hub_drew(lost):
    (reseat,) = [a for a in lost["gap"] if a["kind"] == k.RESEAT]
    (moved,) = [e for e in lost["events"] if e.kind == k.PLAYERS_MOVED]
    assert reseat["seed"] == moved.body["seed"]
    redo = gap.proposal(reseat, "staff:bob")
    assert (redo.id, redo.source, redo.body["seed"]) == (reseat["id"], "staff:bob", moved.body["seed"])


def test_a_standby_started_after_its_rebuild_time_has_none(lost):
    assert rebuild_for(lost["restored"], TAKEN_AT, (1, 2), lost["gap"], TAKEN_AT + REBUILD_MAX_S) is None
