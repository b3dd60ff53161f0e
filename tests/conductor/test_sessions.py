"""What the boards and the console see through a session: the screen's states and the bell
(docs/protocol.md, screen), late-comers during play, a call for the conductor, a guest who
leaves a Bergen table and the conductor filling the seat (000_ff8a6ed40036e836.txt:
"Late-comers will have to be satisfied to receive vacant seats at the last tables";
BERGEN GAME: "There must always be four players at each table")."""
from hub.conductor import current_bell, events as k, screen, screens, standings
from party.hands import spots_game

from .party import Party, cards_seating, win


def test_a_table_screen_through_a_session():
    p = Party()
    p.create(form="block", tables=2)
    p.guests([f"G{i}" for i in range(7)])
    p.draw()
    sc = screens(p.state)[1]
    assert (sc["state"], sc["form"]["kind"], sc["bell"]) == ("waiting", "seat-check", None)
    p.must(p.staff(k.SESSION_STARTED, {"session": 1}))
    p.must(p.table(1, k.SEAT_CHECK, {"cards": p.card_numbers(1)}))
    p.must(p.table(2, k.SEAT_CHECK, {"cards": p.card_numbers(2)}))
    sc = screens(p.state)[1]
    assert (sc["state"], sc["form"]["kind"], sc["form"]["game"]) == ("playing", "result", 1)
    assert sc["form"]["fields"][0]["k"] == "lead"
    for seat in "ABCD":
        p.must(win(p, 1, seat, 3))
    bell = current_bell(p.state)
    assert bell == {"id": "s1-bell-1", "meaning": "finish"}
    assert screens(p.state)[1]["state"] == "between"          # Table 1 has no game in hand
    sc = screens(p.state)[2]
    assert (sc["state"], sc["bell"], sc["form"]["game"]) == ("finishing", bell, 1)
    assert standings(p.state)["session"]["bell"]["unacknowledged"] == [1, 2]
    p.ack_bell()
    assert standings(p.state)["session"]["bell"]["unacknowledged"] == []
    assert standings(p.state)["session"]["missing"] == [2]
    # a late-comer during play takes the vacant seat at the last table; that table checks
    # its seats again before its next result
    p.must(p.staff(k.GUEST_LISTED, {"guest": "Late"}))
    v = p.must(p.staff(k.CHECKED_IN, {"guest": "Late"}))
    assert v.msg == "TABLE 2 D" and p.state.guests["Late"].card == "2D"
    assert screens(p.state)[2]["form"]["kind"] == "seat-check"
    v = win(p, 2, "A", 3)
    assert (v.ok, v.why) == (False, "SEAT CHECK FIRST")
    p.must(p.table(2, k.SEAT_CHECK, {"cards": p.card_numbers(2)}))
    p.must(p.result(2, spots_game("ABCD", {"D": 8}, lead="A")))
    assert standings(p.state)["session"]["state"] == "ended"
    # the table calls the conductor (a long press); the console sees it until answered
    p.must(p.table(2, k.CALL, {}))
    assert standings(p.state)["calls"] == [2]
    p.must(p.staff(k.CALL_ANSWERED, {"table": 2}))
    assert standings(p.state)["calls"] == []
    p.reseat()
    assert screens(p.state)[1]["state"] == "waiting" and current_bell(p.state) is None


def test_the_screens_of_some_tables_are_theirs_and_only_of_tables_at_the_party():
    """What the hub publishes after a batch: the screens of the tables it changed."""
    p = Party()
    p.create(form="draw", tables=3)
    p.guests([f"G{i}" for i in range(12)])
    p.draw()
    p.must(p.staff(k.SESSION_STARTED, {"session": 1}))
    assert screens(p.state, frozenset({3, 2, 9})) == {2: screen(p.state, 2), 3: screen(p.state, 3)}
    assert list(screens(p.state, frozenset({3, 2}))) == [2, 3]
    assert screens(p.state) == {n: screen(p.state, n) for n in (1, 2, 3)}


