"""A guest keying an entry into a virtual board (board.py), or dismissing a message
it shows: the one board driver that the demo's simulated party
(party/simulated_party.py), the drills, the benches and the tests use. Like a guest,
it knows only what it means to key and what the display shows: each value by the
label the board shows for its field ("A SIXTEENTHS", "DOMINO BY"; on the seat check,
the seat: "A"), as the display shows it ("12", "B", "NONE", a card "W1A"), never the
hub's form. It reads the label, the hint line and the typed value before every key,
and the review page before sending. party/keyed.py turns a hand the engine played
into such a meaning.
"""
from __future__ import annotations

import re
import time
from collections.abc import Mapping

from ..protocol import SEATS   # the seat letters a board's keypad has
from .board import VirtualBoard

_PROMPT = re.compile(r"# (SEAT CHECK|ENTER GAME \d+)$")  # the idle screen's line: what '#' opens
NONE = "NONE"   # how a seat field shows "no seat" (keyed 0)
EMPTY = "EMPTY" # how the seat check shows an empty seat's card (keyed 0)
# A review page that a full last field opened ignores # this long (firmware/entry.py,
# _review_key): a guest reads it first.
LOOK_S = 0.7


def prompt_of(game: int) -> str:
    """What the idle board shows `#` does for this game (firmware/screen.py): game 0 is the
    seat check that comes before a session's first game."""
    return "# SEAT CHECK" if game == 0 else f"# ENTER GAME {game}"


def card_keys(card: str) -> str:
    """A score-card as a guest keys it, from what is printed on it (the field's hint line
    says how: "TABLE, THEN A-D", or "TABLE,A/B,1W/2R" on White and Red cards): "2C" is
    2C, "W1B" (TABLE 1 B WHITE) 1B1, "R3A" 3A2; a spare "2C/2" 2C2; an empty seat 0."""
    if card == EMPTY:
        return "0"
    card, _, copy = card.partition("/")
    keys = card[1:] + "12"["WR".index(card[0])] if card[0] in "WR" else card
    return keys + copy


def card_shown(card: str) -> str:
    """A score-card as its field shows it once keyed (firmware/entry.py, card_typed): as
    printed, "W1B" (TABLE 1 B WHITE) 1B WHITE, "R1B/2" 1B/2 RED, "2C/2" 2C/2."""
    base, slash, copy = card.partition("/")
    if base[0] in "WR":
        return base[1:] + slash + copy + (" WHITE" if base[0] == "W" else " RED")
    return card


def keys_behind(shown: str) -> str:
    """The keys a card field's display stands for: "1B RED" 1B2, "2C/2" 2C2, "EMPTY" 0;
    keys that make no card show as typed."""
    if shown == EMPTY:
        return "0"
    card, _, colour = shown.partition(" ")
    card, _, copy = card.partition("/")
    return card + {"WHITE": "1", "RED": "2"}.get(colour, "") + copy


def _keys(hint: str, meant: str) -> tuple[str, str]:
    """For a field page with this hint line (its fourth line): what the page shows once
    `meant` is typed, and the keys that type it (without the `#` that accepts)."""
    if hint.startswith("TABLE"):  # a score-card: shown as printed
        return card_shown(meant), card_keys(meant)
    if "A-D" in hint:  # a seat: one key, taken at once ("A-D OR 0=NONE", "PICK A-D")
        return meant, "0" if meant == NONE else meant
    return meant, meant  # a number: its digits ("0-224")


def _meaning(label: str, meant: Mapping[str, str]) -> str | None:
    """What the guest means for a field labelled so on the display: by its label ("A
    SIXTEENTHS"), or on the seat check by the seat it names ("A ANN LEE": seat A's card)."""
    if label in meant:
        return meant[label]
    return meant.get(label.split(" ")[0]) if label[:1] in SEATS else None


