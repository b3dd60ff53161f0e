"""The hub's batch policy as one pure step (hub/batch.py; docs/protocol.md, "One id, one
verdict"), without MQTT or SQLite: a party's state, its inputs as a board sends them, what
was decided before (a `Ledger`), and the clock, all given; what comes back is the party after
the batch, the events to journal, the replies and the final refusals to record."""
import json
import logging
import random

import pytest

from hub import batch
from hub.batch import Ledger, LocalInput, TableInput, admit_batch
from hub.conductor import events as k
from hub.conductor.leads import keys_lead
from party.hands import played_values
from hub.event import Proposal
from tests.conductor.party import Party

NOW = 1_000_100.0


@pytest.fixture
def party() -> Party:
    """A Draw party at two tables, session I started (no seat check), 60 minutes by the clock."""
    p = Party()
    p.create(form="draw", tables=2, games_per_session=4, sessions=1, seat_check=False, time_limit=60)
    p.guests([f"Guest {i}" for i in range(8)])
    p.draw()
    p.start()
    return p


def sent(n: int, event_id: str, kind: str, body: dict, **envelope) -> TableInput:
    msg = {"v": 1, "id": event_id, "table": n, "kind": kind, "body": body, **envelope}
    return TableInput(n, json.dumps(msg).encode())


def result(p: Party, n: int, game: int, event_id: str | None = None, seed: int = 0) -> TableInput:
    setup = p.state.setup
    values = played_values(setup, p.state.session.tables[n].seats, random.Random(seed or game),
                           lead=keys_lead(setup.form, game))
    return sent(n, event_id or f"sim-{n}.1.{game}", "result", {"game": game, "values": values})


def acks(outcome) -> list[tuple[str, bool, str]]:
    """(id, ok, msg or why) of each reply, in order."""
    return [(event_id, v.ok, v.msg if v.ok else v.why) for _, event_id, v, _ in outcome.replies]


def test_a_result_is_admitted_numbered_and_answered_with_its_seq(party):
    before, ledger = party.state, Ledger(party.journal)
    one = result(party, 1, 1)
    out = admit_batch(before, [one], ledger, NOW)
    (event,) = out.events
    assert (event.seq, event.id, event.at, event.kind) == (before.seq + 1, "sim-1.1.1", NOW, k.RESULT)
    assert out.replies == [(one, "sim-1.1.1", out.replies[0][2], event.seq)]
    assert acks(out) == [("sim-1.1.1", True, "GAME 1 SAVED")]
    assert out.state.seq == event.seq and out.state.session.tables[1].entered == 1
    assert out.refusals == []
    assert party.state is before and before.session.tables[1].entered == 0   # nothing changed in place


def test_a_resend_in_the_same_batch_and_in_a_later_one_is_saved_once_with_its_first_seq(party):
    ledger = Ledger(party.journal)
    one = result(party, 1, 1)
    out = admit_batch(party.state, [one, one], ledger, NOW)
    assert len(out.events) == 1
    seq = out.events[0].seq
    assert [r[3] for r in out.replies] == [seq, seq] and [a[1] for a in acks(out)] == [True, True]
    ledger.record(out)
    again = admit_batch(out.state, [one], ledger, NOW + 1)
    assert again.events == [] and acks(again) == [("sim-1.1.1", True, "SAVED")] and again.replies[0][3] == seq
    assert again.state is out.state


def test_an_id_reused_with_other_content_is_refused_and_nothing_is_recorded(party):
    ledger = Ledger(party.journal)
    out = admit_batch(party.state, [result(party, 1, 1)], ledger, NOW)
    ledger.record(out)
    other = result(party, 1, 2, event_id="sim-1.1.1")   # the same id, game 2
    again = admit_batch(out.state, [other], ledger, NOW)
    assert acks(again) == [("sim-1.1.1", False, "ID REUSED")]
    assert again.events == [] and again.refusals == []
    assert any(n[1] == "%s reused id %s with other content" for n in again.notes)


def test_a_final_refusal_is_recorded_and_given_again_to_the_same_bytes(party):
    ledger = Ledger(party.journal)
    first = admit_batch(party.state, [result(party, 1, 1)], ledger, NOW)
    ledger.record(first)
    twice = result(party, 1, 1, event_id="sim-1.2.1")   # game 1 again, under a new id
    out = admit_batch(first.state, [twice], ledger, NOW + 5)
    assert acks(out) == [("sim-1.2.1", False, "ALREADY SAVED")]
    ((id_, digest, why, at),) = out.refusals
    assert (id_, why, at) == ("sim-1.2.1", "ALREADY SAVED", NOW + 5)
    assert digest == Proposal("x", "table:1", k.RESULT, json.loads(twice.payload)["body"]
                              | {"table": 1, "board": "sim-1"}).digest
    ledger.record(out)
    again = admit_batch(out.state, [twice], ledger, NOW + 9)
    assert acks(again) == [("sim-1.2.1", False, "ALREADY SAVED")] and again.refusals == []


def test_a_game_ahead_of_its_table_is_held_unanswered_until_the_one_before_is_in(party):
    """docs/protocol.md: "held: no answer", "a result for a later game than the next"."""
    ledger = Ledger(party.journal)
    one, two = result(party, 1, 1), result(party, 1, 2)
    out = admit_batch(party.state, [two, one], ledger, NOW)
    assert acks(out) == [("sim-1.1.1", True, "GAME 1 SAVED")] and out.refusals == []
    ledger.record(out)
    later = admit_batch(out.state, [two], ledger, NOW + 1)
    assert acks(later) == [("sim-1.1.2", True, "GAME 2 SAVED")]