def test_a_bergen_guest_leaves_and_the_conductor_fills_the_seat():
    p = Party()
    p.create(form="bergen", tables=3)
    p.guests([f"G{i:02d}" for i in range(8)])
    p.draw()
    p.guests(["G08", "G09"])      # late-comers after the draw
    # ten guests: two full tables; Table 3 (W3A, W3B) waits for four
    assert cards_seating(p)[3] == "W3A W3B - -"
    p.start()
    leaver = p.state.holders["W2A"]
    p.must(p.staff(k.GUEST_LEFT, {"guest": leaver, "why": "unwell"}))
    assert screens(p.state)[2]["state"] == "waiting"      # three cannot play Bergen
    red = p.state.holders["R1A"]
    v = p.staff(k.GUEST_SEATED, {"guest": p.state.holders["W3A"], "table": 2, "seat": "C",
                                 "why": "fill"})
    assert (v.ok, v.why) == (False, "SEAT TAKEN")
    v = p.staff(k.GUEST_SEATED, {"guest": red, "table": 2, "seat": "A", "why": "fill"})
    assert (v.ok, v.why) == (False, "WRONG COLOUR")      # whites sit in A and B
    p.must(p.staff(k.GUEST_SEATED, {"guest": p.state.holders["W3A"], "table": 2, "seat": "A",
                                    "why": "fill the seat left"}))
    assert cards_seating(p)[2] == "W3A W2B R2A R2B"
    assert p.state.session.tables[2].seat_check is None      # checked again before play
    p.must(p.table(2, k.SEAT_CHECK, {"cards": p.card_numbers(2)}))
    assert screens(p.state)[2]["state"] == "playing"


def test_a_block_party_by_the_clock_ends_with_a_finish_bell():
    """Set-up: "number of sessions or a time limit". By the clock, Block's bell keeps its
    meaning: "finish the games they are playing, but ... not permit a new game" (FIRST
    SESSION); the session it ends is the last."""
    p = Party()
    p.create(form="block", tables=1, time_limit=60)
    p.guests([f"G{i}" for i in range(4)])
    p.draw()
    p.start()
    p.must(win(p, 1, "A", 3))
    p.now += 30 * 60
    assert p.tick() == []
    p.now += 31 * 60
    (bell,) = p.tick()
    assert bell.body["meaning"] == "finish" and p.state.session.bell.final
    p.ack_bell()
    p.must(win(p, 1, "B", 4))                 # the game in hand
    v = win(p, 1, "C", 2)
    assert (v.ok, v.why) == (False, "NO NEW GAME")
    assert standings(p.state)["session"]["state"] == "over"
    p.must(p.staff(k.FINAL_COUNT, {}))


def test_the_bell_rings_once_a_session_though_another_table_finishes_its_fourth_game():
    """BLOCK: "As soon as four games have been finished at any table the conductor rings the
    bell ... but he does not permit a new game to be started": Table 2's game in hand, its
    fourth, ends the session without a second bell."""
    p = Party()
    p.create(form="block", tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    for seat in "ABC":
        p.must(win(p, 2, seat, 3))
    for seat in "ABCD":
        p.must(win(p, 1, seat, 3))
    p.ack_bell()
    p.must(win(p, 2, "D", 3))
    assert [b.meaning for b in p.state.session.bells] == ["finish"]
    assert standings(p.state)["session"]["state"] == "ended"


def test_a_game_in_hand_annulled_and_a_table_closed_only_where_a_game_is_played():
    """"If it occur that a wrong match has been made ... the conductor or his assistant will
    have to annul the game ... and the players at that particular table will have to begin
    a new game" (BLOCK): a game in hand, at a table playing in a session that has begun."""
    p = Party()
    p.create(form="block", tables=3)
    p.guests([f"G{i}" for i in range(8)])      # Table 3 stays empty
    p.draw()
    for kind in (k.GAME_ANNULLED, k.TABLE_CLOSED):
        v = p.staff(kind, {"table": 1, "why": "wrong match"})
        assert (v.ok, v.why) == (False, "NOT IN SESSION")
    p.start()
    for n, kind in ((3, k.GAME_ANNULLED), (9, k.GAME_ANNULLED), (9, k.TABLE_CLOSED)):
        v = p.staff(kind, {"table": n, "why": "wrong match"})   # nobody at 3; no Table 9
        assert (v.ok, v.why) == (False, "NOT IN SESSION")
    p.must(p.staff(k.GAME_ANNULLED, {"table": 1, "why": "wrong match"}))
    t = p.state.session.tables[1]
    assert (t.entered, len(t.annulled_in_hand)) == (0, 1)
    for seat in "ABCD":
        p.must(win(p, 1, seat, 3))
    v = p.staff(k.GAME_ANNULLED, {"table": 1, "why": "wrong match"})
    assert (v.ok, v.why) == (False, "NOT IN SESSION")        # Table 1 has played its four
    p.must(p.staff(k.TABLE_CLOSED, {"table": 2, "why": "no game in hand"}))
    assert standings(p.state)["session"]["state"] == "ended"
