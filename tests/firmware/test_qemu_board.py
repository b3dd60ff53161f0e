"""The 32-bit board: the real firmware on MicroPython's Cortex-M3 build in QEMU
(hardware/sim/qemu_board.py), its display read back from the SSD1306 driver's
framebuffer, its serial line bridged to the broker by hub/serial_bridge.py."""
import argparse
import contextlib
import time
from pathlib import Path

import pytest

from hardware import qemu_image
from hardware.sim.board import VirtualBoard
from hardware.sim.display import png
from hardware.sim.qemu_board import QemuBoard
from hub.conductor import events as k
from hub.conductor.leads import keys_lead
from hub.conductor.state import session_over
from hub.journal import open_reader, read_events
from hub.service import Hub
from party import firmware
from party.drills.books import journaled_entries
from party.drills.hubs import InProcessHub
from party.drills.lockstep import LockstepParty, set_up_party
from party.keyed import hand_as_seen
from party.setup import create_party, guest_names, seat_guests, staff_action, start_session
from party.simulated_party import VirtualTables
from tests.firmware.test_entry import key_result

pytestmark = [pytest.mark.broker, pytest.mark.timeout(300)]
ART = Path(__file__).resolve().parents[2] / "build" / "test-artifacts" / "qemu"


@pytest.fixture(scope="module")
def image():
    """The board's MicroPython and firmware, built once for the tests here (cached)."""
    why = qemu_image.missing()
    if why:
        pytest.skip(f"the 32-bit board cannot be built here: {why}")
    return qemu_image.micropython(), qemu_image.firmware()


@pytest.fixture
def qemu_factory(image, broker, tmp_path):
    boards = []

    def make(table, **config):
        config.setdefault("resend_s", 2)
        b = QemuBoard(table, broker.host, broker.port, tmp_path / f"qemu-{table}", **config)
        boards.append(b.start())
        return b

    yield make
    for b in boards:
        b.stop()


def test_32_bit_board_boots_draws_its_display_and_keys_a_result_through_the_bridge(qemu_factory, hub):
    hub.screen(5)
    board = qemu_factory(5)
    # read from the framebuffer's pixels: the hub's screen came over UART1 and the bridge
    board.wait_for("# ENTER GAME 2", timeout=60)
    board.wait_for(lambda lines: lines[-1] == "T5", timeout=60)  # the bridge heard, the hub online
    assert board.display_on
    ART.mkdir(parents=True, exist_ok=True)
    board.screenshot(ART / "table-5-idle.png")
    key_result(board)
    ev = hub.wait(lambda: hub.events("result"), timeout=30)[0]
    assert ev["table"] == 5 and ev["id"].startswith("qemu-5.1.")
    assert ev["body"] == {"game": 2, "values": {"A": 15, "B": 0, "W": 1}}
    board.wait_for("GAME 2 SAVED", timeout=30)
    board.screenshot(ART / "table-5-saved.png")
    assert {"v": 1, "state": "online", "board": "qemu-5", "boot": 1, "fw": "0.1.0"} in hub.statuses


