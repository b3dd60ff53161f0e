"""A board whose firmware is deployed as a ROMFS image (party firmware deploy
--romfs): every module but main.py is imported from the image at /rom, and it
behaves as the .mpy deploy does, outbox and power cut included."""
import pytest

from hardware.sim.board import VirtualBoard, romfs_image
from tests.firmware.test_entry import key_result

pytestmark = pytest.mark.broker


def test_board_booted_from_romfs_keys_a_result_and_keeps_it_across_a_power_cut(broker, hub, tmp_path):
    # main.py alone is on the "flash" beside the image: without the image
    # mounted the board could not import a single module of its own.
    assert sorted(p.name for p in romfs_image().iterdir()) == ["firmware.romfs", "main.py"]
    hub.screen(3)
    board = VirtualBoard(3, broker.host, broker.port, tmp_path / "board", romfs=True, resend_s=2).start()
    try:
        board.wait_for(lambda lines: "# ENTER GAME 2" in lines and "HUB?" not in lines[-1])
        hub.hold = True  # no acks: the entry stays in the outbox
        key_result(board)
        first = hub.wait(lambda: hub.events("result"))[0]
        board.wait_for("PEND 1")
        board.kill()
        board.restart()
        board.wait_for("PEND 1")
        hub.hold = False
        hub.wait(lambda: len(hub.events("result")) >= 2)
        board.wait_for(lambda lines: "PEND" not in lines[-1])
        assert {e["id"] for e in hub.events("result")} == {first["id"]}  # the same entry, resent
        # the image's heap block is the board's flash: left out of the figures,
        # and nothing else is (its bytes in 32-byte blocks, and the bytearray's block)
        size = (romfs_image() / "firmware.romfs").stat().st_size
        assert board.rom_heap == (size + 31) // 32 * 32 + 32
        assert 0 < board.heap()["alloc"] < 64 * 1024
    finally:
        board.stop()
