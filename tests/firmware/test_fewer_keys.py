"""Fewer keys per hand (docs/firmware.md, "Fewer keys"): a number field takes itself on
its last possible digit when the next field is empty, and a digit (or a seat, where the
first field is a seat) on the idle screen opens the entry as its first key."""

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


def test_the_last_field_and_a_fix_wait_for_hash_so_a_habitual_hash_never_sends_unseen(board, hub):
    """Where # would next confirm something the guest has not looked at (the review page, or
    a value kept from before) the field waits for #, whatever its digits."""
    show(hub, board, {"kind": "result", "game": 2, "title": "GAME 2", "fields": [
        {"k": "W", "label": "DOMINO BY", "seat": True},
        {"k": "A", "label": "A SPOTS", "min": 0, "max": 200}]}, "LAST IS NUMBER")
    board.press("#")
    board.press("B")
    board.press("99")  # 990 > 200: no digit fits, but the review page is next
    lines = board.wait_for("> 99_")
    assert lines[1] == "A SPOTS"
    board.press("#")
    board.wait_for("# SEND  * BACK")
    board.press("A")  # a fix from the review page: it goes back there, so it waits too
    board.press("**77")
    board.wait_for("> 77_")
    board.press("#")
    lines = board.wait_for("# SEND  * BACK")
    assert lines[2].endswith(" 77") and not hub.events("result")


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
