"""An All Quarters game keyed at a table as its score-cards mark it, through the keys of a
virtual board (the firmware on the unix port), against a real Mosquitto and the real hub.

000_ff8a6ed40036e836.txt, the party's ALL-QUARTERS: the score-card has a column per game
("1 GAME. 2 GAME. 3 GAME."); "The player making a count must announce it when he plays his
piece, and mark it on his score-card immediately"; "When counting up the opponents' amounts,
it is best to count in sixteenths the value of every domino, then divide the total by 4 ...
Remainders of sixteenths are not marked on the score-cards." ALL QUARTERS: "the first one who
plays his last piece adds to his count the amount of note-values his opponents have"."""
import pytest

from hardware.sim.board import VirtualBoard
from hardware.sim.party import key_in
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, start_session
from tests.test_end_to_end import TABLE, WAIT, journaled, seat_check_seen

pytestmark = pytest.mark.broker


def test_all_quarters_four_totals_keyed_in_ten_keys_and_journaled_with_the_books_scores(broker, tmp_path):
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    board = VirtualBoard(TABLE, broker.host, broker.port, data_dir=tmp_path / "board", resend_s=2).start()
    try:
        assert create_party(hub, tables=3, form="all-quarters").ok
        assert seat_guests(hub, guest_names(12), seed=5).ok
        assert start_session(hub, 1).ok
        board.wait_for("# SEAT CHECK", timeout=WAIT)
        assert key_in(board, 0, seat_check_seen(hub.state, TABLE))
        board.wait_for("# ENTER GAME 1", timeout=WAIT)
        # B led; A made 3 quarters in play, C none, D one; B made 5 and went out, the others
        # holding 141 sixteenths: B marks 5 + 141 // 4 = 40 (the odd sixteenth not marked)
        b = 5 + 141 // 4
        board.press("B")          # who led: the seat on the idle screen opens the entry
        lines = board.wait_for("A QUARTERS", timeout=WAIT)
        assert lines[0].endswith("2/5") and lines[3] == "0-338"
        board.press("3#")
        board.wait_for("B QUARTERS")
        board.press(str(b))       # 400 would pass 338: taken without #
        board.wait_for("C QUARTERS")
        board.press("0#")
        board.wait_for("D QUARTERS")
        board.press("1")
        board.wait_for("> 1_")    # the last field waits for #, before the review page
        board.press("#")
        lines = board.wait_for("# SEND  * BACK")
        assert lines[1:6] == ["FIRST LEAD BY  B", "A QUARTERS     3", f"B QUARTERS    {b}",
                              "C QUARTERS     0", "D QUARTERS     1"]
        board.press("#")
        board.wait_for("GAME 1 SAVED", timeout=WAIT)
        (result,) = [body for _, body in journaled(tmp_path / "journal.sqlite3")]
        assert result["values"] == {"lead": 2, "A_quarters": 3, "B_quarters": b, "C_quarters": 0,
                                    "D_quarters": 1}
        entry = hub.state.session.tables[TABLE].entries[0]
        assert entry.gains == (3, b, 0, 1) and entry.winners == ("B",)
    finally:
        board.stop()
        hub.stop()