def key_in(board: VirtualBoard, game: int, meant: Mapping[str, str], timeout: float = 20.0) -> bool:
    """Enter what the guests mean (`meant`: the value as shown, by the field's label) into
    the board's entry for `game` (0: the seat check) as a guest would: reading the display
    at every step, so a message that interrupts (the conductor's bell) is dismissed and
    the entry resumed at the field the board shows, a field the board takes on its last
    key is not accepted twice, and a value the review page shows otherwise than meant is
    fixed before sending. True once the board has sent it; False if, before it was
    opened, the board stops offering it (the stop bell rang: the table plays no more; or
    the hub moved the table on to another entry); TimeoutError, saying what the board
    showed, if it never could; LookupError if the board asks a field the guest did not
    mean to key."""
    prompt = prompt_of(game)
    deadline = time.monotonic() + timeout
    opened, fixing = False, None   # fixing: the label of a value the review showed wrong
    keys = ""
    # a game's entry opens with the first value's keys, a digit or a seat (firmware/keys.py);
    # the guest means the values in the order the form asks them
    first = next(iter(meant.items()), None) if game else None
    while time.monotonic() < deadline:
        lines = board.lines
        offered = lines[-2] if len(lines) > 1 else ""
        if not opened and (_stopped(lines) or (_PROMPT.match(offered) and offered != prompt)):
            return False
        if any(line.strip() == "# OK" for line in lines) or "CANCEL ENTRY?" in lines:
            keys = "#"  # dismiss the message / "no, don't cancel"
        elif offered == prompt:
            if opened:
                return True  # back at the prompt: sent and answered, or refused
            keys = "#"  # open the entry (again, if a message took the first keys)
            seat = first and not first[1].isdigit()
            if first and not (seat and "A-D: POINTS MADE" in lines):  # (there a seat is a count's)
                keys = _keys("A-D" if seat else "", first[1])[1]
            first = None
        elif len(lines) > 3 and lines[2].startswith("> "):  # a field's page
            opened = True
            keys = _field_keys(board, lines, meant, fixing)
            if lines[1] == fixing:
                fixing = None
        elif lines and lines[0].endswith("CHECK") and lines[1:2] != ["SENDING..."]:
            opened = True
            # the review pages: each checked, then the next, and on the last one, send (not
            # "SEAT CHECK / SENDING...": a '#' there, once the verdict is in, would open a
            # second entry); on the way back to a value to fix, back a page
            if keys[-1:].isdigit() or "CHECK, THEN #" in lines:
                time.sleep(LOOK_S)  # the last field took itself onto the review: read it first
            keys, fixing = ("*", fixing) if fixing else _review_keys(lines, meant)
        elif opened:
            return True  # sending, or the verdict shown
        else:
            time.sleep(0.05)
            continue
        board.press(keys)
        # The board handles a line of keys in order before it reads the next, so
        # its answer to a heap request means every frame of these keys is shown.
        board.heap(timeout=max(1.0, deadline - time.monotonic()))
    raise TimeoutError(f"table {board.table}: entry not sent in {timeout} s; display: {board.lines}")


def _field_keys(board: VirtualBoard, lines: list[str], meant: Mapping[str, str], fixing: str | None) -> str:
    """The keys for a field's page: type the value meant, then (on the next look, if the
    board has not taken it on its last key) accept it; on the way back to a value to fix,
    leave this one as it is and go back a field."""
    label, shown, hint = lines[1], lines[2][2:].rstrip("_"), lines[3]
    seat = "A-D" in hint and not hint.startswith("TABLE")
    typed = keys_behind(shown) if hint.startswith("TABLE") else shown
    clear = "*" * ((1 if shown else 0) if seat else len(typed))
    if fixing is not None and label != fixing:
        return clear + "*"  # empty: '*' goes back a field, its value kept
    value = _meaning(label, meant)
    if value is None:
        raise LookupError(f"table {board.table}: the board asks {label!r}, which the guest "
                          f"does not mean to key; display: {lines}")
    # Read back before accepting: a message that pops up meanwhile (the conductor's bell)
    # takes the key pressed as it appears.
    looks, keys = _keys(hint, value)
    return "#" if shown == looks else clear + keys


