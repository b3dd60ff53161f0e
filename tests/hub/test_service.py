"""The hub's promises to a table (docs/protocol.md): an ack only after the journal
commit, a resend recorded once, and bad input refused with a reason while the
hub keeps running and the journal stays as it was."""
import json
import logging
import time

import pytest

from hub import conductor, seal
from hub.conductor import events as k
from hub.conductor.cards import SEATS, number
from hub.journal import open_reader
from party.setup import guest_names, seat_guests, staff_action, start_session

pytestmark = pytest.mark.broker


def seat_check(hub, table):
    """The card numbers table `table` keys at its seat check (the book's seats)."""
    form = conductor.screens(hub.state)[table]["form"]
    assert form["kind"] == "seat-check"
    seats = hub.state.session.tables[table].seats
    return {x: number(c) if c else 0 for x, c in zip(SEATS, seats)}


@pytest.fixture
def party(make_hub, table):
    hub = make_hub(tables=3)
    assert seat_guests(hub, guest_names(12), seed=3).ok
    assert start_session(hub, 1).ok
    return hub, table(3)


def journal_rows(hub):
    return [(e.seq, e.id, e.kind, e.body) for e in hub.journal.events()]


def test_an_event_is_acked_after_the_commit_and_a_resend_is_recorded_once(party):
    hub, t3 = party
    event_id = t3.send("seat-check", {"cards": seat_check(hub, 3)})
    ack = t3.ack_for(event_id)
    assert ack["ok"] and ack["msg"]
    rows = journal_rows(hub)
    assert rows[-1][:3] == (ack["seq"], event_id, "table.seat-check")
    # The board did not hear the ack and sends the same event again.
    t3.send("seat-check", {"cards": rows[-1][3]["cards"]}, event_id=event_id)
    again = t3.ack_for(event_id)
    assert again["ok"] and again["seq"] == ack["seq"]
    assert journal_rows(hub) == rows
    # Each carries its row's seal, the chain's head as it was committed (issue 24): what
    # the board shows as a receipt is what the journal holds, and a resend's is the same.
    assert ack["seal"] == again["seal"] == hub.journal.head[1]
    assert hub.journal.head[0] == ack["seq"]
    assert seal.check(open_reader(hub.journal.path)).head == ack["seal"]


def test_a_reused_id_with_other_content_is_refused_and_changes_nothing(party):
    hub, t3 = party
    cards = seat_check(hub, 3)
    event_id = t3.send("seat-check", {"cards": cards})
    assert t3.ack_for(event_id)["ok"]
    rows = journal_rows(hub)
    t3.send("call", {}, event_id=event_id)
    assert t3.ack_for(event_id) == {"v": 1, "id": event_id, "ok": False, "why": "ID REUSED"}
    assert journal_rows(hub) == rows


@pytest.mark.parametrize("mangle, why", [
    (lambda m: b"{not json", None),                                   # no id to answer to
    (lambda m: json.dumps(dict(m, v=2)).encode(), "UPDATE FIRMWARE"),
    (lambda m: json.dumps(dict(m, v=2, id="\ud800")).encode(), None),   # an id no reply can carry
    (lambda m: json.dumps(dict(m, body={**m["body"], "pad": "x" * 4000})).encode(), None),  # TOO LONG
    (lambda m: json.dumps(dict(m, table=2)).encode(), "WRONG TABLE"),
    (lambda m: json.dumps(dict(m, kind="cheat")).encode(), "UNKNOWN KIND"),
    (lambda m: json.dumps(dict(m, body={"game": 1, "values": "all of them"})).encode(), "BAD MESSAGE"),
])
def test_bad_input_is_refused_with_a_logged_reason_and_the_hub_carries_on(party, caplog, mangle, why):
    hub, t3 = party
    rows = journal_rows(hub)
    good = {"v": 1, "id": t3.next_id(), "table": 3, "kind": "result", "body": {"game": 1, "values": {"A": 0}}}
    with caplog.at_level(logging.INFO, logger="hub"):
        t3.send_raw(mangle(good))
        if why:
            assert t3.ack_for(good["id"]) == {"v": 1, "id": good["id"], "ok": False, "why": why}
        else:
            assert t3.no_ack(within=1.0)
    assert any("refused" in r.getMessage() for r in caplog.records)
    assert journal_rows(hub) == rows
    # Still running: the next good event is taken.
    ok = t3.send("seat-check", {"cards": seat_check(hub, 3)})
    assert t3.ack_for(ok)["ok"]


def test_an_unknown_table_is_refused_without_an_answer(party, table, caplog):
    hub, _ = party
    rows = journal_rows(hub)
    t9 = table(9)
    with caplog.at_level(logging.INFO, logger="hub"):
        t9.send("bell", {})
        assert t9.no_ack(within=1.0)
    assert any("table 9 is not at this party" in r.getMessage() for r in caplog.records)
    assert journal_rows(hub) == rows


def test_a_refusal_by_the_party_rules_reaches_the_table_and_journals_nothing(party):
    hub, t3 = party
    rows = journal_rows(hub)
    event_id = t3.send("result", {"game": 7, "values": {"A": 1}})  # no seat check yet, no game 7
    ack = t3.ack_for(event_id)
    assert not ack["ok"] and 0 < len(ack["why"]) <= 16
    assert journal_rows(hub) == rows


def wait_until(test, timeout=5.0):
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_a_late_board_finds_its_screen_retained_and_the_bell_is_broadcast(party, table):
    hub, t3 = party
    t1 = table(1)  # connects after the party started: its screen is waiting for it
    wait_until(lambda: t1.screens)
    screen = t1.screens[-1]
    assert (screen["v"], screen["table"], screen["state"]) == (1, 1, "playing")
    assert screen["form"]["kind"] == "seat-check" and screen["seq"] <= hub.seq
    assert staff_action(hub, k.BELL, {"meaning": "stop"}).ok
    wait_until(lambda: t1.cmds and t3.cmds)
    bell = conductor.current_bell(hub.state)
    assert t1.cmds[-1] == t3.cmds[-1] == {"v": 1, "cmd": "bell", "bell": bell}
    assert bell["meaning"] == "stop"
    # The retained screen carries the same bell for a board that missed the broadcast.
    wait_until(lambda: t1.screens[-1]["bell"] == bell)


def test_with_provisioning_only_the_tables_board_speaks_for_it(broker, tmp_path, table):
    # party/provision.py: the board provisioned for table 3 is "table-3"; a real board
    # deployed with that config adds its chip id ("table-3-<chip>").
    from hub.service import Hub
    from party.setup import create_party
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port,
              boards={n: f"table-{n}" for n in (1, 2, 3)}).start()
    try:
        assert create_party(hub, tables=3, form="draw").ok
        rows = journal_rows(hub)
        for board in ("table-30-a0a1a2a3a4a5", "table-1", "sim-3"):  # not table 3's board
            impostor = table(3, board=board)
            impostor.send("call", {})
            assert impostor.no_ack(within=0.5)
        assert journal_rows(hub) == rows
        for board in ("table-3", "table-3-a0a1a2a3a4a5"):
            t3 = table(3, board=board)
            assert t3.ack_for(t3.send("call", {}))["ok"]
    finally:
        hub.stop()
