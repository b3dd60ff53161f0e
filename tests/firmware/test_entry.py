"""A table keys a result: published once with a unique id, pending until the hub acks."""
import re
import time

from hardware.sim.party import LOOK_S

KEYS_GAME_2 = ["#", "15#", "0#", "A"]  # A 15, B 0, domino by seat A (a seat takes one key)


def key_result(board, keys=KEYS_GAME_2):
    for k in keys:
        board.press(k)
    board.wait_for("# SEND  * BACK")
    board.press("#")


def test_keyed_result_is_published_with_a_unique_id_and_pending_until_acked(board, hub):
    hub.hold = True
    key_result(board)
    ev = hub.wait(lambda: hub.events("result"))[0]
    assert re.fullmatch(r"sim-3\.1\.\d+", ev["id"])
    assert ev["table"] == 3 and ev["v"] == 1
    assert ev["body"] == {"game": 2, "values": {"A": 15, "B": 0, "W": 1}}
    board.wait_for(lambda lines: lines[-1].endswith("PEND 1"))

    seal = "5e" * 31 + "a1b2c3"
    hub.ack(ev, ok=True, msg="GAME 2 SAVED", seal=seal)
    # the receipt (issue 24): the journal's seq of the entry and the last six of its seal
    lines = board.wait_for("GAME 2 SAVED")
    assert lines[6] == f"REC {hub.acked_seq[ev['id']]} a1b2c3"
    board.wait_for(lambda lines: "PEND" not in lines[-1])
    assert len(hub.events("result")) == 1

    # kept on flash: after a power cut the board shows the last receipt again
    board.kill()
    board.restart()
    lines = board.wait_for("LAST SAVED")
    assert lines[6] == f"REC {hub.acked_seq[ev['id']]} a1b2c3"


def test_a_lost_ack_costs_one_resend_with_the_same_id(board, hub):
    hub.hold = True  # the first ack is lost
    key_result(board)
    first = hub.wait(lambda: hub.events("result"))[0]
    resent = hub.wait(lambda: hub.events("result")[1:], timeout=6)[0]  # resend_s=2
    assert resent == first
    hub.ack(resent)
    board.wait_for("GAME 2 SAVED")
    assert list(hub.journal) == [first["id"]] + [i for i in hub.journal if i != first["id"]]
    assert len([e for e in hub.journal.values() if e["kind"] == "result"]) == 1


def test_refusal_is_shown_and_the_values_come_back_to_fix(board, hub):
    hub.verdict = lambda ev: {"ok": False, "why": "NOT A MULTIPLE 5"}
    key_result(board, ["#", "13#", "0#", "A"])
    board.wait_for("NOT A MULTIPLE 5")
    assert "REFUSED" in board.lines
    board.press("#")  # dismiss
    board.wait_for(lambda lines: "PEND" not in lines[-1] and "# ENTER GAME 2" in lines)
    board.press("#")  # the refused values are back, not lost: the review page shows them all
    lines = board.wait_for("# SEND  * BACK")
    assert [l.split()[-1] for l in lines[1:4]] == ["13", "0", "A"]
    board.press("A")  # a field's key opens it, to fix
    board.wait_for("> 13_")
    board.press("*5#")  # back on the review page, the other values as they were
    lines = board.wait_for(lambda lines: lines[1].endswith(" 15"))
    assert [l.split()[-1] for l in lines[1:4]] == ["15", "0", "A"]


def test_a_refusal_naming_a_seat_reopens_on_that_seats_field_every_value_kept(board, hub):
    """The hub's bounds (hub/scoring/bounds.py) name the seat they refuse: the entry comes
    back on that field, the other values as keyed."""
    hub.verdict = lambda ev: {"ok": False, "why": "B: 32 AT MOST"}
    key_result(board, ["#", "15#", "40#", "A"])
    board.wait_for("B: 32 AT MOST")
    board.press("#")  # dismiss
    board.wait_for(lambda lines: "PEND" not in lines[-1] and "# ENTER GAME 2" in lines)
    board.press("#")
    lines = board.wait_for("> 40_")
    assert lines[1] == "B SPOTS"
    hub.verdict = lambda ev: {"ok": True, "msg": "GAME 2 SAVED"}
    board.press("**30")  # fixed: 300 would pass 200, so it takes itself, back on the review page
    lines = board.wait_for(lambda lines: lines[2].endswith(" 30"))
    assert [l.split()[-1] for l in lines[1:4]] == ["15", "30", "A"]
    time.sleep(LOOK_S)  # the guest reads it (a # sooner is habit: test_fewer_keys.py)
    board.press("#")
    board.wait_for("GAME 2 SAVED")
    assert hub.events("result")[-1]["body"]["values"] == {"A": 15, "B": 30, "W": 1}


