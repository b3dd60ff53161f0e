"""One id, one verdict (issue 12 item 10; docs/protocol.md "One id, one verdict"): an
event id gets the same verdict every time it is sent, across hub restarts. A refusal
that only says an earlier entry of the same table has not arrived yet (a broker
redelivering out of order) is held: unanswered, not recorded, admitted when the board
resends it after the earlier one. Every other refusal is final: recorded, and given
again to a resend of the same bytes."""
import json
import queue
import random

import pytest

from hub.conductor.cards import SEATS, number
from hub.conductor.leads import keys_lead
from party.hands import played_values
from party.setup import guest_names, seat_guests, start_session

pytestmark = pytest.mark.broker


@pytest.fixture
def started(make_hub, table):
    hub = make_hub(tables=3)
    assert seat_guests(hub, guest_names(12), seed=3).ok and start_session(hub, 1).ok
    return hub, table(1)


def payload(t, kind: str, body: dict) -> tuple[str, bytes]:
    event_id = t.next_id()
    return event_id, json.dumps({"v": 1, "id": event_id, "table": t.table, "kind": kind,
                                 "body": body}).encode()


def result(hub, t, game: int) -> tuple[str, bytes]:
    values = played_values(hub.state.setup, hub.state.session.tables[t.table].seats,
                           random.Random(game), lead=keys_lead(hub.state.setup.form, game))
    return payload(t, "result", {"game": game, "values": values})


def seat_check(hub, t) -> tuple[str, bytes]:
    seats = hub.state.session.tables[t.table].seats
    return payload(t, "seat-check", {"cards": {x: number(c) if c else 0 for x, c in zip(SEATS, seats)}})


def resent_until_answered(t, event_id: str, sent: bytes) -> dict:
    """As a board does: sent again until the hub (just started, maybe not yet subscribed)
    answers."""
    for _ in range(10):
        t.send_raw(sent)
        try:
            return t.ack_for(event_id, timeout=1.0)
        except queue.Empty:
            continue
    raise AssertionError(f"{event_id} never answered")


def test_game_2_before_game_1_is_held_then_saved_and_never_refused(started):
    hub, t1 = started
    check_id, check = seat_check(hub, t1)
    t1.send_raw(check)
    assert t1.ack_for(check_id)["ok"]
    one_id, one = result(hub, t1, 1)
    two_id, two = result(hub, t1, 2)
    t1.send_raw(two)                       # the broker delivers game 2 first
    assert t1.no_ack(within=1.0)           # held: no verdict the board would keep
    t1.send_raw(one)
    assert t1.ack_for(one_id)["ok"]
    t1.send_raw(two)                       # the board's resend, the same bytes
    ack = t1.ack_for(two_id)
    assert ack["ok"] and ack["msg"] == "GAME 2 SAVED"


def test_a_final_refusal_is_given_again_to_the_same_bytes_across_a_restart(make_hub, table):
    hub = make_hub(tables=3)
    assert seat_guests(hub, guest_names(12), seed=3).ok
    t1 = table(1)
    early_id, early = result(hub, t1, 1)
    t1.send_raw(early)                     # keyed before the session's bell
    first = t1.ack_for(early_id)
    assert first == {"v": 1, "id": early_id, "ok": False, "why": "NOT IN SESSION"}
    assert start_session(hub, 1).ok
    check_id, check = seat_check(hub, t1)
    t1.send_raw(check)
    assert t1.ack_for(check_id)["ok"]
    t1.send_raw(early)    # the same bytes, redelivered: judged again they would now be saved
    assert t1.ack_for(early_id) == first
    hub.stop()
    hub = make_hub()                       # the same journal, a new hub
    assert resent_until_answered(t1, early_id, early) == first
    assert hub.state.session.tables[1].entered == 0
    other = json.loads(early)
    other["body"]["game"] = 2              # the refused id with other content
    t1.send_raw(json.dumps(other).encode())
    assert t1.ack_for(early_id)["why"] == "ID REUSED"
    one_id, one = result(hub, t1, 1)       # keyed again, as the board's REFUSED asks
    t1.send_raw(one)
    assert t1.ack_for(one_id)["ok"]


def test_a_refusal_at_the_envelope_is_final_too_and_the_id_reused_is_refused_so(make_hub, table):
    """docs/protocol.md: `ID REUSED` "the id is journaled (or refused) with different
    content"; a refusal before any game rule (`BAD MESSAGE`, a value that is not a number)
    is recorded like every other, so the same id keyed again with other content is not
    saved — a board told REFUSED dropped it, and the journal must not count it."""
    hub = make_hub(tables=3)
    assert seat_guests(hub, guest_names(12), seed=3).ok and start_session(hub, 1).ok
    t1 = table(1)
    t1.send_raw(seat_check(hub, t1)[1])
    good_id, good = result(hub, t1, 1)
    bad = json.loads(good)
    bad["body"]["values"]["A"] = "15"                # a value that is not a number
    bad = json.dumps(bad).encode()
    t1.send_raw(bad)
    first = t1.ack_for(good_id)
    assert first == {"v": 1, "id": good_id, "ok": False, "why": "BAD MESSAGE"}
    t1.send_raw(bad)                                 # the same bytes again: the same answer
    assert t1.ack_for(good_id) == first
    t1.send_raw(good)                                # the same id, well formed this time
    assert t1.ack_for(good_id) == {"v": 1, "id": good_id, "ok": False, "why": "ID REUSED"}
    assert hub.state.session.tables[1].entered == 0
    hub.stop()
    hub = make_hub()                                 # recorded: the same after a restart
    assert resent_until_answered(t1, good_id, good)["why"] == "ID REUSED"
    assert resent_until_answered(t1, good_id, bad) == first
    again_id, again = result(hub, t1, 1)             # keyed again under a new id: saved
    t1.send_raw(again)
    assert t1.ack_for(again_id)["ok"]
