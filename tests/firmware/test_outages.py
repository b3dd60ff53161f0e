"""Nothing keyed is lost through a broker outage or a power cut (issue 5, done when)."""
import time

import pytest

from tests.firmware.test_entry import key_result


def results(hub):
    return [e for e in hub.journal.values() if e["kind"] == "result"]


def test_broker_lost_board_reconnects_resubscribes_and_resends(board, hub, broker):
    # The full ten seconds, with the real hub, is test_done_when.py.
    hub.hold = True
    key_result(board)
    first = hub.wait(lambda: hub.events("result"))[0]

    broker.stop()
    board.wait_for(lambda lines: "HUB?" in lines[-1], timeout=5)
    time.sleep(3)
    received_before = len(hub.received)
    hub.hold = False
    broker.start()

    # Resent after the reconnect, with the same id; the hub (reconnected too) acks it.
    hub.wait(lambda: len(hub.received) > received_before, timeout=15)
    board.wait_for("GAME 2 SAVED", timeout=10)
    assert [e["id"] for e in results(hub)] == [first["id"]]
    # Resubscribed: a screen published after the restart reaches the board.
    hub.screen(3, lines=["TABLE 3", "AFTER RESTART"])
    board.wait_for("AFTER RESTART")
    assert "HUB?" not in board.lines[-1]


def test_power_cut_with_two_entries_unacked_both_resent_with_original_ids(board, hub):
    hub.hold = True
    key_result(board)
    board.wait_for("NO REPLY YET", timeout=6)
    board.press("#")  # next game, keyed while the first waits
    board.wait_for("GAME 3")
    for k in ["20#", "5#", "0", "#"]:  # a seat field takes its one key
        board.press(k)
    hub.wait(lambda: len(results(hub)) == 2)
    before = {e["id"]: e for e in results(hub)}
    assert all(i.startswith("sim-3.1.") for i in before)

    board.kill()  # power cut
    hub.received.clear()
    hub.hold = False
    board.restart()

    hub.wait(lambda: {e["id"] for e in hub.events("result")} >= set(before), timeout=10)
    for e in hub.events("result"):
        assert e == before[e["id"]]  # byte for byte the same event
    board.wait_for(lambda lines: "PEND" not in lines[-1])
    online = [s for s in hub.statuses if s["state"] == "online"]
    assert [s["boot"] for s in online][-2:] == [1, 2]  # boot counter advanced and persisted
    assert len(results(hub)) == 2  # recorded exactly once each

    # New events carry the new boot number.
    board.press("BELL")
    bell = hub.wait(lambda: hub.events("bell"))[0]
    assert bell["id"].startswith("sim-3.2.")


def test_hub_offline_shows_hub_and_entries_queue(board, hub):
    hub.set_status("offline")
    board.wait_for(lambda lines: lines[-1].startswith("T3 HUB?"))
    hub.set_status("online")
    board.wait_for(lambda lines: lines[-1] == "T3")


def test_power_cut_during_an_outbox_write_loses_only_the_torn_record(tmp_path):
    """A torn last line (power cut mid-append) fails its checksum and is
    skipped; every complete record survives, and the boot counter advances."""
    import subprocess

    from hardware.sim.board import build, tool

    code = build()
    script = """
import sys
sys.path.append(%r)
from outbox import Outbox
ob = Outbox(%r, "sim-9")
if sys.argv[1] == "write":
    ob.add(9, "result", {"game": 1, "values": {"A": 5}})
    ob.add(9, "result", {"game": 2, "values": {"A": 10}})
    ob.settle("sim-9.1.1")
    ob.add(9, "bell", {})
    with open(ob.path, "a") as f:
        f.write('0badc0de +{"v": 1, "id": "sim-9.1.4", "tab')  # torn mid-write
print(ob.boot, [e[0] for e in ob.entries])
""" % (str(code), str(tmp_path))
    (tmp_path / "t.py").write_text(script)

    def run(mode):
        out = subprocess.run([tool("micropython"), str(tmp_path / "t.py"), mode], capture_output=True,
                             text=True, check=True, env={"MICROPYPATH": ".frozen"})
        return out.stdout.strip()

    assert run("write") == "1 ['sim-9.1.2', 'sim-9.1.3']"
    assert run("read") == "2 ['sim-9.1.2', 'sim-9.1.3']"
    assert run("read") == "3 ['sim-9.1.2', 'sim-9.1.3']"


