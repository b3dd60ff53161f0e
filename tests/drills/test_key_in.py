"""Found by the hub-kill drill: the simulator's guest (hardware/sim/party.key_in) took
the board's "SEAT CHECK / SENDING..." screen for the entry's review page ("... CHECK")
and pressed '#' again; once the hub's verdict was in, that '#' opened a second entry:
a second seat check (refused SEATS CHECKED), or the seat check's card numbers typed
into game 1's form."""
from hardware.sim.party import key_in

PROMPT = ["TABLE 1", "SESSION 1", "", "", "", "", "# ENTER GAME 0", "T1"]
SENDING = ["SEAT CHECK", "SENDING...", "", "", "", "", "", "T1"]


class SentBoard:
    """A board on which the entry is sent as soon as it is opened: it shows SENDING..."""

    def __init__(self):
        self.lines, self.pressed = list(PROMPT), []

    def press(self, keys):
        self.pressed.append(keys)
        self.lines = list(SENDING)

    def heap(self):
        return {}


def test_the_guest_presses_nothing_more_once_the_seat_check_is_sending():
    board = SentBoard()
    form = {"kind": "seat-check", "game": 0, "title": "SEAT CHECK", "fields": []}
    assert key_in(board, form, {}, timeout=2)
    assert board.pressed == ["#"]