def test_the_board_moves_on_to_the_next_game_while_results_wait(board, hub):
    hub.hold = True
    hub.set_status("offline")  # the hub is gone: entries queue
    board.wait_for(lambda lines: "HUB?" in lines[-1])
    key_result(board)
    board.wait_for("HUB NOT REACHED")
    board.press("#")
    board.wait_for("GAME 3")
    for k in ["20#", "5#", "0", "#"]:
        board.press(k)
    board.wait_for(lambda lines: lines[-1].endswith("PEND 2"))
    games = [e["body"]["game"] for e in hub.wait(lambda: len(hub.journal) >= 2 and hub.journal)
             .values() if e["kind"] == "result"]
    assert games == [2, 3]


def test_malformed_screen_and_ack_leave_the_board_working(board, hub):
    hub.client.publish("party/table/3/screen", '{"v": 1, "lines": 5, "form": {"fields": [7]}}', 1, True)
    hub.client.publish("party/table/3/ack", "not json", 1)
    board.wait_for(lambda lines: "# ENTER GAME 2" not in lines)
    board.press("#")
    board.wait_for("NOTHING TO ENTER")
    hub.screen(3)
    board.wait_for("# ENTER GAME 2")
    key_result(board)
    board.wait_for("GAME 2 SAVED")


def test_heartbeat_reports_the_outbox(board_factory, hub):
    hub.screen(4)
    hub.hold = True
    b = board_factory(4, heartbeat_s=1)
    b.wait_for("# ENTER GAME 2")
    key_result(b)
    beat = hub.wait(lambda: [h for h in hub.heartbeats if h["outbox"] == 1])[0]
    assert beat["board"] == "sim-4" and beat["v"] == 1 and beat["up"] >= 0
    assert set(beat) == {"v", "board", "up", "outbox", "rssi", "battery"}


def test_a_board_beats_once_a_heartbeat_period_not_once_a_second(board_factory, hub):
    """A heartbeat is due `heartbeat_s` after the last one (60 s at a party; 200 boards beating
    every second would be 200 messages a second to the hub). The first is sent at once."""
    b = board_factory(4, heartbeat_s=3)
    hub.wait(lambda: hub.heartbeats)
    first = time.monotonic()
    time.sleep(7.5)
    beats = len(hub.heartbeats)
    assert time.monotonic() - first < 9.5, "the machine too slow to count the beats"
    assert 2 <= beats <= 4, f"{beats} heartbeats in 7.5 s with heartbeat_s = 3"
    b.stop()


def test_confirm_form_sends_the_seat_and_has_no_none(board, hub):
    """The hub's confirm form (hub/conductor/screens.py): one seat field, min 1."""
    hub.screen(3, lines=["TABLE 3", "CONFIRM PLEASE"], form={"kind": "confirm", "entry": "sim-4.1.7", "game": 2, "title": "CONFIRM GAME 2",
                        "fields": [{"k": "seat", "label": "YOUR SEAT", "min": 1, "max": 4, "seat": True}]})
    board.wait_for("CONFIRM PLEASE")
    board.press("#")
    board.wait_for("CONFIRM GAME 2")
    board.press("0")
    board.wait_for("PICK A-D")
    board.press("C")  # a seat takes one key
    board.wait_for("# SEND  * BACK")
    board.press("#")
    ev = hub.wait(lambda: hub.events("confirm"))[0]
    assert ev["body"] == {"entry": "sim-4.1.7", "seat": "C"}


def test_seat_check_form_sends_the_cards(board, hub):
    fields = [{"k": s, "label": f"{s} CARD NUMBER", "min": 0, "max": 40} for s in "ABCD"]
    hub.screen(3, lines=["SEAT CHECK"], form={"kind": "seat-check", "game": 0, "title": "SEAT CHECK", "fields": fields})
    board.wait_for("# SEAT CHECK")
    for k in ["#", "12#", "7#", "40#", "1#", "#"]:
        board.press(k)
    ev = hub.wait(lambda: hub.events("seat-check"))[0]
    assert ev["body"] == {"cards": {"A": 12, "B": 7, "C": 40, "D": 1}}


