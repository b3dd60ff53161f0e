"""Matador: Parker's sums of seven, Milton Bradley's sums of ten."""
import random

from hub.scoring import Line, Placement, Tile, get_form
from hub.scoring.forms.matador import MB_MATCH, PARKER_MATCH

MA = get_form("matador")
T = Tile.of


def line_of(matching, lead):
    return Line(matching=matching, crosswise=False).play(Placement(lead, -1))


def test_parker_complements_of_seven():
    # 001_9f9bc89015baa380.txt, MATADOR: "a Five requires a Two to be played to it ... a Six, an
    # Ace; a Four, a Three-spot"; "If Double-Four is led, the next player must play a Three to it"
    line = line_of(PARKER_MATCH, T(4, 4))
    assert {p.tile for t in (T(3, 5), T(4, 5), T(2, 6)) for p in line.placements(t)} == {T(3, 5)}
    # "Supposing it to be a Three-five, the end spots will be a Four and a Five—the next player must
    # then either play a Three on the Four, or a Two on the Five"
    line = line.play(line.placements(T(3, 5))[0])
    assert sorted(line.end_values()) == [4, 5]
    assert [line.ends[p.end].value for p in line.placements(T(3, 1))] == [4]
    assert [line.ends[p.end].value for p in line.placements(T(2, 1))] == [5]


def test_parker_matadors_play_anywhere_and_alone_on_a_blank():
    # "there are four Matadors, the Double-Blank, and the three natural Seven-spots, namely,
    # Six-Ace, Five-Two and Four-Three. These can be played anywhere, at any time, and are, of
    # course, the only ones which can be played on a Blank."
    line = line_of(PARKER_MATCH, T(0, 2))
    on_blank = [t for t in (T(0, 0), T(6, 1), T(5, 2), T(4, 3), T(0, 5), T(6, 6), T(2, 2))
                if any(line.ends[p.end].value == 0 for p in line.placements(t))]
    assert on_blank == [T(0, 0), T(6, 1), T(5, 2), T(4, 3)]


def test_parker_a_doublet_is_a_single_piece():
    # "a Doublet counts as a single piece. Thus: Double-Six is a Six, and can only be played on an
    # Ace-Spot"; "if left in the hand after Domino is called, it counts twelve to the winner"
    line = line_of(PARKER_MATCH, T(1, 3))
    [p] = line.placements(T(6, 6))
    assert line.ends[p.end].value == 1 and line.play(p).end_values().count(6) == 1
    r = MA.rules(players=2)
    assert MA.score(r, {"out": 1, "A": 0, "B": 12, "forfeit": 0}).points["A"] == 12


def test_parker_block_won_without_a_count():
    # "the hand containing the least number of spots wins, but it does not count to its own score"
    r = MA.rules(players=3)
    out = MA.score(r, {"out": 0, "A": 9, "B": 4, "C": 11, "forfeit": 0})
    assert out.winners == ("B",) and out.points == {"A": 0, "B": 0, "C": 0}


def test_parker_failing_to_play_forfeits_the_count():
    # "he must play if he can; the failure to do so deprives him of any count in that hand"
    r = MA.rules(players=3)
    out = MA.score(r, {"out": 1, "A": 0, "B": 4, "C": 11, "forfeit": 1})
    assert out.winners == ("A",) and out.points == {"A": 0, "B": 0, "C": 0}
    assert MA.score(r, {"out": 1, "A": 0, "B": 4, "C": 11, "forfeit": 2}).points["A"] == 15


def test_parker_two_players_leave_three_undrawn():
    # "When two play, there must be three pieces left undrawn"
    r = MA.rules(players=2)
    for seed in range(50):
        assert len(MA.play_hand(r, random.Random(seed)).stock) >= 3


def test_milton_bradley_sums_of_ten_and_six_matadors():
    # 003_611dc33fc9a3dd20.txt, MATADOR: "a 9 requires a 1 to be played on it, 8 and 2, 7 and 3";
    # "there are 6 Matador tiles. They are 9-1, 8-2, 7-3, 6-4, 5-5 and Double Blank."
    line = line_of(MB_MATCH, T(9, 2))
    assert [line.ends[p.end].value for p in line.placements(T(1, 4))] == [9]
    assert [line.ends[p.end].value for p in line.placements(T(8, 4))] == [2]
    assert len(MB_MATCH.matadors) == 6
    # "Doubles count only half their full value in playing. Thus, a Double-Nine counts 9"
    [p] = line.placements(T(1, 1))
    assert line.ends[p.end].value == 9


def test_milton_bradley_block_difference_to_each_opponent():
    # "the one whose hand contains the least number of spots scores the difference between his hand
    # and the total of each opponent. Doubles left in the hand count their full value"
    r = MA.rules(players=3, variant="milton-bradley")
    assert r.tile_set == "double-nine"
    out = MA.score(r, {"out": 0, "A": 18, "B": 5, "C": 11})
    assert out.points == {"A": 0, "B": 13 + 6, "C": 0}


def test_milton_bradley_draws_rather_than_spend_a_matador():
    # 003_611dc33fc9a3dd20.txt, MATADOR rule 5: "When a player cannot make the required 10 and does
    # not wish to play his Matador or has none, he must draw from the pool until he gets a playable
    # Domino. If he still does not get one, he must play his Matador, if he has one, or pass."
    r = MA.rules(players=4, variant="milton-bradley")
    held_back = 0
    for seed in range(60):
        p = MA.play_hand(r, random.Random(seed))
        spec = MA.spec(r)
        line = Line(matching=MB_MATCH, crosswise=False)
        hands = {s: list(h) for s, h in p.dealt.items()}
        for m in p.moves:
            if m.action == "draw":
                legal = [q for t in hands[m.seat] for q in line.placements(t)]
                held_back += bool(legal)
                assert all(q.tile in spec.matching.matadors for q in legal)
                hands[m.seat].append(m.tile)
            elif m.action in ("lead", "play"):
                line = line.play(Placement(m.tile, m.end, m.exposed))
                hands[m.seat].remove(m.tile)
    assert held_back
