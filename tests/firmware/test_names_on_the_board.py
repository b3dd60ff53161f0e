"""Guests whose names are not in the board's font read them at the seat check, transliterated
by the hub (hub/conductor/on_board.py), as the display's pixels show them (issue 22). On
the unix port, against a real Mosquitto and the real hub; the display read back from the
framebuffer the board's driver draws, and saved as a PNG beside the docs.

Grimm 1896 (000_ff8a6ed40036e836.txt), BERGEN GAME: "white and red cards each marked
Table 1 A, Table 1 B, Table 2 A, and so on".
"""
from pathlib import Path

import pytest

from hardware.sim.board import VirtualBoard
from hub.conductor.cards import SEATS
from hub.service import Hub
from party.setup import create_party, seat_guests, start_session

pytestmark = pytest.mark.broker

NAMES = ["Zoë Łukasz", "José Núñez", "Ольга Петрова", "李雷"]
SHOWN = {"Zoë Łukasz": "ZOE LUKASZ", "José Núñez": "JOSE NUNEZ", "Ольга Петрова": "OLGA PETROVA", "李雷": "LI LEI"}
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def test_the_seat_check_shows_names_of_any_script_in_the_boards_letters(broker, tmp_path):
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    board = VirtualBoard(1, broker.host, broker.port, data_dir=tmp_path / "board").start()
    try:
        assert create_party(hub, tables=1, form="bergen").ok
        assert seat_guests(hub, NAMES, seed=4).ok
        assert start_session(hub, 1).ok
        board.wait_for("# SEAT CHECK", timeout=20)
        board.press("#")
        lines = board.wait_for("# ALL RIGHT")
        holders = hub.state.holders
        seated = [holders[card] for card in hub.state.session.tables[1].seats]
        assert sorted(seated) == sorted(NAMES)
        for x, name, card in zip(SEATS, seated, ("W1A", "W1B", "R1A", "R1B")):
            row = next(line for line in lines if line.startswith(f"{x} "))
            assert row == f"{x} {SHOWN[name]}"[:16 - len(card) - 1].ljust(16 - len(card)) + card
        assert board.read_pixels() == lines   # what the panel's pixels show
        board.screenshot(IMG / "board-seat-check-names.png")
    finally:
        board.stop()
        hub.stop()