def test_the_envelope_is_read_here_and_a_refusal_names_the_id_where_it_can(party):
    ledger = Ledger(party.journal)
    junk = TableInput(1, b"not json {")
    bad = sent(1, "sim-1.1.1", "result", {"game": 1, "values": {"A": "one"}})
    old = sent(1, "sim-1.1.2", "result", {"game": 1, "values": {"A": 1}}, v=2)
    out = admit_batch(party.state, [junk, bad, old], ledger, NOW)
    assert acks(out) == [("sim-1.1.1", False, "BAD MESSAGE"), ("sim-1.1.2", False, "UPDATE FIRMWARE")]
    assert out.events == []
    assert [n[0] for n in out.notes] == [logging.WARNING] * 3


def test_a_table_not_at_the_party_or_a_board_not_its_own_gets_no_answer(party):
    ledger = Ledger(party.journal)
    far = result(party, 1, 1, event_id="sim-9.1.1")
    far = TableInput(9, far.payload.replace(b'"table": 1', b'"table": 9'))
    spoofed = result(party, 1, 1, event_id="spoof-1.1.1")
    out = admit_batch(party.state, [far, spoofed], ledger, NOW, boards={1: "sim-1", 2: "sim-2"})
    assert out.replies == [] and out.events == [] and out.refusals == []
    mine = admit_batch(party.state, [result(party, 1, 1)], ledger, NOW, boards={1: "sim-1", 2: "sim-2"})
    assert acks(mine) == [("sim-1.1.1", True, "GAME 1 SAVED")]


def test_the_clock_rings_the_hubs_bell_once(party):
    """Set-up: "number of sessions or a time limit": at 60 minutes the hub's own bell."""
    ledger = Ledger(party.journal)
    assert admit_batch(party.state, [], ledger, NOW).events == []
    late = party.state.started_at + 60 * 60
    out = admit_batch(party.state, [], ledger, late)
    (bell,) = out.events
    assert (bell.id, bell.source, bell.kind, bell.seq) == ("hub.time.s1", "hub", k.HUB_BELL, party.state.seq + 1)
    assert out.state.session.bell is not None
    assert admit_batch(party.state, [], ledger, late, ticks=False).events == []
    ledger.record(out)
    assert admit_batch(party.state, [], ledger, late).events == []   # journaled already: not twice


def test_a_bug_in_judging_is_the_hubs_error_answered_and_never_recorded(party, monkeypatch):
    def broken(*args):
        raise KeyError("a bug")
    monkeypatch.setattr(batch.conductor, "admit", broken)
    out = admit_batch(party.state, [result(party, 1, 1)], Ledger(party.journal), NOW)
    assert acks(out) == [("sim-1.1.1", False, "HUB ERROR")]
    assert out.refusals == [] and out.events == [] and out.state is party.state
    ((message, exc),) = [(n[1], n[3]) for n in out.notes if n[0] == logging.ERROR]
    assert message == "judging %s %s failed" and isinstance(exc, KeyError)   # logged with its traceback


def test_a_refusal_at_the_envelope_is_recorded_so_the_id_with_other_content_is_id_reused(party):
    """docs/protocol.md, "One id, one verdict": an envelope refusal is final and recorded,
    by the digest of the bytes sent; the same id with any other content is `ID REUSED`."""
    ledger = Ledger(party.journal)
    good = result(party, 1, 1)
    msg = json.loads(good.payload)
    msg["body"]["values"]["A"] = "15"   # a value that is not a number
    bad = TableInput(1, json.dumps(msg).encode())
    out = admit_batch(party.state, [bad, bad], ledger, NOW)
    assert acks(out) == [("sim-1.1.1", False, "BAD MESSAGE")] * 2
    assert [(i, why, at) for i, _, why, at in out.refusals] == [("sim-1.1.1", "BAD MESSAGE", NOW)]
    ledger.record(out)
    again = admit_batch(out.state, [bad, good], ledger, NOW + 1)
    assert acks(again) == [("sim-1.1.1", False, "BAD MESSAGE"), ("sim-1.1.1", False, "ID REUSED")]
    assert again.events == [] and again.refusals == []
    # in one batch: the well-formed first (saved), then the same id malformed
    first = admit_batch(party.state, [good, bad], Ledger(party.journal), NOW)
    assert acks(first) == [("sim-1.1.1", True, "GAME 1 SAVED"), ("sim-1.1.1", False, "ID REUSED")]


def test_an_envelope_refusal_is_answered_but_not_recorded_for_a_table_or_board_not_the_partys(party):
    ledger = Ledger(party.journal)
    far = TableInput(9, b'{"v": 2, "id": "sim-9.1.1", "table": 9, "kind": "result", "body": {}}')
    spoofed = TableInput(1, b'{"v": 2, "id": "spoof-1.1.1", "table": 1, "kind": "result", "body": {}}')
    odd = TableInput(1, b'{"v": 2, "id": "not an id", "table": 1, "kind": "result", "body": {}}')
    out = admit_batch(party.state, [far, spoofed, odd], ledger, NOW, boards={1: "sim-1", 2: "sim-2"})
    assert [a[2] for a in acks(out)] == ["UPDATE FIRMWARE"] * 3 and out.refusals == []
