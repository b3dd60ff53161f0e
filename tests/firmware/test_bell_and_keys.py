"""The conductor's bell, the table's bell button, and bad keypad input."""
import subprocess
import time

import pytest

from hardware.sim.board import FIRMWARE, sources, tool
from tests.firmware.test_entry import key_result


def bell_acks(hub):
    """One bell-ack event (one id) per bell; a resend of the same id is the same ack."""
    with hub._cond:
        return [e["body"]["bell"] for e in hub.journal.values() if e["kind"] == "bell-ack"]


def test_conductors_bell_shown_in_both_meanings_and_acked_once_per_bell(board, hub):
    hub.bell("s1-bell-1", "finish")
    board.wait_for("FINISH GAME")
    assert "START NO NEW ONE" in board.lines
    hub.wait(lambda: bell_acks(hub) == ["s1-bell-1"])
    board.press("#")  # dismissed
    # The retained screen carries the same bell: shown in idle, not acked again.
    hub.screen(3, state="finishing", bell={"id": "s1-bell-1", "meaning": "finish"})
    board.wait_for(lambda lines: "FINISH GAME" in lines and "** BELL **" not in lines)

    hub.screen(3, state="stopped", form=None, bell={"id": "s1-bell-2", "meaning": "stop"})
    board.wait_for("STOP NOW")
    hub.wait(lambda: bell_acks(hub) == ["s1-bell-1", "s1-bell-2"])

    board.restart()  # a rebooted board reads the retained bell but has acked it already
    board.wait_for("STOP NOW")
    time.sleep(1)
    assert bell_acks(hub) == ["s1-bell-1", "s1-bell-2"]
    assert "** BELL **" not in board.lines


def test_bell_button_short_claims_the_end_long_calls_the_conductor(board, hub):
    board.press("BELL")
    board.press("BELL")  # an impatient second press is the same claim
    # shown, if only until the stand-in hub's quick ack replaces it: read from every frame
    board.wait_for(lambda _: any("BELL RUNG" in frame for frame in board.frames))
    board.press("BELL-LONG")
    board.wait_for(lambda _: any("HOST CALLED" in frame for frame in board.frames))
    hub.wait(lambda: hub.events("call"))
    assert len(hub.events("bell")) == 1
    assert hub.events("bell")[0]["body"] == {}


def test_overlong_and_out_of_range_numbers_are_refused_on_the_board(board, hub):
    # A field whose next one holds a kept value waits for # whatever is typed (elsewhere
    # a full number takes itself: test_fewer_keys.py): here A, back from B's kept 15.
    board.press("#")
    board.press("16#")
    board.press("15#")
    board.wait_for("DOMINO BY")
    board.press("*")  # back to B, 15 kept
    board.press("***")  # its digits, then back to A
    lines = board.wait_for("> 16_")
    assert lines[1] == "A SPOTS"
    board.press("**")
    board.press("2345")
    board.wait_for("MAX 3 DIGITS")
    assert "> 234_" in board.lines  # what was typed is kept
    board.press("#")
    board.wait_for("ONLY 0 TO 200")
    board.press("*")  # delete the last digit
    board.wait_for("> 23_")
    board.press("B")
    board.wait_for("DIGITS ONLY")
    board.press("**")
    board.wait_for("> _")
    board.press("#")
    board.wait_for("TYPE A NUMBER")
    assert hub.events() == []  # nothing went out


def test_cancel_mid_entry_keeps_the_values(board, hub):
    board.press("#")
    board.press("15#")
    board.press("7")
    board.press("*")  # deletes the 7
    board.press("*")  # back to A, value kept
    board.wait_for("> 15_")
    board.press("*")
    board.press("*")
    board.press("*")  # A emptied, then asks
    board.wait_for("CANCEL ENTRY?")
    board.press("*")
    board.wait_for("CANCELLED")
    board.press("#")  # dismiss with the next key, which also reopens the entry
    board.wait_for("A SPOTS")
    board.press("15#")
    board.wait_for("> _")  # B was never keyed
    assert hub.events() == []


def test_keys_mashed_while_sending_send_nothing_twice(board, hub):
    hub.hold = True
    key_result(board)
    board.wait_for("SENDING...")
    board.press("#*#5#")
    board.wait_for("PLEASE WAIT")
    hub.wait(lambda: hub.events("result"))
    board.wait_for("NO REPLY YET", timeout=6)
    hub.ack(hub.events("result")[0])
    board.wait_for("GAME 2 SAVED")
    assert len(hub.journal) == 1


def test_seat_field_takes_a_to_d_or_0_for_none(board, hub):
    key_result(board, ["#", "10#", "5#", "7", "0"])  # 7: PICK A-D; 0 = none, taken at once
    ev = hub.wait(lambda: hub.events("result"))[0]
    assert ev["body"]["values"]["W"] == 0


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_every_firmware_file_compiles_with_mpy_cross(path, tmp_path):
    out = subprocess.run([tool("mpy-cross"), "-o", str(tmp_path / "x.mpy"), str(path)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
