"""A late-comer in the seat a guest who left vacated, when every card is held (issue 12
item 4), checked in at the table by the real firmware on the MicroPython unix port.

Grimm 1896 (000_ff8a6ed40036e836.txt), LIST: "Late-comers will have to be satisfied to
receive vacant seats at the last tables." TRAY: "The card which a person draws will decide
at which table and chair he is to be seated." The late-comer's card is a spare one, the
second card for the seat ("TABLE 2 C/2", hub/conductor/cards.py); the table's board checks
its seats again, shows it as printed and keys it as printed.
"""
import pytest

from hardware.sim.board import VirtualBoard
from hub.conductor import events as k
from hub.conductor.cards import SEATS, label, number
from hub.event import Proposal
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, staff_action, start_session

pytestmark = pytest.mark.broker


def test_a_late_comer_in_a_vacated_seat_is_checked_in_by_the_tables_board(broker, tmp_path):
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    board = VirtualBoard(2, broker.host, broker.port, data_dir=tmp_path / "b2").start()
    try:
        assert create_party(hub, tables=2, form="block").ok
        assert seat_guests(hub, guest_names(8), seed=3).ok
        assert start_session(hub, 1).ok
        seats = hub.state.session.tables[2].seats
        cards = {x: number(c) for x, c in zip(SEATS, seats)}
        assert hub.submit(Proposal("t2.check", "table:2", k.SEAT_CHECK,
                                   {"table": 2, "board": "test-2", "cards": cards})).ok
        board.wait_for("GAME 1 OF 4", timeout=20)
        leaver = hub.state.holders[seats[2]]
        assert staff_action(hub, k.GUEST_LEFT, {"guest": leaver, "why": "train home"}).ok
        v = staff_action(hub, k.WALK_IN, {"guest": "Late Lou"})
        assert (v.ok, v.msg) == (True, "TABLE 2 C")
        spare = hub.state.guests["Late Lou"].card
        assert (spare, label(spare)) == (seats[2] + "/2", "TABLE 2 C/2")   # every card is held
        board.wait_for("# SEAT CHECK", timeout=20)   # the hub asks the table to check its seats
        board.press("#")   # the seat check's page: who sits where now, the card as printed
        lines = board.wait_for("# ALL RIGHT", timeout=20)
        assert "C LATE LOU  2C/2" in lines, lines
        board.press("C")                             # his seat's field: the spare as printed
        board.wait_for("> 2C/2_", timeout=20)
        board.press("***")
        board.wait_for(lambda lines: lines[2] == "> _", timeout=20)
        board.press("2C2#")                          # keyed from the card in his hand
        lines = board.wait_for("# ALL RIGHT", timeout=20)
        assert "C LATE LOU  2C/2" in lines, lines
        board.press("#")
        board.wait_for("SEATS OK", timeout=20)
        board.wait_for("GAME 1 OF 4", timeout=20)
        assert hub.state.session.tables[2].seat_check is not None
    finally:
        board.stop()
        hub.stop()
