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
    assert key_in(board, 0, {}, timeout=2)
    assert board.pressed == ["#", "#"]


# Found by the hub-kill drill's fault-free run: the conductor's bell popped up while the
# simulator's guest typed "52#"; the bell's message took the "5" (a waiting message is
# dismissed by the next key, firmware/keys.py key), the board recorded 2, and the guest,
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

    def __init__(self, form, interrupt_at: int = 0, draft: dict | None = None):
        self.Entry, self.form, self.draft = firmware_entry(), form, dict(draft or {})
        self.entry, self.note, self.sent, self.keys_pressed = None, False, [], []
        self.interrupt_at = interrupt_at

    @property
    def lines(self):
        if self.note:
            return ["** BELL **", "FINISH GAME", "START NO NEW ONE", "", "# OK", "", "", "T1"]
        if self.entry:
            return (self.entry.lines() + [""] * 7)[:7] + ["T1"]
        prompt = "# SEAT CHECK" if self.form["kind"] == "seat-check" else f"# ENTER GAME {self.form['game'] + len(self.sent)}"
        return ["TABLE 1", "", "", "", "", "", prompt, "T1"]

    def press(self, keys):
        self.keys_pressed.append(keys)
        if len(self.keys_pressed) == self.interrupt_at:
            self.note = True
        for k in keys:
            if self.note:
                self.note = False  # this key only dismisses the message
            elif self.entry is None:
                # as firmware/keys.py opens it: '#'; or, for a game, a digit or (where the first
                # field is a seat) a seat, as the first key
                first = self.form["kind"] == "result" and (
                    k.isdigit() or k in "ABCD" and self.form["fields"][0].get("seat"))
                if k == "#" or first:
                    self.entry = self.Entry(self.form, dict(self.draft))
                if first:
                    self.entry.buf = ""
                    self.entry.key(k)
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
        assert key_in(board, 4, {"A SPOTS": "7", "DOMINO BY": "C", "C SPOTS": "52"}, timeout=5)
        assert board.sent == [values], interrupt_at


# The guest reads the review page before sending, and a value it shows otherwise than
# meant is fixed as a guest fixes it (docs/firmware.md, the keypad: "review page | `*` |
# back to the last field, values kept"; "a field's key (A-D) | opens that field to fix").

def test_a_value_the_review_page_shows_wrong_is_fixed_before_sending():
    form = {"kind": "result", "game": 2, "title": "GAME 2",
            "fields": [{"k": "A", "label": "A SPOTS", "min": 0, "max": 99},
                       {"k": "out", "label": "DOMINO BY", "seat": True, "min": 0, "max": 4},
                       {"k": "C", "label": "C SPOTS", "min": 0, "max": 99}]}
    # keyed before (the board keeps a game's draft): the entry opens on its review page
    board = InterruptedBoard(form, draft={"A": 7, "out": 2, "C": 25})
    board.press("#")
    assert board.lines[:4] == ["GAME 2     CHECK", "A SPOTS        7", "DOMINO BY      B", "C SPOTS       25"]
    assert key_in(board, 2, {"A SPOTS": "7", "DOMINO BY": "C", "C SPOTS": "52"}, timeout=5)
    assert board.sent == [{"A": 7, "out": 3, "C": 52}]


def test_the_seat_check_fixes_a_wrong_card_with_its_seat_key():
    """Grimm 1896 (000_ff8a6ed40036e836.txt), BERGEN GAME party: White and Red cards; the
    board shows the names it expects and the table fixes a seat by its letter, keying the
    card in hand as printed: table, letter, 1 white / 2 red (docs/firmware.md, seat check)."""
    names = ("ANN LEE", "BEN GRIMM", "CLARA PELL", "DAVID HILL")
    form = {"kind": "seat-check", "game": 0, "title": "SEAT CHECK",
            "fields": [{"k": x, "label": f"{x} {name}", "min": 0, "max": 8, "card": 2, "v": v}
                       for x, name, v in zip("ABCD", names, (1, 2, 3, 4))]}
    board = InterruptedBoard(form)
    # B holds table 2's white B card (number 6), not the card the hub drew for the seat
    assert key_in(board, 0, {"A": "W1A", "B": "W2B", "C": "R1A", "D": "R1B"}, timeout=5)
    assert board.sent == [{"A": 1, "B": 6, "C": 3, "D": 4}]
    assert board.keys_pressed == ["#", "B", "***2B1", "#", "#"]   # open, fix B: clear "1B1", key 2B1, OK; send


def test_a_field_the_board_takes_on_its_last_digit_is_not_accepted_again():
    """The keypad (docs/firmware.md): a number field takes itself on its last possible digit
    (unless the next field holds a kept value); a '#' there would only say TYPE A NUMBER. The
    guest reads the display after typing and presses '#' only where the board still shows the
    value. The first value's keys on the idle screen open the entry."""
    form = {"kind": "result", "game": 1, "title": "GAME 1",
            "fields": [{"k": "A", "label": "A SPOTS", "min": 0, "max": 99},
                       {"k": "out", "label": "DOMINO BY", "seat": True, "min": 0, "max": 4},
                       {"k": "C", "label": "C SPOTS", "min": 0, "max": 99}]}
    board = InterruptedBoard(form)
    assert key_in(board, 1, {"A SPOTS": "52", "DOMINO BY": "C", "C SPOTS": "7"}, timeout=5)
    assert board.sent == [{"A": 52, "out": 3, "C": 7}]
    # 52 opens the entry and is taken on its 2 (no 52x is at most 99); C taken on its key;
    # 7 could go on: '#'; send
    assert board.keys_pressed == ["52", "C", "7", "#", "#"]
