"""A board without WiFi: the firmware's serial link and hub/serial_bridge.py,
joined by a pty pair as by a USB cable."""
import json
import os
import pty
import time
import select
import termios
import threading
import tty

import pytest

from hardware.sim.hub_double import form
from hub.serial_bridge import SerialBridge


class NullModem:
    """Two pseudo-terminals joined master to master (what `socat` does), so the
    board and the bridge each open a real tty device. The bridge's end is a stable
    path (as udev names a board's USB serial), so its cable can be pulled and
    plugged in again."""

    def __init__(self, where):
        self.m1, s1 = pty.openpty()
        tty.setraw(s1)  # no echo, no line editing: a plain serial line
        self.board_end, self.bridge_end = os.ttyname(s1), str(where / "ttyACM0")
        self.s1 = s1
        self.plug()
        self._stop = threading.Event()
        threading.Thread(target=self._shuttle, daemon=True).start()

    def plug(self):
        self.m2, self.s2 = pty.openpty()
        tty.setraw(self.s2)
        if os.path.lexists(self.bridge_end):
            os.unlink(self.bridge_end)
        os.symlink(os.ttyname(self.s2), self.bridge_end)

    def unplug(self):
        """The bridge's device vanishes; what the board writes meanwhile is lost."""
        os.unlink(self.bridge_end)
        m2, s2, self.m2 = self.m2, self.s2, -1
        os.close(m2)
        os.close(s2)

    def _shuttle(self):
        while not self._stop.is_set():
            peer = {self.m1: self.m2, self.m2: self.m1}
            ready, _, _ = select.select([fd for fd in peer if fd >= 0], [], [], 0.2)
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                    if peer[fd] >= 0:
                        os.write(peer[fd], data)
                except OSError:
                    pass

    def lose_unread(self):
        """What the board wrote while no bridge ran is gone, as on a cable nobody read
        (the hub machine rebooting, the bridge process restarted)."""
        time.sleep(0.3)  # the shuttle's last lines in flight
        termios.tcflush(self.s2, termios.TCIFLUSH)

    def close(self):
        self._stop.set()
        time.sleep(0.3)  # the shuttle's last select
        for fd in (self.m1, self.s1, self.m2, self.s2):
            if fd >= 0:
                os.close(fd)


@pytest.fixture
def modem(tmp_path):
    m = NullModem(tmp_path)
    yield m
    m.close()


@pytest.fixture
def serial_board(broker, hub, board_factory, modem):
    hub.screen(5)
    bridge = SerialBridge(modem.bridge_end, broker.host, broker.port, repeat_s=1).start()
    board = board_factory(5, serial=modem.board_end)
    yield board, bridge
    bridge.stop()


def test_serial_board_keys_a_result_through_the_bridge(serial_board, hub):
    board, bridge = serial_board
    board.wait_for("# ENTER GAME 2")
    board.wait_for(lambda lines: lines[-1] == "T5")  # bridge heard, hub online
    for k in ["#", "15#", "0#", "A", "#"]:
        board.press(k)
    ev = hub.wait(lambda: hub.events("result"))[0]
    assert ev["table"] == 5 and ev["id"].startswith("sim-5.1.")
    board.wait_for("GAME 2 SAVED")
    assert {"v": 1, "state": "online", "board": "sim-5", "boot": 1, "fw": "0.1.0"} in hub.statuses
    hub.bell("s1-bell-9", "stop")
    board.wait_for("STOP NOW")
    hub.wait(lambda: hub.events("bell-ack"))


def test_bridge_loses_the_broker_board_shows_hub_and_resends_after(serial_board, hub, broker):
    board, bridge = serial_board
    board.wait_for(lambda lines: lines[-1] == "T5")
    broker.stop()
    board.wait_for(lambda lines: "HUB?" in lines[-1])
    for k in ["#", "20#", "5#", "0", "#"]:
        board.press(k)
    board.wait_for("HUB NOT REACHED")
    broker.start()
    ev = hub.wait(lambda: hub.events("result"), timeout=15)[0]
    assert ev["body"]["values"] == {"A": 20, "B": 5, "W": 0}
    board.wait_for(lambda lines: "PEND" not in lines[-1] and "HUB?" not in lines[-1])


