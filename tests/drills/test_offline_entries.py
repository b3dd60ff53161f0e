"""Found by the cut-table drill: a board cut off from the hub keys the following games
with the last form the hub sent it (firmware screen.form), and in Block, Draw and All
Quarters that form, game 1's, asks who led. The hub refused those later games as
UNKNOWN FIELD and the board, told they were refused, dropped them: three games of a
table lost to one WiFi outage. The real firmware, the hub and a broker show it."""
import pytest

from hub import conductor
from party.drills.books import journaled_entries
from party.drills.hubs import InProcessHub
from party.drills.lockstep import LockstepParty, set_up_party
from hardware.sim.board import VirtualBoard

pytestmark = pytest.mark.broker


def test_games_keyed_ahead_through_a_hub_outage_are_all_journaled(broker, tmp_path):
    handle = InProcessHub(tmp_path / "journal.sqlite3", broker).start()
    board = VirtualBoard(1, broker.host, broker.port, data_dir=tmp_path / "board", resend_s=2).start()
    try:
        set_up_party(handle, tables=1, seed=3, sessions=1, seat_check=False)
        party = LockstepParty(handle, {1: board}, seed=3)
        state, form = party.form_for(1, 1, 1)
        assert [f["k"] for f in form["fields"]][0] == "lead"  # game 1 asks who led
        board.wait_for("# ENTER GAME 1", timeout=20)
        handle.stop()  # the hub is away for two games
        board.wait_for("HUB?", timeout=20)
        for game in (1, 2):
            ahead = {**form, "game": game, "title": f"GAME {game}"}  # as the board offers it
            party.key(state, 1, 1, ahead, party.values(state, 1, 1, ahead))
        board.wait_for("PEND 2")
        handle.start()
        board.wait_for(lambda lines: "PEND" not in lines[-1], timeout=30)
        entries = journaled_entries(handle.journal)
        assert [entries.get((1, 1, "result", g)) for g in (1, 2)] == [[e.values] for e in party.keyed]
        assert conductor.screens(handle.state())[1]["form"]["game"] == 3
        assert "REFUSED" not in board.text
    finally:
        board.stop()
        handle.stop()