def _review_keys(lines: list[str], meant: Mapping[str, str]) -> tuple[str, str | None]:
    """On a review page: '#' (next page, or send) when every value shows as meant; else
    the keys that open the first wrong one to fix, and its label: its seat letter where the
    page offers that ("A-D: FIX A SEAT"), else '*' back through the fields to it."""
    for line in lines[1:]:
        wrong = _wrong(line, meant)
        if wrong is None:
            continue
        if "A-D: FIX A SEAT" in lines and wrong in SEATS:
            return wrong, None
        return "*", wrong
    return "#", None


def _wrong(line: str, meant: Mapping[str, str]) -> str | None:
    """The label of the value a review line ("A SIXTEENTHS  3", "A ANN LEE    W1A") shows,
    when it is not what the guest meant; None when it is, or the line shows no value meant.
    The line's label may be cut to make room for the value."""
    part, _, shown = line.rstrip().rpartition(" ")
    part = part.rstrip()
    if not part:
        return None
    labels = [label for label in meant if label.startswith(part)]
    if not labels and part[:1] in SEATS and part.split(" ")[0] in meant:
        labels = [part.split(" ")[0]]    # the seat check: the seat's line
    if not labels or any(meant[label] == shown for label in labels):
        return None
    return labels[0]


def _stopped(lines: list[str]) -> bool:
    """The stop bell is shown (firmware/screen.py BELL_WORDS): all tables stop playing at once."""
    return any("STOP NOW" in line for line in lines)


def dismiss(board: VirtualBoard) -> None:
    """A message that waits for a key (the conductor's bell): the players saw it. Only the
    table's own thread presses its keys, and waits until the board has handled the press:
    a second '#' would open the entry form."""
    if any(line.strip() == "# OK" for line in board.lines):
        board.press("#")
        board.heap()


def key_count(board: VirtualBoard, meant: Mapping[str, str], timeout: float = 30.0) -> bool:
    """A count made in play, as a guest keys it (`meant` as for `key_in`: {"MADE BY": "B",
    "HEADER": "3"}): the seat that made it, whose key on the idle screen opens the count's
    entry with the seat taken, then each field the board asks; its last one sends it (a
    count has no review page: `undo_count` takes it back). True once the hub's verdict
    is shown; False once the stop bell shows instead, before or after the keys (the count
    that reached ten rang it, or another table's did): the table plays no more."""
    # on the idle screen, or over the last count's passing "COUNTED", which a key dismisses
    shown = board.wait_for(lambda lines: "A-D: POINTS MADE" in lines or "COUNTED" in lines
                           or _stopped(lines), timeout=timeout)
    if _stopped(shown):
        return False
    keys = next(v for v in meant.values() if v in SEATS)   # the seat that made it
    while True:
        board.press(keys)
        board.heap(timeout=timeout)   # every frame of these keys shown
        lines = board.lines
        if len(lines) < 4 or not lines[2].startswith("> "):
            break   # sent: the last count's note is gone
        keys = _field_keys(board, lines, meant, None)
    return not _stopped(board.wait_for(lambda lines: "COUNTED" in lines or _stopped(lines), timeout=timeout))


def undo_count(board: VirtualBoard, timeout: float = 30.0) -> list[str]:
    """The table takes back its last count: `*` on the idle screen, which offers it ("LAST B
    * UNDO"); returns the hub's verdict as the display shows it."""
    board.wait_for(lambda lines: any(line.endswith("* UNDO") for line in lines), timeout=timeout)
    board.press("*")
    board.heap(timeout=timeout)
    return board.wait_for(lambda lines: "COUNT UNDONE" in lines or "REFUSED" in lines,
                          timeout=timeout)
