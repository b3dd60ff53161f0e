"""The line of play and its in-play counts, checked against the books' worked examples."""
import pytest

from hub.scoring import PLAIN, SPINNER, Line, Placement, Refusal, Tile
from hub.scoring.forms.muggins import fives

T = Tile.of


def play(line, *moves):
    """Play (tile, on) pairs: `on` is the value matched (a side of the spinner: "side"), the
    lead takes -1."""
    counts = []
    for (a, b), on in moves:
        tile = T(a, b)
        if on == -1:
            p = Placement(tile, -1)
        else:
            side = on == "side"
            p = next(q for q in line.placements(tile) if line.ends[q.end].side == side
                     and (side or line.ends[q.end].value == on))
        before, line = line, line.play(p)
        counts.append(fives(before, line))
    return line, counts


def test_milton_bradley_figure_1():
    # 003_611dc33fc9a3dd20.txt, FIGURE 1: "Here the leader played 3-2 (#1) and scored five points.
    # The next player layed down 3-5 (#2), making seven points, no score. The first player then
    # played 2-5 (#3) and scored ten points. His opponent then played Double 5-5 (#4) scoring 15"
    line, counts = play(Line(SPINNER), ((3, 2), -1), ((3, 5), 3), ((2, 5), 2), ((5, 5), 5))
    assert counts == [5, 0, 10, 15]
    assert line.spinner == T(5, 5)


def test_milton_bradley_figure_2_four_ends_of_the_first_double():
    # 003_611dc33fc9a3dd20.txt, FIGURE 2: "the leader played 5-0 (#5) and scored 5 points. His
    # opponent played 5-4 (#6) now totaling the THREE ends 5+4+0 = 9 points, no score. Next 5-6
    # (#7) is played. The total of the FOUR ends 6+5+4+0 = 15 points."
    line, _ = play(Line(SPINNER), ((3, 2), -1), ((3, 5), 3), ((2, 5), 2), ((5, 5), 5))
    line, counts = play(line, ((5, 0), 5))
    assert counts == [5]
    assert len(line.ends) == 4  # both ends of the spinner covered: its sides open
    line, counts = play(line, ((5, 4), "side"), ((5, 6), "side"))
    assert counts == [0, 15]
    assert line.count == 15 and sorted(line.end_values()) == [0, 4, 5, 6]


def test_sides_of_a_spinner_stay_shut_until_its_ends_are_covered():
    # 003_611dc33fc9a3dd20.txt: "one piece to each side and later one to each end" -- in
    # Figure 2 the sides are played only after 5-0 covered the double's end.
    line, _ = play(Line(SPINNER), ((5, 5), -1))
    assert len(line.ends) == 2
    line, _ = play(line, ((5, 1), 5))
    assert len(line.ends) == 2 and line.count == 1 + 10
    line, _ = play(line, ((5, 2), 5))
    assert len(line.ends) == 4 and line.count == 3


def test_parker_muggins_examples():
    # 001_9f9bc89015baa380.txt, MUGGINS: "a Trey being at one end and a Five being at the other,
    # the next player in order, putting down a Deuce-Five, would score five"
    line, _ = play(Line(PLAIN), ((3, 5), -1))
    _, counts = play(line, ((5, 2), 5))
    assert counts == [5]
    # "if Double-Trey was at one end, and a player was successful in playing so as to get
    # Double-Deuce at the other end, it would score ten for him"
    line, _ = play(Line(PLAIN), ((3, 3), -1), ((3, 2), 3))
    _, counts = play(line, ((2, 2), 2))
    assert counts == [10]
    # "A Double-Six being at one end, and Four at the other if the next player set down a
    # Double-Four, he counts twenty"
    line, _ = play(Line(PLAIN), ((6, 6), -1), ((6, 4), 6))
    _, counts = play(line, ((4, 4), 4))
    assert counts == [20]


def test_parker_lead_counts_its_spots():
    # 001_9f9bc89015baa380.txt, MUGGINS: "If the one who leads can put down any domino containing
    # spots that amount to five or ten, as the Double-Five, Six-Four, Five-Blank, Trey-Deuce"
    for a, b in ((5, 5), (6, 4), (5, 0), (3, 2)):
        _, counts = play(Line(PLAIN), ((a, b), -1))
        assert counts == [a + b]


def test_a_tile_that_does_not_fit_is_not_offered():
    line, _ = play(Line(PLAIN), ((3, 5), -1), ((5, 6), 5))
    assert line.placements(T(1, 2)) == []
    assert {p.end for p in line.placements(T(3, 6))} == {0, 1}


def test_a_tile_on_the_table_an_end_not_there_or_a_misfit_is_refused():
    # 000_ff8a6ed40036e836.txt, BLOCK GAME: "each one played must match the note-value on the
    # free end of a piece"; 003_611dc33fc9a3dd20.txt: "The Double-Six set contains 28 tiles", each
    # piece once, so a piece on the table cannot be played again. The refusal says why.
    line, _ = play(Line(PLAIN), ((3, 5), -1), ((5, 6), 5))
    assert line.placements(T(5, 6)) == []
    for p, why in ((Placement(T(5, 6), 0, 6), "TILE ON TABLE"),
                   (Placement(T(3, 3), 2, 3), "NO SUCH END"),
                   (Placement(T(3, 3), -2, 3), "NO SUCH END"),
                   (Placement(T(1, 2), 0, 1), "DOES NOT FIT")):
        with pytest.raises(Refusal) as e:
            line.play(p)
        assert e.value.why == why
