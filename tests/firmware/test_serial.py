"""A board without WiFi: the firmware's serial link and hub/serial_bridge.py,
joined by a pty pair as by a USB cable."""
import json
import os
import pty
import queue
import select
import time
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
    plugged in again.

    One thread, the shuttle, carries the bytes, and it alone opens and closes the
    bridge's end (`plug`, `unplug` wait for it to have done so between two of its
    selects): a descriptor closed under a select, or its number taken by the next
    one opened, would stop the line or send bytes to the wrong device."""

    def __init__(self, where):
        self.m1, s1 = pty.openpty()
        tty.setraw(s1)  # no echo, no line editing: a plain serial line
        self.board_end, self.bridge_end = os.ttyname(s1), str(where / "ttyACM0")
        self.s1 = s1
        self.m2 = self.s2 = -1
        self._early: bytearray | None = None  # plug(board_first=True): the board's line kept meanwhile
        self._bridge_spoke = False
        self._changes: queue.SimpleQueue = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        self._stop = threading.Event()
        self._shuttle_thread = threading.Thread(target=self._shuttle, daemon=True)
        self._shuttle_thread.start()
        self.plug()

    def plug(self, board_first: bool = False):
        """The cable in. `board_first`: the bridge's first line after it opened its end
        is the board's, and what the bridge wrote before is lost (the board spoke
        before any ask of the bridge's reached it: a resend falling due as the cable
        goes in)."""
        def plug():
            self.m2, self.s2 = pty.openpty()
            tty.setraw(self.s2)
            if os.path.lexists(self.bridge_end):
                os.unlink(self.bridge_end)
            os.symlink(os.ttyname(self.s2), self.bridge_end)
            self._early, self._bridge_spoke = (bytearray() if board_first else None), False
        self._between_selects(plug)

    def unplug(self):
        """The bridge's device vanishes; what the board writes meanwhile is lost."""
        def unplug():
            os.unlink(self.bridge_end)
            os.close(self.m2)
            os.close(self.s2)
            self.m2 = self.s2 = -1
        self._between_selects(unplug)

    def _between_selects(self, change):
        done = threading.Event()
        self._changes.put((change, done))
        os.write(self._wake_w, b".")
        assert done.wait(10), "the null modem's shuttle thread is not running"

    def _shuttle(self):
        while not self._stop.is_set():
            peer = {self.m1: self.m2, self.m2: self.m1}
            ready, _, _ = select.select([fd for fd in peer if fd >= 0] + [self._wake_r], [], [], 0.2)
            for fd in ready:
                if fd != self._wake_r:
                    self._carry(fd, peer[fd])
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
                while not self._changes.empty():
                    change, done = self._changes.get()
                    change()
                    done.set()

    def _carry(self, fd, to):
        try:
            data = os.read(fd, 4096)
        except OSError:
            return
        if to < 0:
            return  # the cable is out
        if self._early is not None:
            if fd == self.m1:
                self._early += data
            else:
                self._bridge_spoke = True  # its end is open
            if self._bridge_spoke and b"\n" in self._early:
                self._write(self.m2, bytes(self._early))
                self._early = None
            return
        self._write(to, data)

    @staticmethod
    def _write(fd, data):
        while data:  # a pty may take part of it
            try:
                data = data[os.write(fd, data):]
            except OSError:
                return

    def lose_unread(self):
        """What the board wrote while no bridge ran is gone, as on a cable nobody read
        (the hub machine rebooting, the bridge process restarted)."""
        time.sleep(0.3)  # the shuttle's last lines in flight
        self._between_selects(lambda: termios.tcflush(self.s2, termios.TCIFLUSH))

    def close(self):
        self._stop.set()
        os.write(self._wake_w, b".")
        self._shuttle_thread.join()
        for fd in (self.m1, self.s1, self.m2, self.s2, self._wake_r, self._wake_w):
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


def test_a_replugged_board_that_speaks_before_it_is_asked_is_online_again(serial_board, hub, modem):
    """A result keyed while the cable was out: the board resends it at the moment the
    cable goes in, before the bridge's who reaches it. That first line is not the
    board's status, so the bridge asks on until the status comes: the hub hears the
    table online again, and the result is journaled once."""
    board, bridge = serial_board
    board.wait_for(lambda lines: lines[-1] == "T5")
    hub.wait(lambda: len(hub.statuses) == 2)
    modem.unplug()
    hub.wait(lambda: hub.statuses[-1]["state"] == "offline")
    for k in ["#", "15#", "0#", "A", "#"]:
        board.press(k)
    board.wait_for("NO REPLY YET")  # written into the pulled cable: kept, sent again by itself
    modem.plug(board_first=True)
    board.wait_for("GAME 2 SAVED", timeout=15)
    hub.wait(lambda: hub.statuses[-1]["state"] == "online")
    assert [e["body"]["game"] for e in hub.journal.values() if e["kind"] == "result"] == [2]
