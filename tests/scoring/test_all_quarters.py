"""All Quarters (Grimm)."""
import pytest

from hub.scoring import PLAIN, Line, Placement, Refusal, Tile, get_form
from hub.scoring.forms.all_quarters import quarters

AQ = get_form("all-quarters")
T = Tile.of


def lay(line, tile, on):
    p = Placement(tile, -1) if on is None else next(
        q for q in line.placements(tile) if line.ends[q.end].value == on)
    return line.play(p)


def test_three_sixteenths_and_a_sixteenth_make_a_quarter():
    # 000_ff8a6ed40036e836.txt, ALL QUARTERS: "Thus Three-sixteenths being at one end and an Eighth
    # being at the other, the next player putting down an Eighth-Sixteenth, would score one quarter"
    line = lay(Line(PLAIN), T(3, 2), None)
    after = lay(line, T(2, 1), 2)
    assert after.count == 4 and quarters(line, after) == 1


def test_a_quarter_and_three_quarters_make_four():
    # "If the value of One quarter is at one end, and a player is successful in playing so as to
    # get the value of Three-quarters at the other end, it will score four quarters for him."
    line = lay(Line(PLAIN), T(4, 8), None)
    after = lay(line, T(8, 12), 8)
    assert quarters(line, after) == 4


def test_double_whole_and_double_three_quarter_make_fourteen():
    # "If a Double Whole is at one end and Three-quarters at the other, and the next player puts
    # down a Double-Three-quarter, he counts fourteen quarters"
    line = lay(Line(PLAIN), T(16, 16), None)
    line = lay(line, T(16, 12), 16)
    assert line.count == 32 + 12
    after = lay(line, T(12, 12), 12)
    assert quarters(line, after) == 14


def test_no_score_when_not_whole_quarters():
    line = lay(Line(PLAIN), T(3, 2), None)
    after = lay(line, T(2, 4), 2)   # 3 + 4 = 7 sixteenths
    assert quarters(line, after) == 0


def keyed(rules, out, spots, pieces):
    """The hand's end as keyed with the counts made in play keyed as they were made."""
    v = {"out": out}
    for i, s in enumerate(rules.seats):
        v.update({s: spots[i], f"{s}_pieces": pieces[i]})
    if out:   # after a domino the others' sixteenths are keyed as one total
        v["rest"] = sum(spots)
    return v


