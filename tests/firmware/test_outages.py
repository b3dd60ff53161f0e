"""Nothing keyed is lost through a broker outage or a power cut (issue 5, done when)."""
import time

from tests.firmware.test_entry import key_result


def results(hub):
    return [e for e in hub.journal.values() if e["kind"] == "result"]


def test_broker_lost_for_ten_seconds_board_reconnects_resubscribes_and_resends(board, hub, broker):
    hub.hold = True
    key_result(board)
    first = hub.wait(lambda: hub.events("result"))[0]

    broker.stop()
    board.wait_for(lambda lines: "HUB?" in lines[-1], timeout=5)
    time.sleep(10)
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
    for k in ["20#", "5#", "0#", "#"]:
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
