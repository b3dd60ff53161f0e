"""A Sebastopol party: "There are four sessions. Each session is ended as soon as any table
has finished its third game"; "after every session two players of each table move to the
next (higher) one. Those two always move who have won the most games in the session ended";
"If there is a tie in the number of games won among three players at one table, then
dominoes are drawn from the reshuffled set, and the holders of the dominoes with the most
note-values move to the next table" (SEBASTOPOL, 000_ff8a6ed40036e836.txt)."""
from hub.conductor import events as k
from hub.conductor import screens, to_json
from hub.conductor.prizes import awards
from party.hands import sebastopol_game

from .party import Party, cards_seating, occupied


def won(p: Party, n: int, seat: str):
    return p.must(p.result(n, sebastopol_game(occupied(p, n), seat)))


def session(p: Party, table_one: str, others: dict) -> None:
    p.start()
    for seat in table_one:
        won(p, 1, seat)
    p.ack_bell()
    for n, seat in others.items():
        won(p, n, seat)


def lot_winners(lot: dict) -> list:
    """The cards that drew the dominoes with the most note-values, from the recorded draw."""
    first = lot["draws"][0]
    return sorted(first, key=lambda c: -sum(first[c]))


def test_a_sebastopol_party_of_four_sessions_with_a_short_table_and_lots():
    p = Party()
    p.create(form="sebastopol", tables=3)
    p.guests([f"Guest {i:02d}" for i in range(11)])
    p.draw(seed=5)
    assert cards_seating(p)[3] == "3A 3B 3C -"
    assert screens(p.state)[3]["lines"][-1] == "DRAW 12 EACH"   # "the dominoes are equally divided"
    # Table 1 wins A, A, B; Table 2 only C (A, B, D tie at none: a lot among three);
    # Table 3 (three players) only B (A, C tie: a lot)
    session(p, "AAB", {2: "C", 3: "B"})
    p.reseat(seed=99)
    s2 = p.state.session
    lots = {lot["table"]: lot for lot in s2.lots}
    assert set(lots) == {2, 3}
    assert sorted(lots[2]["draws"][0]) == ["2A", "2B", "2D"]
    assert sorted(lots[3]["draws"][0]) == ["3A", "3C"]
    x = lots[2]["moved"][1]
    y = lots[3]["moved"][1]
    # with one round drawn, the domino with the most note-values moves
    if len(lots[2]["draws"]) == 1:
        assert x == lot_winners(lots[2])[0]
    # movers to the next higher table (Table 1's to the last), those staying keep their seats
    seating = cards_seating(p, 2)
    assert seating[1] == f"2C {x} 1C 1D"
    t2 = s2.tables[2].seats
    assert set(c for c in t2 if c) == {"3B", y} | ({"2A", "2B", "2D"} - {x})
    stayer = ({"3A", "3C"} - {y}).pop()
    assert seating[3] == ("3A 1A 1B -" if stayer == "3A" else "1A 1B 3C -")

    # sessions II to IV, each won outright at every table
    session(p, "ABA", {2: "A", 3: "A"})
    p.reseat()
    session(p, "AAA", {2: "B", 3: "A"})
    p.reseat()
    session(p, "ABC", {2: "A", 3: "A"})
    v = p.staff(k.RESEAT, {})
    assert (v.ok, v.why) == (False, "LAST SESSION")     # "There are four sessions"
    p.must(p.staff(k.FINAL_COUNT, {}))
    cards = to_json(p.state)["score_cards"]
    card_games = {c["card"]: c["total"] for c in cards}
    # the punched card: a hole for each game won, in its session and game
    for c in cards:
        assert len(c["punch_holes"]) == c["total"]
        for number, game in c["punch_holes"]:
            assert c["sessions"][number - 1]["games"][game - 1] == 1
    assert sum(card_games.values()) == 3 + 2 + 3 + 2 + 3 + 2 + 3 + 2   # every game punched once
    best = max(card_games.values())
    (prize,) = awards(p.state)
    assert prize.amount == best and set(prize.cards) == {c for c, g in card_games.items() if g == best}
    assert p.replayed() == to_json(p.state)


def test_table_one_winners_stay_with_the_named_option():
    """The book does not say what Table 1's two do; head_table="stay" keeps them there and
    sends Table 1's others to the last table."""
    p = Party()
    p.create(form="sebastopol", tables=2, head_table="stay")
    p.guests([f"Guest {i}" for i in range(8)])
    p.draw()
    p.start()
    won(p, 2, "C")
    won(p, 2, "D")
    for seat in "ABA":
        won(p, 1, seat)
    p.ack_bell()
    won(p, 2, "D")
    p.reseat()
    # Table 1: A 2, B 1 stay in their seats; Table 2's D (2 games) and C (1) come up and take
    # the seats left, the one with more games first; Table 1's C and D go to the last table
    assert cards_seating(p, 2) == {1: "1A 1B 2D 2C", 2: "2A 2B 1C 1D"}


def test_a_late_comer_who_played_no_game_has_won_none_and_draws_with_the_others_at_none():
    """ "Those two always move who have won the most games in the session ended"; a
    late-comer seated after his table's last game has won no game: with the two others who
    won none he draws for the second moving place (SEBASTOPOL)."""
    p = Party()
    p.create(form="sebastopol", tables=3)
    p.guests([f"Guest {i:02d}" for i in range(11)])
    p.must(p.staff(k.GUEST_LISTED, {"guest": "Late Lucy"}))
    p.draw(seed=5)
    p.start()
    won(p, 3, "B")
    assert p.must(p.staff(k.CHECKED_IN, {"guest": "Late Lucy"})).msg == "TABLE 3 D"
    for seat in "AAB":
        won(p, 1, seat)
    p.ack_bell()
    won(p, 2, "C")
    p.must(p.table(3, k.NO_GAME, {}))             # the bell before Table 3's second game
    p.reseat(seed=99)
    (lot,) = [lot for lot in p.state.session.lots if lot["table"] == 3]
    assert sorted(lot["draws"][0]) == ["3A", "3C", "3D"]
    assert lot["moved"][0] == "3B"


def test_a_late_comer_in_a_leavers_seat_ahead_of_the_winners_has_still_won_none():
    """The two who won a game each move, no lot drawn: the late-comer seated at A, in the
    seat of a guest who left, has won none (SEBASTOPOL)."""
    p = Party()
    p.create(form="sebastopol", tables=3)
    p.guests([f"Guest {i:02d}" for i in range(12)])
    p.draw(seed=5)
    p.start()
    won(p, 3, "B")
    won(p, 3, "C")
    p.must(p.staff(k.GUEST_LEFT, {"guest": p.state.holders["3A"], "why": "train home"}))
    assert p.must(p.staff(k.WALK_IN, {"guest": "Late Lou"})).msg == "TABLE 3 A"
    for seat in "AAB":
        won(p, 1, seat)
    p.ack_bell()
    won(p, 2, "C")
    p.must(p.table(3, k.NO_GAME, {}))
    p.reseat(seed=99)
    assert [lot["table"] for lot in p.state.session.lots] == [2]
    assert {c for c in p.state.session.tables[2].seats if c} >= {"3B", "3C"}