def test_opponents_sixteenths_divided_by_four_remainder_dropped():
    # 000_ff8a6ed40036e836.txt, ALL-QUARTERS (party): "count in sixteenths the value of every
    # domino, then divide the total by 4 in order to get the amount in quarters. Remainders of
    # sixteenths are not marked on the score-cards."
    r = AQ.rules(players=3, in_play="each")
    out = AQ.score(r, keyed(r, 1, [0, 23, 18], [0, 3, 2]))
    assert out.points == {"A": (23 + 18) // 4, "B": 0, "C": 0}


def test_targets():
    # "The game is one hundred quarters, if two play; but seventy-five if more play."
    assert AQ.target(AQ.rules(players=2)) == 100
    assert AQ.target(AQ.rules(players=4)) == 75


def test_draws_until_two_are_left_even_when_blocked():
    # party: "The player whose turn it is must draw all dominoes from the stock except two, even
    # when it is evident that the game is blocked."
    import random
    r = AQ.rules(players=2)
    blocked = [p for p in (AQ.play_hand(r, random.Random(s)) for s in range(200))
               if all(p.hands.values())]   # every seat still holds a piece
    assert blocked and all(len(p.stock) == 2 for p in blocked)


def test_domino_seat_holding_pieces_refused():
    r = AQ.rules(players=2, in_play="each")
    with pytest.raises(Refusal) as e:
        AQ.score(r, keyed(r, 1, [0, 10], [1, 2]))
    assert e.value.why == "DOMINO HAS SPOTS"


def test_one_count_keyed_in_play():
    # party: "The player making a count must announce it when he plays his piece, and mark it on
    # his score-card immediately." Keyed as the ends' sixteenths; the engine makes the quarters.
    r = AQ.rules(players=2, in_play="each")
    assert AQ.score_play(r, {"seat": 2, "ends": 56}).points == {"A": 0, "B": 14}
    with pytest.raises(Refusal) as e:
        AQ.score_play(r, {"seat": 2, "ends": 7})
    assert e.value.why == "NOT IN QUARTERS"


def test_six_each_and_more_at_a_partys_short_table():
    # 000_ff8a6ed40036e836.txt, ALL QUARTERS: "Each player draws six pieces."; the party's
    # ALL-QUARTERS: "Otherwise the party rules are the same as in Block", and LIST: the number
    # drawn at the last table "will have to be increased, in order to make the number taken from
    # the stock ... equal": 24 from the stock, 8 each at three, 12 each at two.
    import random
    for players in (2, 3, 4):
        played = AQ.play_hand(AQ.rules(players=players), random.Random(players))
        assert {len(d) for d in played.dealt.values()} == {6}
    for players, each in ((4, 6), (3, 8), (2, 12)):
        played = AQ.play_hand(AQ.rules(players=players, party=True), random.Random(players))
        assert {len(d) for d in played.dealt.values()} == {each}


def test_equal_lowest_on_a_block_fewer_dominoes_wins():
    # 000_ff8a6ed40036e836.txt, ALL-QUARTERS (party): "Otherwise the party rules are the same as in
    # Block"; BLOCK GAME: "If there are two with the same amount of note-values then the holder of
    # the smallest number of dominoes wins."
    r = AQ.rules(players=3, in_play="each")
    out = AQ.score(r, keyed(r, 0, [24, 24, 40], [3, 2, 4]))
    assert out.winners == ("B",) and out.points["B"] == (24 + 40) // 4
    level = AQ.score(r, keyed(r, 0, [24, 24, 40], [2, 2, 4]))
    assert level.winners == () and level.points == {"A": 0, "B": 0, "C": 0}


def test_with_counts_keyed_as_made_after_a_domino_the_others_sixteenths_are_one_total():
    # 000_ff8a6ed40036e836.txt, ALL QUARTERS: "the first one who plays his last piece adds to
    # his count the amount of note-values his opponents have"; the party's ALL-QUARTERS:
    # "count in sixteenths ... then divide the total by 4": their total is all the hand needs.
    r = AQ.rules(players=4, party=True, in_play="each")
    asked = [f.k for f in AQ.entry_form(r).fields if f.asked({"out": 2})]
    assert asked == ["out", "rest"]
    out = AQ.score(r, {"out": 2, "rest": 41})
    assert out.points == {"A": 0, "B": 41 // 4, "C": 0, "D": 0} and out.winners == ("B",)
    # after a block each seat's hand is compared: no total asked
    assert "rest" not in [f.k for f in AQ.entry_form(r).fields if f.asked({"out": 0})]


def test_a_game_is_keyed_as_each_seats_quarters_on_its_score_card():
    # 000_ff8a6ed40036e836.txt, the party's ALL-QUARTERS: the score-card's columns "1 GAME.
    # 2 GAME. 3 GAME."; "The player making a count must announce it when he plays his piece,
    # and mark it on his score-card immediately"; the winner "adds to his count the amount of
    # note-values his opponents have ... divide the total by 4". The table keys what the cards
    # show; the game's winners are the seats with the most quarters.
    r = AQ.rules(players=4, party=True)
    assert [(f.k, f.label) for f in AQ.entry_form(r).fields] == [
        ("A_quarters", "A QUARTERS"), ("B_quarters", "B QUARTERS"), ("C_quarters", "C QUARTERS"),
        ("D_quarters", "D QUARTERS")]
    out = AQ.score(r, {"A_quarters": 3, "B_quarters": 5 + 41 // 4, "C_quarters": 0, "D_quarters": 1})
    assert out.points == {"A": 3, "B": 15, "C": 0, "D": 1} and out.winners == ("B",)
    level = AQ.score(r, {"A_quarters": 7, "B_quarters": 7, "C_quarters": 2, "D_quarters": 0})
    assert level.winners == ("A", "B")
    nobody = AQ.score(r, {"A_quarters": 0, "B_quarters": 0, "C_quarters": 0, "D_quarters": 0})
    assert nobody.winners == () and nobody.points == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_a_seats_quarters_are_bounded_by_what_its_pieces_and_the_others_can_give():
    # ALL QUARTERS: a play scores "this amount of quarters" of the ends, fourteen at most ("he
    # counts fourteen quarters"); a seat lays at most what it was dealt and drew, and the winner
    # adds a quarter of the others' sixteenths: more is refused, at the field and at the hub.
    import random
    r = AQ.rules(players=4, party=True)
    fields = AQ.entry_form(r).fields
    most, total = fields[0].max, fields[0].total
    assert {f.total for f in fields} == {total} and most < total < 4 * most
    with pytest.raises(Refusal) as e:
        AQ.score(r, {"A_quarters": most + 1, "B_quarters": 0, "C_quarters": 0, "D_quarters": 0})
    assert e.value.why == f"A QUARTERS 0-{most}"
    with pytest.raises(Refusal) as e:
        AQ.check_partial(r, {"A_quarters": most, "B_quarters": most})
    assert e.value.why == f"ALL: {total} AT MOST"
    # what a thousand hands played by the engine marked on the cards fits, and scores as keyed
    rng = random.Random(1)
    for _ in range(1000):
        played = AQ.play_hand(r, rng)
        assert AQ.score(r, played.values) == played.outcome
