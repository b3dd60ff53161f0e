"""Fewer keys per hand (docs/firmware.md, "Fewer keys"): a number field takes itself on
its last possible digit when the next field is empty, and a digit (or a seat, where the
first field is a seat) on the idle screen opens the entry as its first key."""
import time

from hardware.sim.party import LOOK_S

SUMMED = {"kind": "result", "game": 2, "title": "GAME 2", "fields": [
    {"k": "A", "label": "A SPOTS", "min": 0, "max": 200, "sum": 250},
    {"k": "B", "label": "B SPOTS", "min": 0, "max": 200, "sum": 250},
    {"k": "P", "label": "PIECES", "min": 1, "max": 4},
    {"k": "W", "label": "DOMINO BY", "seat": True},
]}


def show(hub, board, form, line):
    hub.screen(3, lines=["TABLE 3", line], form=form)
    board.wait_for(line)


def test_a_field_takes_itself_on_its_last_possible_digit_and_a_habitual_hash_is_harmless(board, hub):
    """A SPOTS holds at most 200: after "25" no digit fits, so the board moves on without #.
    A # pressed anyway lands on the empty next field and only says so."""
    board.press("#")
    board.press("25")
    lines = board.wait_for("B SPOTS")
    assert "> _" in lines
    board.press("#")  # out of habit
    board.wait_for("TYPE A NUMBER")
    board.press("15")  # 150 fits: the field waits
    board.wait_for("> 15_")
    board.press("#")
    board.wait_for("DOMINO BY")
    board.press("A")
    lines = board.wait_for("# SEND  * BACK")
    assert [l.split()[-1] for l in lines[1:4]] == ["25", "15", "A"]


def test_a_first_zero_takes_itself_where_zero_is_allowed(board, hub):
    """No digit fits after a first 0 (no number is typed "05"): the one who went out keys
    his 0 in one key (a train game's round, docs/scoring.md). Where 0 is out of range
    (PIECES, 1 to 4) it waits for #, which says so."""
    show(hub, board, SUMMED, "SUMMED")
    board.press("0")
    lines = board.wait_for("B SPOTS")
    assert "> _" in lines
    board.press("7#")
    board.wait_for("PIECES")
    board.press("0")
    board.wait_for("> 0_")
    board.press("#")
    board.wait_for("ONLY 1 TO 4")
    board.press("*2")   # 2 is full: taken at once
    board.wait_for("DOMINO BY")
    board.press("A")
    lines = board.wait_for("# SEND  * BACK")
    assert [l.split()[-1] for l in lines[1:5]] == ["0", "7", "2", "A"]


def test_a_review_page_a_full_last_field_opened_ignores_a_hasty_hash(board, hub):
    """The last field takes itself too, onto the review page; a # there within a second
    is habit, not a look: it says CHECK, THEN # and sends nothing. A # after a look sends."""
    show(hub, board, {"kind": "result", "game": 2, "title": "GAME 2", "fields": [
        {"k": "W", "label": "DOMINO BY", "seat": True},
        {"k": "A", "label": "A SPOTS", "min": 0, "max": 200}]}, "LAST IS NUMBER")
    board.press("B")
    board.press("99#")  # 990 > 200: 99 is taken, the # comes at once
    lines = board.wait_for("CHECK, THEN #")
    assert lines[2].endswith(" 99") and not hub.events("result")
    time.sleep(LOOK_S)  # the guest reads the review page
    board.press("#")
    ev = hub.wait(lambda: hub.events("result"))[0]
    assert ev["body"]["values"] == {"W": 2, "A": 99}


