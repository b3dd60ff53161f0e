"""The Bergen game (Grimm): headers, the comparison on a block, game and party."""
import pytest

from hub.scoring import PLAIN, Line, Placement, Refusal, Tile, get_form
from hub.scoring.forms.bergen import compare, header

B = get_form("bergen")
T = Tile.of


def lay(line, tile, on):
    p = Placement(tile, -1) if on is None else next(
        q for q in line.placements(tile) if line.ends[q.end].value == on)
    return line.play(p), header(line, line.play(p))


def test_lead_double_is_a_double_header():
    # 000_ff8a6ed40036e836.txt, BERGEN GAME: "The highest Double begins, and is called a
    # double-header."
    _, made = lay(Line(PLAIN), T(16, 16), None)
    assert made == 2


def test_equal_ends_double_header_and_triple_header():
    # "Making the extremities of the line correspond to each other in value, is called a
    # double-header. If one of the ends be a Double ... and the next player can lay a piece that
    # will make the other extremity of the same value ... it makes a triple-header."
    line, _ = lay(Line(PLAIN), T(4, 8), None)
    line, made = lay(line, T(8, 2), 8)
    assert made == 0
    line, made = lay(line, T(2, 4), 2)
    assert made == 2 and line.end_values() == (4, 4)
    # "or if a Double can be added to one end double-headed, it makes a triple-header"
    _, made = lay(line, T(4, 4), 4)
    assert made == 3
    line, _ = lay(Line(PLAIN), T(2, 2), None)
    line, _ = lay(line, T(2, 6), 2)
    line, _ = lay(line, T(6, 12), 6)
    _, made = lay(line, T(12, 2), 12)
    assert made == 3   # a Double at one end, the other made the same value


def test_comparison_on_a_block():
    # "the lowest wins; but if the lowest holds a Double in his hand, and his opponent none, the
    # opponent wins."  hands: (sixteenths, doubles held, lowest double)
    assert compare({"A": (10, 1, 2), "B": (30, 0, 0)}) == "B"
    # "Or if two players have Doubles, and one player none, the last wins."
    assert compare({"A": (4, 1, 2), "B": (6, 1, 3), "C": (40, 0, 0)}) == "C"
    # "If there be a Double in each hand, the lowest Double wins."
    assert compare({"A": (40, 1, 3), "B": (12, 1, 6)}) == "A"
    # "if a player hold two Doubles, though they be the Double Sixteenth and the Double Eighth,
    # and his opponent holds but one, though it be the Double Whole, the latter wins."
    assert compare({"A": (2 + 4, 2, 1), "B": (32, 1, 16)}) == "B"
    # no doubles anywhere: the lowest count wins; an equal lowest the book does not settle
    assert compare({"A": (9, 0, 0), "B": (12, 0, 0)}) == "A"
    assert compare({"A": (9, 0, 0), "B": (9, 0, 0)}) is None


def keyed(rules, out, double=(), triple=(), spots=(), held=(), low=()):
    n = rules.players
    double, triple = list(double) or [0] * n, list(triple) or [0] * n
    spots, held, low = list(spots) or [0] * n, list(held) or [0] * n, list(low) or [0] * n
    v = {"out": out}
    for i, s in enumerate(rules.seats):
        v.update({f"{s}_double": double[i], f"{s}_triple": triple[i], s: spots[i],
                  f"{s}_doubles": held[i], f"{s}_low": low[i]})
    return v


def test_game_points():
    # "A game won by either "domino" or comparing gains one point. A double-header, either led or
    # made counts two points. A triple-header counts three points."
    r = B.rules(players=2, variant="game")
    out = B.score(r, keyed(r, 2, double=[1, 1], triple=[0, 1], spots=[12, 0]))
    assert out.points == {"A": 2, "B": 2 + 3 + 1}
    # "The game is ten points when three or four play, and fifteen points when two play."
    assert B.target(r) == 15 and B.target(B.rules(players=3, variant="game")) == 10


def test_party_sides_win_conjointly():
    # party: "Players with opposite colors are partners"; "Whatever points the partners win, they
    # win conjointly."; "If both parties at a table have the same number of doubles, then the
    # holders of the doubles with the least value win."
    r = B.rules()
    assert r.players == 4 and B.is_partnership(r)
    out = B.score(r, keyed(r, 0, double=[1, 0, 0, 0], spots=[30, 8, 20, 16],
                           held=[0, 1, 1, 0], low=[0, 4, 2, 0]))
    # A+C hold one double (2), B+D one double (4): A+C win the comparison
    assert out.side_points == {"AC": 2 + 1, "BD": 0}
    assert out.points == {"A": 3, "B": 0, "C": 3, "D": 0}


