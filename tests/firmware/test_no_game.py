"""No game in hand (issue 11): after the finish bell a table between games says so with one
key, and its session is over there; the conductor closes nothing by hand. On the unix port,
against a real Mosquitto and the real hub.

Grimm 1896 (000_ff8a6ed40036e836.txt), BLOCK GAME party: "As soon as four games have been
finished at any table the conductor rings the bell ... but he does not permit a new game to
be started".
"""
import random

import pytest

from hardware.sim.board import VirtualBoard
from party.hands import played_values
from hub.conductor.state import session_over
from hub.event import Proposal
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, start_session
from tests.test_end_to_end import journal_events

pytestmark = pytest.mark.broker


def key_result(hub, table: int, game: int) -> None:
    """A result as a table's board sends it (the other table's, not under test)."""
    seats = hub.state.session.tables[table].seats
    values = played_values(hub.state.setup, seats, random.Random(game), lead=game == 1)
    body = {"table": table, "board": f"test-{table}", "game": game, "values": values}
    assert hub.submit(Proposal(f"test-{table}.1.{game}", f"table:{table}", "table.result", body)).ok


def test_a_table_between_games_says_no_game_in_hand_with_one_key(broker, tmp_path):
    journal = tmp_path / "journal.sqlite3"
    hub = Hub(journal, broker.host, broker.port).start()
    board = VirtualBoard(2, broker.host, broker.port, data_dir=tmp_path / "board").start()
    try:
        assert create_party(hub, tables=2, form="block", seat_check=False).ok
        assert seat_guests(hub, guest_names(8), seed=2).ok
        assert start_session(hub, 1).ok
        board.wait_for("# ENTER GAME 1", timeout=20)
        assert "* NO GAME BEGUN" not in board.lines   # no bell yet: nothing to say
        key_result(hub, 2, 1)
        board.wait_for("# ENTER GAME 2")
        for game in range(1, 5):                         # table 1 finishes its four games
            key_result(hub, 1, game)
        board.wait_for("** BELL **")
        board.press("#")                                 # the bell seen
        lines = board.wait_for("* NO GAME BEGUN")
        assert "FINISH GAME" in lines and "# ENTER GAME 2" in lines
        board.press("*")
        board.wait_for("SESSION OVER", timeout=15)
        assert session_over(hub.state.setup, hub.state.session)
        kinds = [e.kind for e in journal_events(journal)]
        assert kinds.count("table.no-game") == 1
        assert "conductor.table-closed" not in kinds
    finally:
        board.stop()
        hub.stop()