def test_bridge_refuses_lines_for_another_tables_topics(broker, hub, tmp_path):
    modem = NullModem(tmp_path)
    bridge = SerialBridge(modem.bridge_end, broker.host, broker.port).start()
    try:
        ok = {"v": 1, "state": "online", "board": "sim-6", "boot": 1, "fw": "0.1.0"}
        bridge.handle_line(json.dumps({"topic": "party/table/6/status", "payload": ok}).encode())
        bridge.handle_line(b"a log line from the board")
        bridge.handle_line(json.dumps({"topic": "party/table/7/event", "payload": {"v": 1}}).encode())
        bridge.handle_line(json.dumps({"topic": "party/hub/status", "payload": {"v": 1}}).encode())
        hub.wait(lambda: ok in hub.statuses)
        bridge.handle_line(json.dumps({"topic": "party/table/6/event", "payload": {
            "v": 1, "id": "sim-6.1.1", "table": 6, "kind": "bell", "body": {}}}).encode())
        hub.wait(lambda: hub.events("bell"))
        assert [e["table"] for e in hub.received] == [6]
    finally:
        bridge.stop()
        modem.close()


def key_a_result_and_see_it_journaled_once(board, hub, game):
    board.wait_for(f"# ENTER GAME {game}", timeout=15)
    board.wait_for(lambda lines: lines[-1] == "T5")
    for k in ["#", "15#", "0#", "A", "#"]:
        board.press(k)
    board.wait_for(f"GAME {game} SAVED")
    results = [e for e in hub.journal.values() if e["kind"] == "result"]
    assert len(results) == 1 and results[0]["body"]["game"] == game


def test_a_board_up_before_the_bridge_is_asked_who_it_is(broker, hub, board_factory, modem):
    """The hub machine rebooted: the board wrote its status line before any bridge
    read it. The bridge asks who is there; the board answers and gets its screens."""
    hub.screen(5)
    board = board_factory(5, serial=modem.board_end)
    board.wait_for(lambda lines: "HUB?" in lines[-1])
    modem.lose_unread()
    bridge = SerialBridge(modem.bridge_end, broker.host, broker.port, repeat_s=1).start()
    try:
        key_a_result_and_see_it_journaled_once(board, hub, 2)
        assert hub.statuses[-1]["state"] == "online"
    finally:
        bridge.stop()


def test_a_restarted_bridge_learns_the_board_again(serial_board, hub, broker, modem):
    """The bridge process restarted while the board ran on: within the board's 30 s
    of patience, so the board never saw the link down and would not announce itself."""
    board, bridge = serial_board
    board.wait_for(lambda lines: lines[-1] == "T5")
    hub.wait(lambda: len(hub.statuses) == 2)  # its first line, and its status on hearing the bridge
    bridge.stop()
    hub.wait(lambda: hub.statuses[-1]["state"] == "offline")
    hub.screen(5, seq=2, form=form(3))  # the party moved on while the bridge was away
    modem.lose_unread()
    again = SerialBridge(modem.bridge_end, broker.host, broker.port, repeat_s=1).start()
    try:
        key_a_result_and_see_it_journaled_once(board, hub, 3)
        assert hub.statuses[-1]["state"] == "online"
    finally:
        again.stop()


def test_a_bridge_whose_cable_was_replugged_asks_the_board_again(serial_board, hub, modem):
    """The USB cable pulled and plugged in again: the bridge waits for its device to
    come back, asks who is there, and the board, which never counted the link down,
    answers and goes on."""
    board, bridge = serial_board
    board.wait_for(lambda lines: lines[-1] == "T5")
    hub.wait(lambda: len(hub.statuses) == 2)
    modem.unplug()
    hub.wait(lambda: hub.statuses[-1]["state"] == "offline")
    hub.screen(5, seq=2, form=form(3))
    modem.plug()
    key_a_result_and_see_it_journaled_once(board, hub, 3)
    assert hub.statuses[-1]["state"] == "online"
