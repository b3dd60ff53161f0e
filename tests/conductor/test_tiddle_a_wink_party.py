"""A Tiddle-a-wink party: "The players are divided into 'sides' as in the Bergen Game ...
Ten points made in partnership at any table ends a session, whereupon the winners seek
new partners at the next table. For every 'remove' the players get a punch-hole in their
score-cards" (TIDDLE-A-WINK, the party, 000_ff8a6ed40036e836.txt). Here with the named
option head_table="stay" (the book does not say what Table 1's winners do) and a booby
prize."""
from hub.conductor import events as k
from hub.conductor import screens, to_json
from hub.conductor.prizes import awards, totals
from party.hands import tiddle_hand

from .party import Party, cards_seating


def hand(p: Party, n: int, winner: str, doubles: int = 0):
    return p.must(p.result(n, tiddle_hand(winner, doubles)))


def test_a_tiddle_a_wink_party_where_table_one_winners_stay():
    p = Party()
    p.create(form="tiddle-a-wink", tables=2, head_table="stay", booby=True)
    p.guests([f"Guest {i}" for i in range(8)])
    p.draw(seed=2)
    p.start()
    # "The Double Whole leads at the beginning of a session"
    assert screens(p.state)[1]["lines"][-1] == "DBL WHOLE LEADS"
    hand(p, 2, "B", 2)        # Table 2: B+D 3
    hand(p, 1, "A", 7)        # Table 1: A+C 8 ("A point is made whenever a player obtains two
    assert screens(p.state)[1]["lines"][-1] == "LEAD IN TURN"   # turns through playing a double")
    v = hand(p, 1, "C", 1)    # A+C 10 in partnership: the bell, stop at once
    assert p.state.session.bell.meaning == "stop" and v.events[-1].kind == k.HUB_BELL
    p.ack_bell()
    p.reseat()
    # Table 1's winners stay and take the arriving winners of Table 2 as partners, always of
    # the opposite colour; Table 1's others go to the last table
    assert cards_seating(p, 2) == {1: "W1A W2B R2B R1A", 2: "W2A W1B R1B R2A"}

    p.start()
    p.now += 91 * 60          # the hour and a half is up: this session is the last
    hand(p, 2, "A", 4)
    hand(p, 2, "C", 4)        # A+C 10
    assert p.state.session.bell.final
    p.ack_bell()
    v = p.staff(k.RESEAT, {})
    assert (v.ok, v.why) == (False, "LAST SESSION")
    p.must(p.staff(k.FINAL_COUNT, {}))
    # Table 1 made no point in session II: its removes were drawn by lot at the count
    (lot,) = p.state.session.lots
    assert lot["table"] == 1
    holes = totals(p.state)
    assert holes["W2A"] == 1 and holes["R1B"] == 1       # Table 2's A+C in session II
    assert sum(holes.values()) == 8
    got = {a.prize: a for a in awards(p.state)}
    assert set(got) == {"White", "Red", "booby"}
    for side in ("White", "Red"):
        best = max(n for c, n in holes.items() if c[0] == side[0])
        assert got[side].amount == best
    assert got["booby"].amount == min(holes[c] for c in holes if c not in
                                      got["White"].cards + got["Red"].cards)
    assert p.replayed() == to_json(p.state)
