"""A Bergen party (000_ff8a6ed40036e836.txt, BERGEN GAME, the party): White and Red cards
drawn, four at every table, partners of opposite colours with one counter each; "Ten
points made at any table ends a session, whereupon the bell is rung, and all tables stop
playing at once"; the partners with most points get a punch-hole each and move to the
next (higher) table, where "they separate and take a new partner, but always one of the
opposite color"; equal points: "the partners who won their number first move on"; "The
game lasts an hour and a half, and the sessions are not counted"; prizes "to the luckiest
player of each side, the one who has gained the greatest number of punch-holes"."""
from hub.conductor import events as k
from hub.conductor import screens, standings, to_json
from hub.conductor.prizes import awards, totals
from hub.conductor.standings import score_cards
from party.hands import bergen_game, bergen_hand

from .party import Party, cards_seating


def hand(p: Party, n: int, winner: str, doubles: int = 0):
    return p.must(p.result(n, bergen_hand(winner, doubles)))


def test_a_bergen_party_by_the_clock():
    p = Party()
    p.create(form="bergen", tables=3)
    names = [f"Guest {i:02d}" for i in range(12)]
    p.guests(names[:8])
    for name in names[8:]:
        p.must(p.staff(k.GUEST_LISTED, {"guest": name}))
    p.draw()
    # white cards marked Table 1 A, Table 1 B ...; red the same; whites in A and B, reds in C, D
    assert cards_seating(p) == {1: "W1A W1B R1A R1B", 2: "W2A W2B R2A R2B"}
    p.must(p.staff(k.CHECKED_IN, {"guest": names[8]}))
    assert cards_seating(p)[3] == "W3A - - -"
    assert screens(p.state)[3]["lines"][-1] == "WAIT FOR PLAYERS"   # "always four players"
    for name in names[9:]:   # late-comers fill the last table, each with a card of the seat's colour
        p.must(p.staff(k.CHECKED_IN, {"guest": name}))
    assert cards_seating(p)[3] == "W3A W3B R3A R3B"

    p.start()
    hand(p, 2, "B", 1)       # Table 2: B+D 3 ...
    hand(p, 1, "A", 4)       # Table 1: A+C 9
    hand(p, 1, "B")          # B+D 1
    v = hand(p, 1, "C")      # A+C 10: the bell, stop at once
    assert [e.kind for e in v.events] == [k.RESULT, k.HUB_BELL]
    assert p.state.session.bell.meaning == "stop"
    assert screens(p.state)[2]["state"] == "stopped" and screens(p.state)[2]["form"] is None
    # Table 2's hand keyed before its board showed the bell still counts: A+C 3, equal
    hand(p, 2, "A", 1)
    assert standings(p.state)["session"]["bell"]["unacknowledged"] == [1, 2, 3]
    p.ack_bell()
    v = p.result(2, bergen_hand("B", 2))
    assert (v.ok, v.why) == (False, "TABLE STOPPED")
    # Table 3 made no point: neither won its number first, a lot is drawn
    p.reseat()
    s2 = p.state.session
    (lot,) = s2.lots
    assert lot["table"] == 3 and lot["why"] == "equal points"
    t3 = list(lot["moved"])   # the lot is a frozen value: its cards a tuple
    # Table 1: A+C (10) move to the last table; Table 2: B+D reached 3 first and move up;
    # at each table the staying white keeps A with the arriving red in C
    seating = cards_seating(p, 2)
    assert seating[1] == "W1B W2B R2B R1B"
    assert seating[3] == ("W3B W1A R1A R3B" if t3 == ["W3A", "R3A"] else "W3A W1A R1A R3A")
    assert seating[2] == (f"W2A {t3[0]} {t3[1]} R2A")
    assert sorted(c for _, c in p.state.punches) == sorted(["W1A", "R1A", "W2B", "R2B"] + t3)

    p.start()
    hand(p, 1, "B")                   # Table 1: B+D 1
    hand(p, 3, "A")                   # Table 3: A+C 1
    hand(p, 2, "A", 5)                # Table 2: A+C 11: the bell
    p.ack_bell()
    p.reseat()

    # session III ends by the clock: an hour and a half after the first bell
    p.start()
    hand(p, 1, "A")
    hand(p, 2, "B")
    hand(p, 3, "A")
    assert p.tick() == []
    p.now += 90 * 60
    (bell,) = p.tick()
    assert bell.body == {"meaning": "stop", "cause": "time", "final": True}
    p.ack_bell()
    v = p.staff(k.RESEAT, {})
    assert (v.ok, v.why) == (False, "LAST SESSION")
    p.must(p.staff(k.FINAL_COUNT, {}))
    holes = totals(p.state)
    assert sum(holes.values()) == 2 * 3 * 3          # two punch-holes a table a session
    for a in awards(p.state):
        side = [c for c in holes if c[0] == a.prize[0]]
        assert a.amount == max(holes[c] for c in side)
        assert set(a.cards) == {c for c in side if holes[c] == a.amount}
    assert {a.prize for a in awards(p.state)} == {"White", "Red"}
    expected = {}
    # with these seeds three whites are tied on two punch-holes each
    assert [a.cards for a in awards(p.state) if a.needs_play_off] == [("W1A", "W2B", "W3A")]
    for a in awards(p.state):
        if a.needs_play_off:
            # the tied play a game among themselves, each for himself; B wins it
            n = {"White": 1, "Red": 2}[a.prize]
            p.must(p.staff(k.PLAY_OFF, {"prize": a.prize, "table": n}))
            seats = "ABCD"[:len(a.cards)]
            p.must(p.table(n, k.RESULT, {"game": 1, "values": bergen_game(seats, "B", 1)}))
            expected[a.prize] = p.state.holders[a.cards[1]]
        else:
            expected[a.prize] = p.state.holders[a.winner]
    assert expected.keys() == {"White", "Red"}
    won = {a["prize"]: a["winner"] for a in to_json(p.state)["prizes"]}
    assert won == expected
    assert p.replayed() == to_json(p.state)


