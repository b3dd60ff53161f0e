"""Sebastopol (Grimm)."""
import random

import pytest

from hub.scoring import CROSS, Line, Placement, Refusal, Tile, get_form

S = get_form("sebastopol")


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
