"""Issue 5, done when: on the unix port against a real Mosquitto and the real
hub (hub/service.py), a virtual board keys a result, loses the broker for ten
seconds, is killed (power cut) with two entries unacknowledged, restarts, and
all entries are recorded exactly once."""
import time

import pytest

from hardware.sim.board import VirtualBoard
from hardware.sim.party import key_in
from hub.service import Hub
from tests.test_end_to_end import TABLE, journaled, result_values, seat_check_seen, seen, set_up_party

pytestmark = pytest.mark.broker


def test_result_broker_outage_power_cut_with_two_unacked_all_recorded_once(broker, tmp_path):
    journal = tmp_path / "journal.sqlite3"
    hub = Hub(journal, broker.host, broker.port).start()
    board = VirtualBoard(TABLE, broker.host, broker.port, data_dir=tmp_path / "board", resend_s=2).start()
    try:
        set_up_party(hub)
        board.wait_for("# SEAT CHECK")
        assert key_in(board, 0, seat_check_seen(hub.state, TABLE))
        board.wait_for("# ENTER GAME 1")
        keyed = {1: result_values(hub.state, TABLE, 1)}
        assert key_in(board, 1, seen(hub.state, TABLE, 1, keyed[1]))
        board.wait_for("GAME 1 SAVED")

        broker.stop()  # ten seconds without the broker
        board.wait_for("HUB?")
        time.sleep(10)
        broker.start()
        board.wait_for(lambda lines: "HUB?" not in lines[-1] and "# ENTER GAME 2" in lines, timeout=20)

        keyed[2], keyed[3] = result_values(hub.state, TABLE, 2), result_values(hub.state, TABLE, 3)
        meant = {g: seen(hub.state, TABLE, g, keyed[g]) for g in (2, 3)}
        hub.stop()  # nobody acknowledges now
        board.wait_for("HUB?")
        assert key_in(board, 2, meant[2])
        board.wait_for("# ENTER GAME 3")  # the board moves on while game 2 waits
        assert key_in(board, 3, meant[3])
        board.wait_for("PEND 2")

        board.kill()  # power cut with two entries unacknowledged
        board.restart()
        board.wait_for("PEND 2")  # both still there after the reboot
        hub = Hub(journal, broker.host, broker.port).start()
        board.wait_for(lambda lines: "PEND" not in lines[-1] and "HUB?" not in lines[-1], timeout=30)

        results = journaled(journal)
        assert sorted(body["game"] for _, body in results) == [1, 2, 3]  # each exactly once
        assert {body["game"]: body["values"] for _, body in results} == keyed
        ids = [i for i, _ in results]
        assert len(set(ids)) == 3
    finally:
        board.stop()
        hub.stop()
