"""Points as they are made (issue 11): a Bergen table keys each header as it is made, and
the count that reaches ten rings the stop bell at every board at once. On the unix port,
against a real Mosquitto and the real hub.

Grimm 1896 (000_ff8a6ed40036e836.txt), BERGEN GAME party: "Ten points made at any table
ends a session, whereupon the bell is rung, and all tables stop playing at once"; a
double-header counts two, a triple-header three; "Players with opposite colors are
partners" (A with C, B with D).
"""
import json
import threading
import time

import pytest

from hardware.sim.board import VirtualBoard
from hardware.sim.party import key_count, key_in, undo_count
from hub.conductor import events as k
from hub.conductor import standings
from hub import protocol
from web.pages.corrections import entries as console_entries
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, staff_action, start_session
from tests.test_end_to_end import journal_events

pytestmark = pytest.mark.broker


def test_ten_points_made_mid_hand_stop_every_table_at_once(broker, tmp_path):
    journal = tmp_path / "journal.sqlite3"
    hub = Hub(journal, broker.host, broker.port).start()
    boards = {n: VirtualBoard(n, broker.host, broker.port, data_dir=tmp_path / f"b{n}").start()
              for n in (1, 2)}
    try:
        assert create_party(hub, tables=2, form="bergen", seat_check=False, in_play="each").ok
        assert seat_guests(hub, guest_names(8), seed=6).ok
        assert start_session(hub, 1).ok
        for b in boards.values():
            b.wait_for("A-D: POINTS MADE", timeout=20)
        t1 = boards[1]
        for made in (1, 2, 3):          # three triple-headers by A: A+C at 9, the hand goes on
            key_count(t1, {"MADE BY": "A", "HEADER": "3"})
            t1.wait_for(f"A+C {3 * made} B+D 0")
        key_count(t1, {"MADE BY": "B", "HEADER": "2"})   # B+D makes two
        t1.wait_for("B+D 2")
        assert hub.state.session.bell is None
        # C's double-header brings A+C to eleven: the stop bell at both boards within a second
        seen = {}
        done = threading.Event()

        def watch(n, b):
            b.wait_for("STOP NOW", timeout=10)
            seen[n] = time.monotonic()
            if len(seen) == 2:
                done.set()

        t1.press("C")
        t1.wait_for("> _")
        watchers = [threading.Thread(target=watch, args=(n, b)) for n, b in boards.items()]
        for w in watchers:
            w.start()
        sent = time.monotonic()
        t1.press("2")                   # the header's digit sends the count: no # (docs/firmware.md)
        assert done.wait(10)
        assert max(seen.values()) - sent < 1.0, seen
        kinds = [e.kind for e in journal_events(journal)]
        assert kinds.count("table.count") == 5 and "table.result" not in kinds
        bell = hub.state.session.bell
        assert bell.meaning == "stop"
        # the standings follow the points as keyed, and so do the punch-holes at the movement
        row = next(r for r in standings(hub.state)["progress"] if r["table"] == 1)
        assert row["points"] == {"AC": 11, "BD": 2}
        for b in boards.values():
            b.press("#")                # the bell seen: the boards acknowledge it
        deadline = time.monotonic() + 10
        while standings(hub.state)["session"]["state"] != "ended" and time.monotonic() < deadline:
            time.sleep(0.1)
        assert staff_action(hub, k.RESEAT, {"seed": 1}).ok
        t = hub.state.sessions[0].tables[1]
        winners = {t.seats[0], t.seats[2]}   # A and C
        punched = {c for _, c in hub.state.punches}
        assert winners <= punched and not ({t.seats[1], t.seats[3]} & punched)
    finally:
        for b in boards.values():
            b.stop()
        hub.stop()


def test_a_double_is_one_key_and_the_table_can_undo_it_until_the_hand_is_in(broker, tmp_path):
    """Grimm 1896 (000_ff8a6ed40036e836.txt), TIDDLE-A-WINK party: "A point is made whenever a
    player obtains two turns through playing a double"; "Tiddle-a-wink" counts one point. The
    double's seat is the only key: the board shows what was recorded, and `*` takes back the
    last count (a journaled entry of its own, shown on the console), refused once the hand is in."""
    journal = tmp_path / "journal.sqlite3"
    hub = Hub(journal, broker.host, broker.port).start()
    board = VirtualBoard(1, broker.host, broker.port, data_dir=tmp_path / "b1").start()
    try:
        assert create_party(hub, tables=1, form="tiddle-a-wink", seat_check=False,
                            in_play="each").ok
        assert seat_guests(hub, guest_names(4), seed=2).ok
        assert start_session(hub, 1).ok
        board.wait_for("A-D: POINTS MADE", timeout=20)
        board.press("B")                       # B played a double: one key, sent at once
        shown = board.wait_for("COUNTED")
        assert "DOUBLE BY      B" in shown and "* UNDO" in shown
        board.wait_for("A+C 0 B+D 1")
        board.press("D")                       # keyed D: it was C's double
        board.wait_for("A+C 0 B+D 2")
        board.wait_for("LAST D    * UNDO")   # the idle screen says what an undo takes back
        assert undo_count(board)[0] == "COUNT UNDONE"
        board.wait_for("A+C 0 B+D 1")
        assert not any(line.endswith("* UNDO") for line in board.lines)   # the last one only
        key_count(board, {"DOUBLE BY": "C"})
        board.wait_for("A+C 1 B+D 1")
        kinds = [e.kind for e in journal_events(journal)]
        assert kinds.count("table.count") == 3 and kinds.count("table.count-undone") == 1
        # the console's results of the session: the count undone, kept on record
        listed = [([(w["k"], w["shown"]) for w in e["keyed"]], e["annulled"], e["why"])
                  for e in console_entries(hub.state)]
        assert listed == [([("seat", "B")], False, ""), ([("seat", "D")], True, "undone at the table"),
                          ([("seat", "C")], False, "")]
        # the hand goes out: C's "Tiddle-a-wink" makes A+C's second point; the counts stand
        key_in(board, 1, {"DOMINO BY": "C"})
        board.wait_for("A+C 2 B+D 1")
        count = next(e for e in journal_events(journal) if e.kind == "table.count").id
        late = {"v": 1, "id": "late.1.1", "table": 1, "kind": "count-undone",
                "body": {"game": 1, "count": count}}
        assert hub.submit(protocol.parse_event(1, json.dumps(late).encode())).why == "HAND CLOSED"
    finally:
        board.stop()
        hub.stop()
    # replayed from the journal, the undone count stays undone
    again = Hub(journal, broker.host, broker.port)
    try:
        row = next(r for r in standings(again.state)["progress"] if r["table"] == 1)
        assert row["points"] == {"AC": 2, "BD": 1}
    finally:
        again.journal.close()