def test_a_silent_link_is_found_dead_by_keepalive_and_replaced(board, hub, broker):
    """The broker freezes (as a WiFi link that dies without a FIN or RST looks
    from the board): no TCP error ever comes, only the missing PINGRESP tells."""
    import os
    import signal

    import pytest

    proc = getattr(broker, "_proc", None)
    if proc is None:
        pytest.skip("needs Mosquitto as a child process to freeze")
    os.kill(proc.pid, signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        board.wait_for(lambda lines: "HUB?" in lines[-1], timeout=12)  # keepalive 5 s
        assert time.monotonic() - t0 > 3  # found by the keepalive, not by a TCP error
    finally:
        os.kill(proc.pid, signal.SIGCONT)
    board.wait_for(lambda lines: lines[-1] == "T3", timeout=15)
    key_result(board)
    board.wait_for("GAME 2 SAVED")


def test_hub_back_online_gets_every_unacked_event_at_once(board_factory, hub):
    """A restarted hub lost what it had not journaled; the boards resend as soon
    as its status turns online, not at their next periodic resend."""
    hub.screen(3)
    board = board_factory(3, resend_s=120)
    board.wait_for("# ENTER GAME 2")
    hub.hold = True
    key_result(board)
    first = hub.wait(lambda: hub.events("result"))[0]
    hub.set_status("offline")
    board.wait_for(lambda lines: "HUB?" in lines[-1])
    hub.hold = False
    hub.set_status("online")
    again = hub.wait(lambda: hub.events("result")[1:], timeout=5)[0]
    assert again == first
    board.wait_for("GAME 2 SAVED")


@pytest.mark.parametrize("romfs", [True, False], ids=["romfs", "mpy-files"])
def test_a_long_hub_outage_queues_entries_up_to_the_cap_and_loses_none(board_factory, hub, romfs):
    """Entries queue on the board (its 64 KB heap) while the hub is away; past
    MAX_QUEUED the board says QUEUE FULL instead of running out of memory, and
    every queued entry reaches the hub when it returns. Both deploys: from a ROMFS
    image, and the .mpy files a stock ESP32 / Pico W image loads into its heap."""
    hub.screen(3)
    board = board_factory(3, romfs=romfs)
    board.wait_for("# ENTER GAME 2")
    board.wait_for(lambda lines: "HUB?" not in lines[-1])
    hub.hold = True
    hub.set_status("offline")
    board.wait_for(lambda lines: "HUB?" in lines[-1])
    for i in range(16):
        for k in ["#", f"{i}#", "5#", "A"]:
            board.press(k)
        board.wait_for("# SEND  * BACK")
        board.press("#")
        board.wait_for(f"PEND {i + 1}")
        board.press("*")  # dismiss "HUB NOT REACHED"
    for _ in range(30):
        board.press("BELL")  # mashed: one claim at most
    board.press("#")
    board.wait_for("QUEUE FULL")
    assert board.heap()["free"] > 8000
    hub.hold = False
    hub.set_status("online")
    hub.wait(lambda: len([e for e in hub.journal.values() if e["kind"] == "result"]) == 16, timeout=20)
    # the bell's claim, sent last: waited for at the hub (the display's last line can be
    # a passing note while the outbox drains), then nothing left pending and no second claim
    hub.wait(lambda: any(e["kind"] == "bell" for e in hub.journal.values()), timeout=20)
    board.wait_for(lambda lines: "PEND" not in lines[-1], timeout=20)
    assert len([e for e in hub.journal.values() if e["kind"] == "bell"]) == 1