def test_a_field_before_a_kept_value_waits_for_hash(board, hub):
    """Back over a field already keyed, a full number waits for #: a habitual # would
    otherwise accept the next field's kept value unseen."""
    board.press("25")
    board.wait_for("B SPOTS")
    board.press("15#")
    board.wait_for("DOMINO BY")
    board.press("*")  # back to B, 15 kept
    board.wait_for("> 15_")
    board.press("***")  # its digits, then back to A
    board.wait_for("> 25_")
    board.press("**30")  # 300 > 200, but B holds 15: A waits
    lines = board.wait_for("> 30_")
    assert lines[1] == "A SPOTS"
    board.press("#")
    lines = board.wait_for("> 15_")
    assert lines[1] == "B SPOTS"


def test_a_refused_field_that_took_itself_stays_with_its_reason_and_keeps_the_others(board, hub):
    """The checks of # apply to a field that takes itself: its sum with the others keyed,
    and its range; the typed value stays on the field to correct and nothing keyed is lost."""
    show(hub, board, SUMMED, "SUMMED")
    board.press("#")
    board.press("190")  # 190: three digits, the most A can have
    board.wait_for("B SPOTS")
    board.press("70")  # 700 > 200: taken at once, and 190 + 70 is more than 250
    lines = board.wait_for("ALL: 250 AT MOST")
    assert "B SPOTS" in lines and "> 70_" in lines
    board.press("*6")  # 76 > 250 - 190 too: refused again, 190 kept
    board.wait_for(lambda l: "> 76_" in l and "ALL: 250 AT MOST" in l)
    board.press("**")
    board.press("55")  # 550 > 200: taken, 245 in all
    board.wait_for("PIECES")
    board.press("7")  # one digit and already past 4: refused at once
    lines = board.wait_for("ONLY 1 TO 4")
    assert "> 7_" in lines
    board.press("*3")
    board.wait_for("DOMINO BY")
    board.press("C")
    lines = board.wait_for("# SEND  * BACK")
    assert [l.split()[-1] for l in lines[1:5]] == ["190", "55", "3", "C"]
    assert not hub.events("result")


def test_a_digit_on_the_idle_screen_opens_the_entry_as_its_first_key(board, hub):
    board.wait_for("# ENTER GAME 2")
    board.press("2")
    lines = board.wait_for("A SPOTS")
    assert "> 2_" in lines
    board.press("0#")
    board.wait_for("B SPOTS")
    board.press("*")  # back to A: 20 kept
    board.wait_for("> 20_")
    board.press("***")  # its digits deleted (the draft keeps 20), then cancel?
    board.wait_for("CANCEL ENTRY?")
    board.press("*")
    board.wait_for("CANCELLED")
    board.press("3")  # the first key begins the field afresh, not added to the kept 20
    lines = board.wait_for("> 3_")
    assert lines[1] == "A SPOTS"


def test_a_seat_on_the_idle_screen_opens_an_entry_whose_first_field_is_a_seat(board, hub):
    show(hub, board, {"kind": "result", "game": 1, "title": "GAME 1", "fields": [
        {"k": "lead", "label": "FIRST LEAD BY", "min": 1, "max": 4, "seat": True},
        {"k": "A", "label": "A SPOTS", "min": 0, "max": 200}]}, "SEAT FIRST")
    board.press("D")
    lines = board.wait_for("A SPOTS")
    board.press("12#")
    lines = board.wait_for("# SEND  * BACK")
    assert [l.split()[-1] for l in lines[1:3]] == ["D", "12"]


def test_keys_other_than_hash_leave_the_idle_screen_where_they_open_nothing(board, hub):
    """A seat where the first field is a number; a digit before the seat check (it opens
    with #, on the names expected)."""
    board.press("B")
    show(hub, board, {"kind": "seat-check", "game": 0, "title": "SEAT CHECK", "fields": [
        {"k": s, "label": f"{s} CARD", "min": 0, "max": 40, "v": 1 + "ABCD".index(s)}
        for s in "ABCD"]}, "CHECK FIRST")
    board.press("5")
    board.press("#")
    lines = board.wait_for("# ALL RIGHT")
    assert lines[0] == "SEAT CHECK" and not hub.events("seat-check")  # # opened it: not sent
    assert not any("A SPOTS" in frame for frame in board.frames)
