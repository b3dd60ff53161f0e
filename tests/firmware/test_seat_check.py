"""The seat check keys what the guests hold (issue 11): the board shows the names the hub
expects in each seat and the table confirms with one key; a seat that is wrong is keyed
with the card as printed on it. On the unix port, against a real Mosquitto and the real hub.

Grimm 1896 (000_ff8a6ed40036e836.txt), BERGEN GAME: "white and red cards each marked
Table 1 A, Table 1 B, Table 2 A, and so on"; "partners are of opposite colours".
"""
import pytest

from hardware.sim.board import VirtualBoard
from hub.conductor.cards import SEATS
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, start_session
from tests.test_end_to_end import journal_events

pytestmark = pytest.mark.broker


@pytest.fixture
def bergen(broker, tmp_path):
    """A Bergen party of two tables, session 1 started, and table 1's board."""
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    board = VirtualBoard(1, broker.host, broker.port, data_dir=tmp_path / "board").start()
    try:
        assert create_party(hub, tables=2, form="bergen").ok
        assert seat_guests(hub, guest_names(8), seed=4).ok
        assert start_session(hub, 1).ok
        board.wait_for("# SEAT CHECK", timeout=20)
        yield hub, board, tmp_path / "journal.sqlite3"
    finally:
        board.stop()
        hub.stop()


def expected_names(hub) -> dict[str, str]:
    t = hub.state.session.tables[1]
    return {x: hub.state.holders[card] for x, card in zip(SEATS, t.seats)}


def seat_checks(journal) -> list[dict]:
    return [e.body["cards"] for e in journal_events(journal) if e.kind == "table.seat-check"]


def test_the_table_confirms_the_names_it_sees_with_one_key(bergen):
    hub, board, journal = bergen
    names = expected_names(hub)
    board.press("#")
    lines = board.wait_for("# ALL RIGHT")
    # each seat's expected guest, and the card drawn for it as printed (White A, B; Red A, B)
    for x, card in zip(SEATS, ("W1A", "W1B", "R1A", "R1B")):
        row = next(line for line in lines if line.startswith(f"{x} "))
        assert row.endswith(card)
        assert names[x].upper()[:16 - len(card) - 3] in row
    board.press("#")
    board.wait_for("SEATS OK")
    assert seat_checks(journal) == [{"A": 1, "B": 2, "C": 3, "D": 4}]
    board.wait_for("# ENTER GAME 1")


def test_a_seat_is_fixed_by_keying_the_red_card_as_printed(bergen):
    hub, board, journal = bergen
    board.press("#")
    board.wait_for("# ALL RIGHT")
    board.press("C")                   # fix seat C: its field shows the card the hub expects
    board.wait_for("> 1A RED_")       # as printed: TABLE 1 A RED (keyed 1A2: 2 = red)
    board.press("***")
    board.wait_for(lambda lines: lines[2] == "> _")
    board.press("1B")
    board.wait_for("> 1B_")
    board.press("2")                   # Table 1 B Red: the display says what the card says
    board.wait_for("> 1B RED_")
    board.press("#")
    board.wait_for("# ALL RIGHT")
    board.press("D***1A2#")            # and Red 1 A in seat D: the two sat down swapped
    lines = board.wait_for(lambda lines: any(l.startswith("D ") and l.endswith("R1A") for l in lines))
    assert "# ALL RIGHT" in lines
    assert any(line.startswith("C ") and line.endswith("R1B") for line in lines)
    board.press("#")
    # Red 1 B's place is seat D: the hub refuses, and nothing is journaled
    board.wait_for("SEAT C WRONG")
    assert seat_checks(journal) == []
    board.press("#")                   # dismissed: the names as drawn are offered again
    board.press("#")
    board.wait_for("# ALL RIGHT")
    board.press("#")
    board.wait_for("SEATS OK")
    assert seat_checks(journal) == [{"A": 1, "B": 2, "C": 3, "D": 4}]


def test_a_card_the_party_does_not_have_is_refused_at_the_field(bergen):
    _, board, _ = bergen
    board.press("#")
    board.wait_for("# ALL RIGHT")
    board.press("B")
    board.press("***9A1")              # Table 9 A White: the party has two tables
    board.press("#")
    board.wait_for("NO SUCH CARD")
    assert board.lines[2] == "> 9A WHITE_"  # kept, to correct
    board.press("**1C1")               # only A or B on White and Red cards
    board.wait_for(lambda lines: lines[2] == "> 91C1_" and "NO SUCH CARD" not in lines)
    board.press("#")
    board.wait_for("NO SUCH CARD")