def test_near_game_rule_when_either_party_nears_game_but_not_in_parties():
    # 000_ff8a6ed40036e836.txt, BERGEN GAME: "But when either party is within two points of
    # being out, a double-header or a triple-header counts only one point; within three of being
    # out, a triple-header counts only two points." BERGEN GAME (party): "these restrictions are
    # not observed in parties."
    r = B.rules(players=2, variant="game")   # game 15
    v = keyed(r, 1, triple=[1, 0], spots=[0, 10])
    assert B.score(r, v, totals={"A": 0, "B": 0}).points["A"] == 3 + 1
    # the opponent near game restricts the scorer too: "either party"
    assert B.score(r, v, totals={"A": 0, "B": 12}).points["A"] == 2 + 1   # 3 to go
    assert B.score(r, v, totals={"A": 0, "B": 13}).points["A"] == 1 + 1   # 2 to go
    assert B.score(r, v, totals={"A": 12, "B": 0}).points["A"] == 2 + 1
    # a double-header counts two until within two of out
    d = keyed(r, 1, double=[1, 0], spots=[0, 10])
    assert B.score(r, d, totals={"A": 0, "B": 12}).points["A"] == 2 + 1
    assert B.score(r, d, totals={"A": 0, "B": 13}).points["A"] == 1 + 1
    # headers made in the hand bring the game nearer: the second triple counts two
    two = keyed(r, 1, triple=[2, 0], spots=[0, 10])
    assert B.score(r, two, totals={"A": 9, "B": 0}).points["A"] == 3 + 2 + 1
    # parties: not observed, in the party form and in a game played at a party
    for rules in (B.rules(players=4, variant="party"), B.rules(players=2, variant="game", party=True),
                  B.rules(players=2, variant="game", near_game=False)):
        v = keyed(rules, 1, triple=[1] + [0] * (rules.players - 1),
                  spots=[0] + [10] * (rules.players - 1))
        assert B.score(rules, v, totals=dict.fromkeys(rules.seats, 13)).points["A"] == 3 + 1


def test_refusals():
    r = B.rules(players=2, variant="game")
    with pytest.raises(Refusal) as e:
        B.score(r, keyed(r, 0, spots=[10, 10], held=[1, 0], low=[5, 0]))
    assert e.value.why == "NOT A NOTE VALUE"
    with pytest.raises(Refusal) as e:
        B.score(r, keyed(r, 0, spots=[10, 10], held=[1, 0], low=[0, 0]))
    assert e.value.why == "DOUBLES MISMATCH"
    with pytest.raises(Refusal) as e:
        B.score(r, keyed(r, 1, spots=[10, 10]))
    assert e.value.why == "DOMINO HAS SPOTS"


def test_a_player_who_cannot_match_draws_one_then_plays_or_passes():
    # "If a player is not able to match from his hand, he draws one piece from the stock, and
    # plays. If he is still not able to play, the next plays"
    import random
    r = B.rules()
    for seed in range(60):
        moves = B.play_hand(r, random.Random(seed)).moves
        for a, b in zip(moves, moves[1:]):
            if a.action == "draw":
                assert b.seat == a.seat and b.action in ("play", "pass")


def test_one_header_keyed_in_play():
    r = B.rules(in_play="each")
    out = B.score_play(r, {"seat": 2, "header": 3})
    assert out.side_points == {"AC": 0, "BD": 3} and out.points["D"] == 3
    with pytest.raises(Refusal) as e:
        B.score_play(r, {"seat": 2, "header": 4})
    assert e.value.why == "HEADER 2 OR 3"
    near = B.rules(players=2, variant="game", in_play="each")
    assert B.score_play(near, {"seat": 1, "header": 3}, totals={"A": 0, "B": 13}).points["A"] == 1


def test_tie_on_doubles_lowest_double_or_sum_of_doubles():
    # 000_ff8a6ed40036e836.txt, BERGEN GAME: "If there be a Double in each hand, the lowest Double
    # wins"; BERGEN GAME (party): "If both parties at a table have the same number of doubles,
    # then the holders of the doubles with the least value win." A+C hold the Double Sixteenth
    # and the Double Whole, B+D the Double Eighth and the Double Dotted Eighth: the lowest single
    # double is A+C's (the default), the least sum B+D's (4 + 6 against 2 + 32 sixteenths).
    hands = dict(double=[0] * 4, spots=[2 + 30, 4 + 30, 32 + 30, 6 + 30], held=[1, 1, 1, 1])
    r = B.rules()
    assert B.score(r, keyed(r, 0, low=[1, 2, 16, 3], **hands)).side_points == {"AC": 1, "BD": 0}
    s = B.rules(variant="party-sum")
    assert [f.label for f in B.entry_form(s).fields][-3:] == [
        "D SIXTEENTHS", "D DOUBLES HELD", "D DOUBLES 16THS"]
    summed = {k.replace("_low", "_sum"): v for k, v in keyed(s, 0, low=[2, 4, 32, 6], **hands).items()}
    assert B.score(s, summed).side_points == {"AC": 0, "BD": 1}
    # the game for two: two doubles each, 1|1 + 16|16 against 2|2 + 3|3
    g, gs = B.rules(players=2, variant="game"), B.rules(players=2, variant="game-sum")
    two = dict(spots=[34 + 9, 10 + 9], held=[2, 2])
    assert B.score(g, keyed(g, 0, low=[1, 2], **two)).winners == ("A",)
    v = {k.replace("_low", "_sum"): x for k, x in keyed(gs, 0, low=[34, 10], **two).items()}
    assert B.score(gs, v).winners == ("B",)
    # a sum no two doubles show is refused
    bad = dict(v, A_sum=35)
    with pytest.raises(Refusal) as e:
        B.score(gs, bad)
    assert e.value.why == "DOUBLES MISMATCH"