def test_a_header_count_is_taken_on_its_digit_and_checked_there(board, hub):
    """Bergen's header made in play (000_ff8a6ed40036e836.txt, BERGEN: "A double-header ...
    counts two points. A triple-header counts three points."): the seat, the digit without #,
    a digit no header can be is refused at the field and kept to delete; the last field sends
    it (no review page) and the verdict shows what was recorded, with the undo key."""
    count = {"kind": "count", "game": 1, "title": "POINTS MADE", "fields": [
        {"k": "seat", "label": "MADE BY", "min": 0, "max": 4, "seat": True},
        {"k": "header", "label": "HEADER", "min": 2, "max": 3}]}
    hub.screen(3, lines=["TABLE 3"], count=count, form={
        "kind": "result", "game": 1, "title": "GAME 1",
        "fields": [{"k": "out", "label": "OUT", "min": 0, "max": 4, "seat": True}]})
    board.wait_for("A-D: POINTS MADE")
    board.press("C")
    board.wait_for("HEADER")
    board.press("5")
    board.wait_for("ONLY 2 TO 3")
    assert "> 5_" in board.lines and not hub.events("count")
    board.press("*")
    board.press("3")
    ev = hub.wait(lambda: hub.events("count"))[0]
    assert ev["body"] == {"game": 1, "values": {"seat": 3, "header": 3}}
    shown = board.wait_for("* UNDO")
    assert "MADE BY        C" in shown and "HEADER         3" in shown


def test_a_total_no_deal_allows_is_refused_at_the_field_the_other_values_kept(board, hub):
    """Grimm 1896 (000_ff8a6ed40036e836.txt), BLOCK GAME: "Each player draws eight pieces";
    after a block "they count the amount of note-values on the pieces each still holds". All
    the seats together hold at most the pieces dealt less the lead, and at most the spots
    those pieces can show: the hub's bounds (hub/scoring/bounds.py) refuse more, and the
    board refuses it as the field that goes past it is accepted, with the reason, keeping the
    value to correct and every other value keyed."""
    from hub.conductor.cards import SEATS, card_at
    from hub.conductor.scoring import entry_form, score
    from hub.conductor.setup import from_body
    setup = from_body({"form": "block", "tables": 1})
    seats = tuple(card_at(1, s, False) for s in SEATS)
    fields = entry_form(setup, seats)
    spots, pieces = fields[1]["sum"], fields[2]["sum"]     # what the tiles and the deal allow
    hub.screen(3, lines=["TABLE 3"], form={"kind": "result", "game": 1, "title": "GAME 1",
                                           "fields": fields})
    board.wait_for("# ENTER GAME 1")
    for keys in ("#", "0", "189#", "8#", "150#", "8#"):   # a block; A and B as counted
        board.press(keys)
    board.wait_for("C SIXTEENTHS")
    board.press("189#")                                     # 528 in all: more than the tiles show
    lines = board.wait_for(f"ALL: {spots} AT MOST")
    assert "C SIXTEENTHS" in lines and "> 189_" in lines and not hub.events("result")
    board.press("***60#")
    board.wait_for("C PIECES")
    board.press("8#")
    board.press("50#")
    board.wait_for("D PIECES")
    board.press("8#")                                       # 32 pieces: one more than dealt
    lines = board.wait_for(f"ALL: {pieces} AT MOST")
    assert "D PIECES" in lines and "> 8_" in lines
    board.press("*7")                                       # 70 would pass 8: taken
    lines = board.wait_for("# MORE  * BACK")                # the review: A and B as keyed
    time.sleep(LOOK_S)                                      # read before # (test_fewer_keys.py)
    assert [line.split()[-1] for line in lines[1:6]] == ["NONE", "189", "8", "150", "8"]
    board.press("#")
    board.wait_for("# SEND  * BACK")
    board.press("#")
    values = hub.wait(lambda: hub.events("result"))[0]["body"]["values"]
    assert values == {"out": 0, "A": 189, "A_pieces": 8, "B": 150, "B_pieces": 8,
                      "C": 60, "C_pieces": 8, "D": 50, "D_pieces": 7}
    assert score(setup, seats, values).winners == ("D",)    # and the hub takes it
