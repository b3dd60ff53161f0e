"""A guest keying an entry into a virtual board (board.py), or dismissing a message
it shows: the one board driver that the demo's simulated party
(party/simulated_party.py), the drills and the tests use. It needs only the form
the board shows and the values to key, never the hub: it acts through the board's
keys and reads its display back.
"""
from __future__ import annotations

import re
import time

from .board import VirtualBoard

SEATS = "ABCD"  # the seat letters a board's keypad has (firmware/entry.py)
_FIELD_PAGE = re.compile(r"\s(\d+)/(\d+)$")  # an entry page's first line ends "3/10"
_PROMPT = re.compile(r"# (SEAT CHECK|ENTER GAME \d+)$")  # the idle screen's line: what '#' opens


def field_keys(field: dict, value: int) -> str:
    """What a guest types for one field: digits, or a seat letter (0 for none), then #."""
    if field.get("seat"):
        return (SEATS[value - 1] if value else "0") + "#"
    return f"{value}#"


def shown_value(field: dict, value: int) -> str:
    """How the entry page shows a typed value (firmware/entry.py)."""
    if field.get("seat"):
        return SEATS[value - 1] if value else "NONE"
    return str(value)


def prompt_of(form: dict) -> str:
    """What the idle board shows `#` does for this form (firmware/app.py)."""
    return "# SEAT CHECK" if form.get("kind") == "seat-check" else f"# ENTER GAME {form['game']}"


def key_in(board: VirtualBoard, form: dict, values: dict, timeout: float = 20.0) -> bool:
    """Enter `values` into the board's form as a guest would: reading the display at
    every step, so a message that interrupts (the conductor's bell) is dismissed and
    the entry resumed at the field the board shows. True once the board has sent it;
    False if, before it was opened, the board stops offering it (the stop bell rang: the
    table plays no more; or the hub moved the table on to another entry); TimeoutError,
    saying what the board showed, if it never could."""
    fields, prompt = form["fields"], prompt_of(form)
    deadline = time.monotonic() + timeout
    opened = False
    while time.monotonic() < deadline:
        lines = board.lines
        page = _FIELD_PAGE.search(lines[0]) if lines else None
        if not page and len(fields) == 1 and len(lines) > 2 and lines[2].startswith("> "):
            page = _FIELD_PAGE.search(" 1/1")  # a one-field form whose long title leaves out "1/1"
        offered = lines[-2] if len(lines) > 1 else ""
        if not opened and (_stopped(lines) or (_PROMPT.match(offered) and offered != prompt)):
            return False
        if any(line.strip() == "# OK" for line in lines) or "CANCEL ENTRY?" in lines:
            keys = "#"  # dismiss the message / "no, don't cancel"
        elif lines and lines[-2] == prompt:
            if opened:
                return True  # back at the prompt: sent and answered, or refused
            keys = "#"  # open the entry (again, if a message took the last '#')
        elif page:
            opened = True
            # Type the value, then read it back before accepting it: a message that pops
            # up meanwhile (the conductor's bell) takes the key pressed as it appears.
            f = fields[int(page.group(1)) - 1]
            shown = lines[2][2:].rstrip("_")
            if shown == shown_value(f, values[f["k"]]):
                keys = "#"
            else:
                clear = (1 if shown else 0) if f.get("seat") else len(shown)
                keys = "*" * clear + field_keys(f, values[f["k"]])[:-1]
        elif lines and lines[0].endswith("CHECK") and lines[1:2] != ["SENDING..."]:
            opened = True
            # the review pages: next page, and on the last one, send (not "SEAT CHECK /
            # SENDING...": a '#' there, once the verdict is in, would open a second entry)
            keys = "#"
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


def _stopped(lines: list[str]) -> bool:
    """The stop bell is shown (firmware/app.py BELL_WORDS): all tables stop playing at once."""
    return any("STOP NOW" in line for line in lines)


def dismiss(board: VirtualBoard) -> None:
    """A message that waits for a key (the conductor's bell): the players saw it. Only the
    table's own thread presses its keys, and waits until the board has handled the press:
    a second '#' would open the entry form."""
    if any(line.strip() == "# OK" for line in board.lines):
        board.press("#")
        board.heap()


def key_count(board: VirtualBoard, fields: list[dict], count: dict, timeout: float = 30.0) -> bool:
    """A count made in play (the screen's `count` form), as a guest keys it: the seat that
    made it (which opens the count's entry), then the other fields; the last one sends it
    (a count has no review page: `undo_count` takes it back). True once the hub's verdict
    is shown; False once the stop bell shows instead, before or after the keys (the count
    that reached ten rang it, or another table's did): the table plays no more."""
    # on the idle screen, or over the last count's passing "COUNTED", which a key dismisses
    shown = board.wait_for(lambda lines: "A-D: POINTS MADE" in lines or "COUNTED" in lines
                           or _stopped(lines), timeout=timeout)
    if _stopped(shown):
        return False
    for f in fields:
        v = count[f["k"]]
        # a seat, or a single-digit value, is taken on its key (firmware/entry.py)
        board.press(SEATS[v - 1] if f.get("seat") else f"{v}" if f.get("max", 999) < 10 else f"{v}#")
    board.heap(timeout=timeout)   # every frame of these keys shown: the last count's note is gone
    return not _stopped(board.wait_for(lambda lines: "COUNTED" in lines or _stopped(lines), timeout=timeout))


def undo_count(board: VirtualBoard, timeout: float = 30.0) -> list[str]:
    """The table takes back its last count: `*` on the idle screen, which offers it ("LAST B
    * UNDO"); returns the hub's verdict as the display shows it."""
    board.wait_for(lambda lines: any(line.endswith("* UNDO") for line in lines), timeout=timeout)
    board.press("*")
    board.heap(timeout=timeout)
    return board.wait_for(lambda lines: "COUNT UNDONE" in lines or "REFUSED" in lines,
                          timeout=timeout)
