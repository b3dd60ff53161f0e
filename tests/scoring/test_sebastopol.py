"""Sebastopol (Grimm)."""
import random

import pytest

from hub.scoring import CROSS, Line, Placement, Refusal, Tile, get_form

S = get_form("sebastopol")
T = Tile.of


def test_the_cross_opens_four_ends_at_once():
    # 000_ff8a6ed40036e836.txt, SEBASTOPOL: "In addition to playing to each end of the Double Whole,
    # it is necessary to play to each side of it as well ... It is not necessary, however, that the
    # cross should be completed before the other lines are commenced."
    line = Line(CROSS).play(Placement(Tile(16, 16), -1))
    assert line.end_values() == (16, 16, 16, 16)
    line = line.play(line.placements(Tile.of(16, 4))[0])
    assert len(line.placements(Tile.of(4, 1))) == 1           # the arm goes on
    assert sorted(line.end_values()) == [4, 16, 16, 16]      # three arms still open on the Whole


def test_double_whole_leads_and_first_round_plays_wholes_or_passes():
    # "The holder of the Double Whole begins with that piece. Only in the first round each player
    # must play a Whole or pass."
    r = S.rules()
    for seed in range(40):
        moves = S.play_hand(r, random.Random(seed), leader="C").moves
        assert moves[0].action == "lead" and moves[0].tile == Tile(16, 16)
        for m in moves[1:4]:
            assert m.action == "pass" or m.tile.has(16)


def keyed(rules, out, spots, pieces, draw=0):
    v = {"out": out, "draw": draw}
    for i, s in enumerate(rules.seats):
        v.update({s: spots[i], f"{s}_pieces": pieces[i]})
    return v


def test_block_fewest_values_then_fewest_dominoes_then_the_draw():
    # party: "If two players happen to have the same amount of note-values, then the holder of the
    # least number of dominoes wins. If there be also a tie in the number of dominoes, then the two
    # players each draw a domino from the reshuffled set, and the one whose domino has the least
    # amount of values on it wins the game."
    r = S.rules()
    assert S.score(r, keyed(r, 0, [12, 20, 30, 40], [2, 2, 3, 3])).winners == ("A",)
    assert S.score(r, keyed(r, 0, [12, 12, 30, 40], [2, 1, 3, 3])).winners == ("B",)
    out = S.score(r, keyed(r, 0, [12, 12, 30, 40], [2, 2, 3, 3], draw=2))
    assert out.winners == ("B",) and out.points == {"A": 0, "B": 1, "C": 0, "D": 0}
    with pytest.raises(Refusal) as e:
        S.score(r, keyed(r, 0, [12, 12, 30, 40], [2, 2, 3, 3], draw=3))
    assert e.value.why == "NOT A TIED SEAT"
    with pytest.raises(Refusal) as e:
        S.score(r, keyed(r, 0, [12, 20, 30, 40], [2, 2, 3, 3], draw=1))
    assert e.value.why == "NO DRAW NEEDED"


def test_a_game_won_is_one_punch_hole():
    # party: "The conductor indicates the game any player wins by punching a hole"
    r = S.rules()
    out = S.score(r, keyed(r, 3, [12, 20, 0, 40], [2, 2, 0, 3]))
    assert out.points == {"A": 0, "B": 0, "C": 1, "D": 0} and out.tally["C_games"] == 1
    assert S.target(r) is None


def test_a_large_party_divides_the_set_and_the_rest_is_the_stock():
    # 000_ff8a6ed40036e836.txt, SEBASTOPOL: "For a large party this makes a very good round game.
    # Then the dominoes should be equally divided among the players, and the dominoes remaining
    # over form the stock. Should it happen that the Double Whole remains in the stock, then the
    # next highest Double has to be played, and in the first round, only values corresponding to
    # the first domino should be matched."
    import random
    r = S.rules(players=5)
    assert r.variant == "large-party"
    assert S.spec(r).hand_size == 7 and [f.k for f in S.entry_form(r).fields][:3] == [
        "out", "A", "A_pieces"]
    whole_in_stock = 0
    for seed in range(400):
        p = S.play_hand(r, random.Random(seed))
        dealt = [t for d in p.dealt.values() for t in d]
        assert {len(d) for d in p.dealt.values()} == {7} and len(dealt) == 35
        lead = p.moves[0].tile
        assert lead == max(t for t in dealt if t.is_double)
        if T(16, 16) not in dealt:
            whole_in_stock += 1
            assert lead == T(12, 12)
            first_round = [m for m in p.moves[1:5] if m.action == "play"]
            assert all(m.tile.has(12) for m in first_round)
        assert S.score(r, p.values) == p.outcome
    assert whole_in_stock
    assert S.rules(players=10).players == 10 and S.spec(S.rules(players=10)).hand_size == 3
