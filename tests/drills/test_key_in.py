"""Found by the hub-kill drill: the simulator's guest (hardware/sim/party.key_in) took
the board's "SEAT CHECK / SENDING..." screen for the entry's review page ("... CHECK")
and pressed '#' again; once the hub's verdict was in, that '#' opened a second entry:
a second seat check (refused SEATS CHECKED), or the seat check's card numbers typed
into game 1's form."""
from hardware.sim.party import key_in

PROMPT = ["TABLE 1", "SESSION 1", "", "", "", "", "# SEAT CHECK", "T1"]
REVIEW = ["SEAT CHECK  CHECK", "A CARD         1", "# SEND  * BACK", "", "", "", "", "T1"]
SENDING = ["SEAT CHECK", "SENDING...", "", "", "", "", "", "T1"]


class SentBoard:
    """'#' opens the seat check at its review page, '#' again sends it: SENDING..."""

    def __init__(self):
        self.lines, self.pressed = list(PROMPT), []

    def press(self, keys):
        self.pressed.append(keys)
        self.lines = list(REVIEW if self.lines == PROMPT else SENDING)

    def heap(self, timeout=5.0):
        return {}


def test_the_guest_presses_nothing_more_once_the_seat_check_is_sending():
    board = SentBoard()
    form = {"kind": "seat-check", "game": 0, "title": "SEAT CHECK", "fields": []}
    assert key_in(board, form, {}, timeout=2)
    assert board.pressed == ["#", "#"]


# Found by the hub-kill drill's fault-free run: the conductor's bell popped up while the
# simulator's guest typed "52#"; the bell's message took the "5" (a waiting message is
# dismissed by the next key, firmware/app.py on_key), the board recorded 2, and the guest,
# who never read back what it typed, sent it. The guest now reads each value back first.

def firmware_entry():
    """firmware/entry.py as a board imports it, with its neighbours (protocol.py) on the
    path; this process's modules are left as they were."""
    import importlib
    import pathlib
    import sys
    from unittest import mock
    firmware = str(pathlib.Path(__file__).resolve().parents[2] / "firmware")
    with mock.patch.object(sys, "path", [firmware, *sys.path]), mock.patch.dict(sys.modules):
        return importlib.import_module("entry").Entry


class InterruptedBoard:
    """The firmware's own Entry behind a display; a message that waits for a key pops up
    just before the `interrupt_at`-th line of keys."""

    def __init__(self, form, interrupt_at: int):
        self.Entry, self.form = firmware_entry(), form
        self.entry, self.note, self.sent, self.lines_pressed = None, False, [], 0
        self.interrupt_at = interrupt_at

    @property
    def lines(self):
        if self.note:
            return ["** BELL **", "FINISH GAME", "START NO NEW ONE", "", "# OK", "", "", "T1"]
        if self.entry:
            return (self.entry.lines() + [""] * 7)[:7] + ["T1"]
        return ["TABLE 1", "", "", "", "", "", f"# ENTER GAME {self.form['game'] + len(self.sent)}", "T1"]

    def press(self, keys):
        self.lines_pressed += 1
        if self.lines_pressed == self.interrupt_at:
            self.note = True
        for k in keys:
            if self.note:
                self.note = False  # this key only dismisses the message
            elif self.entry is None:
                if k == "#":
                    self.entry = self.Entry(self.form, {})
            elif self.entry.key(k) == "send":
                self.sent.append(self.entry.values())
                self.entry = None

    def heap(self, timeout=5.0):
        return {}


def test_a_message_popping_up_while_a_value_is_typed_does_not_change_what_is_sent():
    form = {"kind": "result", "game": 4, "title": "GAME 4",
            "fields": [{"k": "A", "label": "A SPOTS", "min": 0, "max": 99},
                       {"k": "out", "label": "DOMINO BY", "seat": True, "min": 0, "max": 4},
                       {"k": "C", "label": "C SPOTS", "min": 0, "max": 99}]}
    values = {"A": 7, "out": 3, "C": 52}
    for interrupt_at in range(1, 9):
        board = InterruptedBoard(form, interrupt_at)
        assert key_in(board, form, values, timeout=5)
        assert board.sent == [values], interrupt_at
