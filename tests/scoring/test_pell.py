"""Pell's regular Block games and his Skin settlement."""
import random

from hub.scoring import Tile, get_form


def test_nine_piece_turns_up_the_double_blank():
    # 002_0ed9ffa4e00fde7b.txt, THREE HANDED NINE PIECE GAME: "each taking nine pieces.—[0|0
    # exposed]—every man for himself, and 6|6 making the first dash"
    f = get_form("three-handed-nine-piece")
    r = f.rules()
    assert r.players == 3
    for seed in range(30):
        p = f.play_hand(r, random.Random(seed))
        assert all(Tile(0, 0) not in h for h in p.dealt.values())
        assert p.moves[0].tile == Tile(6, 6) and p.stock == ()


def test_fourteen_piece_divides_the_pieces_and_6_6_sets():
    # 002_0ed9ffa4e00fde7b.txt, FOURTEEN PIECE GAME: "played by two persons, the pieces being
    # divided—the 6|6 setting first"
    f = get_form("fourteen-piece")
    p = f.play_hand(f.rules(), random.Random(3))
    assert [len(h) for h in p.dealt.values()] == [14, 14] and p.moves[0].tile == Tile(6, 6)


def test_skin_tie_but_one_divides_the_odd_spots_dropped():
    # 002_0ed9ffa4e00fde7b.txt: "when the parties are playing a Skin, of 7 or 9 pieces, and after a
    # block it is discovered that the parties are all a tie, but one, and this one holding the most
    # spots, they, (the spots in this one hand), are divided among the winners, the odd spots in all
    # cases not to be counted."
    f = get_form("four-handed-skin")
    out = f.score(f.rules(), {"out": 0, "A": 6, "B": 6, "C": 6, "D": 20})
    assert out.points == {"A": 6, "B": 6, "C": 6, "D": 0} and out.winners == ("A", "B", "C")
    nine = get_form("three-handed-nine-piece")
    out = nine.score(nine.rules(), {"out": 0, "A": 4, "B": 4, "C": 13})
    assert out.points == {"A": 6, "B": 6, "C": 0}


def test_match_counts_the_pieces_in_connexion():
    # 002_0ed9ffa4e00fde7b.txt: "the Match Game is a partnership game altogether, the pieces always
    # counted in connexion, and the parties, of course, always ranking as one."
    f = get_form("four-handed-match")
    r = f.rules()
    assert f.is_partnership(r)
    out = f.score(r, {"out": 0, "A": 10, "B": 3, "C": 2, "D": 12})
    assert out.side_points == {"AC": 15, "BD": 0}
    out = f.score(r, {"out": 2, "A": 10, "B": 0, "C": 2, "D": 12})
    assert out.side_points == {"AC": 0, "BD": 12} and out.points["D"] == 12


def test_game_is_100_or_1000_up():
    # 002_0ed9ffa4e00fde7b.txt, Rule 7th: "Game 100 or 1000 up, as the parties may agree."
    f = get_form("draw")
    assert f.target(f.rules(variant="pell")) == 100
    assert f.target(f.rules(variant="pell", target=1000)) == 1000


def test_hook_and_ladder_counts_by_the_rule_match_the_table():
    # 002_0ed9ffa4e00fde7b.txt, "The 21 Hooks and Ladders" (OCR: "0|3 ... 10S" is 108) and "To
    # Calculate the Count of a Hook and Ladder": the rule reproduces every entry of the table, from
    # "with O's and 1's, 120" down to "with 6's and 5's, 60".
    from hub.scoring.forms.pell import hook_and_ladder_count
    table = {(0, 1): 120, (0, 2): 114, (0, 3): 108, (0, 4): 102, (0, 5): 96, (0, 6): 90,
             (1, 2): 108, (1, 3): 102, (1, 4): 96, (1, 5): 90, (1, 6): 84,
             (2, 3): 96, (2, 4): 90, (2, 5): 84, (2, 6): 78,
             (3, 4): 84, (3, 5): 78, (3, 6): 72, (4, 5): 72, (4, 6): 66, (5, 6): 60}
    assert len(table) == 21
    assert {k: hook_and_ladder_count(*k) for k in table} == table