def test_a_session_i_result_corrected_after_the_movement_moves_its_punch_holes_not_the_players():
    """Bergen (000_ff8a6ed40036e836.txt, the party): "The partners having won the greatest
    number of points at that moment get each a punch hole in their score-cards and move to
    the next (higher) table"; prizes go to "the one who has gained the greatest number of
    punch-holes". A result of session I corrected once session II is seated gives the holes
    to the partners the corrected points make the winners; nobody moves again
    (docs/conductor.md, "A correction after later seating")."""
    p = Party()
    p.create(form="bergen", tables=2, sessions=2)
    p.guests([f"Guest {i:02d}" for i in range(8)])
    p.draw()
    p.start()
    hand(p, 2, "B")                           # Table 2: B+D 1
    misread = hand(p, 1, "A", 5)              # Table 1: A+C 11 (keyed so), the bell
    p.ack_bell()
    p.reseat()
    seated = cards_seating(p, 2)
    assert totals(p.state)["W1A"] == totals(p.state)["R1A"] == 1 and totals(p.state)["W1B"] == 0

    # it was B who made domino, with five double-headers: B+D 11 at Table 1
    entry = p.state.sessions[0].tables[1].entries[0].id
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": entry, "values": bergen_hand("B", 5),
                                        "why": "the counters misread"}))
    holes = totals(p.state)
    assert (holes["W1A"], holes["R1A"], holes["W1B"], holes["R1B"]) == (0, 0, 1, 1)
    assert holes["W2B"] == holes["R2B"] == 1             # Table 2's holes as they were
    assert cards_seating(p, 2) == seated                 # seating announced stays as journaled
    card = next(c for c in score_cards(p.state) if c["card"] == "W1B")
    assert card["punch_holes"] == [1]                    # his score-card punched for session I
    assert misread.ok and p.replayed() == to_json(p.state)


def test_a_header_keyed_as_it_was_made_corrected_by_the_conductor_goes_to_the_other_side():
    """Bergen (000_ff8a6ed40036e836.txt, BERGEN GAME): "A double-header, either led or made
    counts two points. A triple-header counts three points"; partners win "conjointly". A
    header keyed for the wrong seat (points as they are made, table.count), found after
    the hand is in, is corrected at the console: it is scored again as the header it is,
    its points moved to the seat's side, never read as a whole hand."""
    p = Party()
    p.create(form="bergen", tables=2, sessions=2, seat_check=False, in_play="each")
    p.guests([f"Guest {i:02d}" for i in range(8)])
    p.draw()
    p.start()
    p.must(p.table(1, k.COUNT, {"game": 1, "values": {"seat": 1, "header": 3}}))   # keyed for A
    count = p.journal[-1].id
    p.must(p.result(1, {"out": 2}))                                                 # B: domino
    row = next(r for r in standings(p.state)["progress"] if r["table"] == 1)
    assert row["points"] == {"AC": 3, "BD": 1}
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": count, "values": {"seat": 4, "header": 3},
                                        "why": "it was D's triple-header"}))
    row = next(r for r in standings(p.state)["progress"] if r["table"] == 1)
    assert row["points"] == {"AC": 0, "BD": 4}
    assert p.replayed() == to_json(p.state)


def test_a_correction_that_makes_ten_points_rings_the_bell():
    """"Ten points made at any table ends a session, whereupon the bell is rung" (BERGEN
    GAME): made by a result corrected as by one keyed."""
    p = Party()
    p.create(form="bergen", tables=2)
    p.guests([f"Guest {i:02d}" for i in range(8)])
    p.draw()
    p.start()
    hand(p, 1, "A", 4)                     # A+C 9
    entry = hand(p, 1, "B").events[0].id   # B+D 1
    assert p.state.session.bell is None
    v = p.must(p.staff(k.RESULT_CORRECTED, {"entry": entry, "values": bergen_hand("C"),
                                            "why": "the other side won it"}))
    assert [e.kind for e in v.events] == [k.RESULT_CORRECTED, k.HUB_BELL]
    assert p.state.session.bell.meaning == "stop"
    assert p.replayed() == to_json(p.state)