class KeyedTables(VirtualTables):
    """The room's tables, remembering the hand each table meant to key for each game."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.meant: dict[tuple[int, int], dict] = {}

    def _values(self, n, form, rng):
        played = super()._values(n, form, rng)
        if played and form.get("kind") == "result":
            self.meant[(n, form["game"])] = played[0]
        return played


def journal(path) -> list:
    with contextlib.closing(open_reader(path)) as db:
        return list(read_events(db))


def play_until(room, done, what: str, timeout: float = 150.0) -> None:
    room.play()
    deadline = time.monotonic() + timeout
    try:
        while not done():
            assert time.monotonic() < deadline, f"{what} not over in {timeout} s; the tables: {room.said[-5:]}"
            time.sleep(0.2)
    finally:
        room.hold()


def test_a_block_party_session_on_two_32_bit_boards_beside_two_virtual_boards(image, mosquitto, tmp_path):
    """Tables 1 and 2 are 32-bit boards on their serial lines, tables 3 and 4 virtual boards
    on MQTT; the guests key the seat check and every game from what each display shows,
    the head table's fourth game rings the bell, the others finish their games in hand,
    and the host moves the players on."""
    hub = Hub(tmp_path / "journal.sqlite3", mosquitto.host, mosquitto.port).start()
    shots: dict[str, bytes] = {}

    def make_board(n, host, port, data_dir):
        if n > 2:
            return VirtualBoard(n, host, port, data_dir=data_dir, resend_s=2)
        board = QemuBoard(n, host, port, data_dir, resend_s=2)
        # the bell as it is drawn, before the guests dismiss it
        board.on_frame = lambda lines: "** BELL **" in lines and shots.setdefault(f"table-{n}-bell", board.fb)
        return board

    room = KeyedTables(hub, seed=1896, data_dir=tmp_path / "boards", say=lambda s: None, pace=0.0,
                       make_board=make_board)
    room.said = []
    room.say = room.said.append
    try:
        assert create_party(hub, tables=4, form="block").ok
        room.start()
        room.hold()
        qemu = [room.boards[1], room.boards[2]]
        assert all(isinstance(b, QemuBoard) for b in qemu) and isinstance(room.boards[3], VirtualBoard)
        assert seat_guests(hub, guest_names(16), seed=7).ok
        seats = {n: t.seats for n, t in hub.state.session.tables.items()}
        for b in qemu:
            b.wait_for("# SEAT CHECK", timeout=60)
            shots[f"table-{b.table}-seat-check"] = b.fb
        play_until(room, lambda: all(t.seat_check for t in hub.state.session.tables.values()), "the seat check")
        assert start_session(hub, 1).ok
        for b in qemu:
            b.wait_for("# ENTER GAME 1", timeout=60)
            shots[f"table-{b.table}-game-1"] = b.fb
        play_until(room, lambda: session_over(hub.state.setup, hub.state.session), "session 1")
        s = hub.state.session
        assert s.bell is not None and s.bell.meaning == "finish"  # rung by the head table's fourth game
        assert {f"table-{n}-bell" for n in (1, 2)} <= set(shots)
        # the movement: each board shows the seat check of session 2, its guests' new cards
        assert staff_action(hub, k.RESEAT, {"seed": 11}).ok
        for b in qemu:
            b.wait_for("# SEAT CHECK", timeout=60)
            shots[f"table-{b.table}-movement"] = b.fb
        # The journal holds each game once, exactly as its table meant it, read off the display.
        state, events = hub.state, journal(tmp_path / "journal.sqlite3")
        results = [e for e in events if e.kind == k.RESULT]
        keyed = {(e.body["table"], e.body["game"]) for e in results}
        assert len(keyed) == len(results) == sum(len([g for g in room.meant if g[0] == n]) for n in seats)
        for e in results:
            n, game = e.body["table"], e.body["game"]
            assert hand_as_seen(state.setup, seats[n], e.body["values"],
                                lead=keys_lead(state.setup.form, game)) == room.meant[(n, game)]
        assert {e.body["table"] for e in events if e.kind == k.SEAT_CHECK} == {1, 2, 3, 4}
        assert {e.body["table"] for e in events if e.kind == k.BELL_ACK} >= {1, 2}
    finally:
        room.stop()
        hub.stop()
        ART.mkdir(parents=True, exist_ok=True)
        for name, fb in shots.items():
            png(fb, ART / f"{name}.png")


def test_32_bit_board_killed_with_3_entries_unacknowledged_resends_all_3_once_each(image, broker, tmp_path):
    """The outbox's promise on the 32-bit board: its littlefs on the flash file survives a
    power cut (the emulator SIGKILLed), and the entries on it go out when it is back."""
    handle = InProcessHub(tmp_path / "journal.sqlite3", broker).start()
    board = QemuBoard(1, broker.host, broker.port, tmp_path / "board", resend_s=2).start()
    try:
        set_up_party(handle, tables=1, seed=3, sessions=1, seat_check=False)
        party = LockstepParty(handle, {1: board}, seed=3)
        state, form = party.form_for(1, 1, 1)
        board.wait_for("# ENTER GAME 1", timeout=60)
        handle.stop()  # no hub: nothing is acknowledged
        board.wait_for("HUB?", timeout=60)
        for game in (1, 2, 3):
            ahead = {**form, "game": game, "title": f"GAME {game}"}  # as the board offers it
            party.key(state, 1, 1, ahead, party.values(state, 1, 1, ahead))
        board.wait_for(lambda lines: lines[-1].endswith("PEND 3"), timeout=30)
        board.kill()
        board.restart()
        board.wait_for(lambda lines: lines[-1].endswith("PEND 3"), timeout=60)  # read back from its flash
        assert any(line.endswith("boot 2, 3 unacked") for line in board.log)  # start.py's
        handle.start()
        board.wait_for(lambda lines: "PEND" not in lines[-1] and "HUB?" not in lines[-1], timeout=60)
        entries = journaled_entries(handle.journal)
        assert [entries.get((1, 1, "result", g)) for g in (1, 2, 3)] == [[e.values] for e in party.keyed]
    finally:
        board.stop()
        handle.stop()


NAMES = ["Zoë Łukasz", "José Núñez", "Ольга Петрова", "李雷"]


def test_the_virtual_board_and_the_32_bit_board_draw_the_same_pixels(image, broker, tmp_path):
    """For the same screen the unix port's board and the 32-bit board show the same
    characters, pixel for pixel: the seat check of guests whose names the font lacks."""
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    qemu = QemuBoard(1, broker.host, broker.port, tmp_path / "qemu").start()
    unix = VirtualBoard(1, broker.host, broker.port, data_dir=tmp_path / "unix", board_id="sim-1b")
    unix.start()
    try:
        assert create_party(hub, tables=1, form="block").ok
        assert seat_guests(hub, NAMES, seed=1).ok
        ART.mkdir(parents=True, exist_ok=True)
        before = []
        for step, key in enumerate(["#", None]):  # the idle screen, then the names
            deadline = time.monotonic() + 60
            while not (qemu.lines and qemu.lines == unix.lines != before):  # both drew the key's page
                assert time.monotonic() < deadline, (qemu.lines, unix.lines)
                time.sleep(0.1)
            assert qemu.pixels() == unix.pixels(), (qemu.lines, unix.read_pixels())
            qemu.screenshot(ART / f"names-{step}.png")
            if step == 1:  # every seat's guest by name, as the hub spells it for the font
                assert [line[:2] for line in qemu.lines[1:5]] == ["A ", "B ", "C ", "D "]
                shown = " ".join(qemu.lines[1:5])
                assert all(name in shown for name in ("ZOE LUKASZ", "JOSE NUNEZ", "OLGA PETROV", "LI LEI"))
                assert "?" not in shown
            before = qemu.lines
            if key:
                qemu.press(key)
                unix.press(key)
    finally:
        qemu.stop()
        unix.stop()
        hub.stop()


def test_party_firmware_build_makes_the_32_bit_board_and_its_romfs_image(image, tmp_path, capsys):
    parser = argparse.ArgumentParser(prog="party")
    firmware.add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["firmware", "build", "--board", "qemu", "--out", str(tmp_path / "o")])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "built for qemu (armv7m)" in out and str(image[0] / qemu_image.ELF) in out
    assert (tmp_path / "o" / "firmware.romfs").exists() and (tmp_path / "o" / "hal" / "qemu.mpy").exists()
    with pytest.raises(SystemExit):  # a board no one deploys to
        parser.parse_args(["firmware", "deploy", "--port", "/dev/ttyACM0", "--table", "7", "--ssid", "x",
                           "--board", "qemu"])


def test_without_micropythons_source_the_32_bit_board_says_what_is_missing(tmp_path):
    assert qemu_image.missing(tmp_path) == f"no MicroPython source tarball in {tmp_path} (the project's ../shared)"
    with pytest.raises(qemu_image.BuildError, match="no MicroPython source tarball"):
        qemu_image.micropython(tmp_path)
