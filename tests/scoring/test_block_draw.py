"""Block and Draw: each book's settlement of a hand."""
import random

import pytest

from hub.scoring import Refusal, get_form

BLOCK, DRAW = get_form("block"), get_form("draw")


def keyed(rules, out, spots, pieces=None):
    v = {"out": out}
    for i, s in enumerate(rules.seats):
        v[s] = spots[i]
        if pieces:
            v[f"{s}_pieces"] = pieces[i]
    return v


def test_domino_takes_the_spots_the_rest_hold():
    # 001_9f9bc89015baa380.txt, BLOCK GAME: 'cries "Domino!" wins the hand, and adds to his count
    # the number of spots the rest hold'
    r = BLOCK.rules(players=3, variant="parker")
    out = BLOCK.score(r, keyed(r, 2, [7, 0, 12]))
    assert out.points == {"A": 0, "B": 19, "C": 0} and out.winners == ("B",)


def test_parker_block_lowest_takes_all_tie_no_count():
    # 001_9f9bc89015baa380.txt, BLOCK GAME: "Whoever has the lowest number of spots adds to his
    # count the number held by his opponents. If there are two with the same number, and lower
    # than their opponents, there is no count."
    r = BLOCK.rules(players=3, variant="parker")
    assert BLOCK.score(r, keyed(r, 0, [4, 9, 11])).points == {"A": 20, "B": 0, "C": 0}
    tie = BLOCK.score(r, keyed(r, 0, [4, 4, 11]))
    assert tie.points == {"A": 0, "B": 0, "C": 0} and tie.winners == () and tie.blocked


def test_milton_bradley_block_minus_his_count():
    # 003_611dc33fc9a3dd20.txt, BLOCK GAME rule 3: "adds to his score the total spots held by each
    # of his opponents, minus his count"
    r = BLOCK.rules(players=3, variant="milton-bradley")
    assert BLOCK.score(r, keyed(r, 0, [4, 9, 11])).points == {"A": (9 - 4) + (11 - 4), "B": 0, "C": 0}


def test_tandy_difference_ladder():
    # 004_ee99a39654249905.txt, MUGGINS (Block and Draw score "the same"): "the player holding the
    # lowest number is given the difference between his total and that of each opponent. Then the
    # next lowest—is given a score equal to the difference between his total "spots" and that of
    # each of his higher opponents; etc."
    r = BLOCK.rules(players=4, variant="tandy")
    out = BLOCK.score(r, keyed(r, 0, [3, 10, 6, 20]))
    assert out.points == {"A": 7 + 3 + 17, "C": 4 + 14, "B": 10, "D": 0}
    assert out.winners == ("A",)   # "the player holding the lowest number"
    level = BLOCK.score(r, keyed(r, 0, [3, 3, 6, 20]))
    assert level.winners == ("A", "B") and level.points["A"] == level.points["B"] == 3 + 17


def test_grimm_equal_lowest_fewer_dominoes_wins():
    # 000_ff8a6ed40036e836.txt, BLOCK GAME: "If there are two with the same amount of note-values
    # then the holder of the smallest number of dominoes wins."
    r = BLOCK.rules(players=3, variant="grimm")
    assert r.tile_set == "musical"
    out = BLOCK.score(r, keyed(r, 0, [24, 24, 40], [3, 2, 4]))
    assert out.winners == ("B",) and out.points["B"] == 24 + 40


def test_grimm_draw_keeps_two_in_the_stock():
    # 000_ff8a6ed40036e836.txt, DRAW GAME: "Two pieces must always remain unused in the stock."
    r = DRAW.rules(players=4, variant="grimm")
    for seed in range(100):
        assert len(DRAW.play_hand(r, random.Random(seed)).stock) >= 2


def test_pell_draw_blocked_player_draws_the_remainder():
    # 002_0ed9ffa4e00fde7b.txt, DRAW GAME, Rule 4th: "When A. blocks the game, B. is compelled to
    # draw the remainder of the pack"; Parker's Draw: "even though the game be blocked by his
    # adversary". A blocked Draw hand never ends with pieces in the stock.
    r = DRAW.rules(players=2, variant="pell")
    blocked = 0
    for seed in range(300):
        p = DRAW.play_hand(r, random.Random(seed))
        if p.outcome.blocked:
            blocked += 1
            assert p.stock == ()
    assert blocked


def test_block_never_draws():
    r = BLOCK.rules(players=2)
    for seed in range(50):
        p = BLOCK.play_hand(r, random.Random(seed))
        assert all(m.action != "draw" for m in p.moves)
        assert len(p.stock) == 28 - 14


def test_milton_bradley_draw_is_for_two():
    # 003_611dc33fc9a3dd20.txt: "DRAW GAME (2 Players)"
    with pytest.raises(Refusal):
        DRAW.rules(players=3, variant="milton-bradley")


def test_entry_form_serialises_to_the_protocol():
    # a seat's field is bounded by the seven heaviest pieces (69 spots): a Block hand draws none;
    # both seats together by the thirteen heaviest (112: 12+11+10+10+9+9+8+8+8+7+7+7+6), the
    # fourteenth dealt being the lead on the table (docs/protocol.md, "sum")
    r = BLOCK.rules(players=2)
    assert BLOCK.entry_form(r).to_json() == [
        {"k": "out", "label": "DOMINO BY", "min": 0, "max": 2, "seat": True},
        # a seat's spots are not asked of the seat that went out (docs/protocol.md, "when")
        {"k": "A", "label": "A SPOTS", "min": 0, "max": 69, "when": ["out", [0, 2]], "sum": 112},
        {"k": "B", "label": "B SPOTS", "min": 0, "max": 69, "when": ["out", [0, 1]], "sum": 112},
    ]


def test_a_seat_not_at_the_table_is_refused():
    r = BLOCK.rules(players=2)
    with pytest.raises(Refusal) as e:
        BLOCK.score(r, {"out": 3, "A": 0, "B": 0})
    assert e.value.why == "DOMINO BY 0-2"


def test_pell_rule_4_the_double_of_the_blocked_suit_in_the_pack():
    # 002_0ed9ffa4e00fde7b.txt, Rule 4th: "When A. blocks the game, B. is compelled to draw the
    # remainder of the pack, or cards. If the double of the suit upon which it is blocked is still
    # in the pack, and B. draws it, he then compels A. to draw the balance."
    from hub.scoring import Line, Placement, Tile
    from hub.scoring.lineplay import LineHand, take_turn
    T = Tile.of
    r = DRAW.rules(players=2, variant="pell")
    spec = DRAW.spec(r)
    # A has sealed the line on sixes: every six but the double is down, both ends show six
    line = Line()
    line = line.play(Placement(T(6, 0), -1))
    for t, on in ((T(0, 1), 0), (T(1, 6), 1), (T(6, 2), 6), (T(2, 3), 2), (T(3, 6), 3),
                  (T(6, 4), 6), (T(4, 5), 4), (T(5, 6), 5)):
        line = line.play(next(p for p in line.placements(t) if line.ends[p.end].value == on))
    assert line.end_values() == (6, 6)
    h = LineHand({}, {"A": [T(2, 2)], "B": [T(0, 0), T(1, 1)]},
                 [T(3, 3), T(6, 6), T(4, 4), T(5, 5)], line,
                 scored={"A": 0, "B": 0}, doubles={"A": 0, "B": 0})
    rng = random.Random(0)
    assert take_turn(h, "B", spec, rng, None)      # B draws until the double comes, and plays it
    assert [m.action for m in h.moves] == ["draw", "draw", "play"]
    assert h.moves[-1].tile == T(6, 6)
    assert take_turn(h, "A", spec, rng, None)      # A draws the balance, and cannot play
    assert [(m.seat, m.action) for m in h.moves[3:]] == [("A", "draw"), ("A", "draw"), ("A", "pass")]
    assert h.stock == [] and not take_turn(h, "B", spec, rng, None)


def test_more_spots_than_a_hand_can_show_is_refused():
    # Block: no drawing, so a seat holds at most the seven it drew: 6-6, 6-5, 5-5, 6-4, 5-4, 6-3
    # and 4-4 show 69 spots; in the Draw a seat may hold the whole stock besides.
    r = BLOCK.rules(players=2)
    assert BLOCK.score(r, {"out": 0, "A": 10, "B": 69}).points["A"] == 69
    with pytest.raises(Refusal) as e:
        BLOCK.score(r, {"out": 0, "A": 10, "B": 70})
    assert e.value.why == "B SPOTS 0-69"
    d = DRAW.rules(players=2)
    assert DRAW.score(d, {"out": 1, "A": 0, "B": 120}).points["A"] == 120


@pytest.mark.parametrize("form", [BLOCK, DRAW])
def test_grimm_deals_eight_each_whatever_the_players(form):
    # 000_ff8a6ed40036e836.txt, BLOCK GAME: "Each player draws eight pieces."; DRAW GAME: "Each
    # player draws eight pieces as in the Block Game". Only a party's short table draws more
    # (LIST: "The number of dominoes to be drawn by each player at that table will have to be
    # increased, in order to make the number taken from the stock at the commencement of each
    # game equal to the number of pieces taken from the stock at the other tables").
    for players in (2, 3, 4):
        r = form.rules(players=players, variant="grimm")
        played = form.play_hand(r, random.Random(players))
        assert {len(d) for d in played.dealt.values()} == {8}
    assert form.spec(form.rules(players=2, variant="grimm", party=True)).hand_size == 16
    assert form.spec(form.rules(players=3, variant="grimm", party=True)).hand_size == 10
    assert form.spec(form.rules(players=4, variant="grimm", party=True)).hand_size == 8


def test_tandy_leads_any_piece_parker_the_highest_double():
    # 004_ee99a39654249905.txt, DRAW: "Any domino can be lead"; BLOCK: "The same game as "Draw""
    # 001_9f9bc89015baa380.txt, BLOCK GAME: "The highest Double leads"
    from hub.scoring.tiles import heaviest
    for form in (BLOCK, DRAW):
        free = 0
        for seed in range(60):
            for variant in ("tandy", "parker"):
                p = form.play_hand(form.rules(players=2, variant=variant), random.Random(seed))
                top = heaviest([t for d in p.dealt.values() for t in d])
                if variant == "parker":
                    assert p.moves[0].tile == top
                else:
                    free += p.moves[0].tile != top
        assert free


def test_a_domino_asks_neither_the_winners_spots_nor_anyones_pieces():
    """000_ff8a6ed40036e836.txt, BLOCK GAME: on a block the tie goes to "the smallest number of
    dominoes", so pieces are asked only after a block; the seat that went out holds nothing."""
    r = BLOCK.rules(players=4, variant="grimm")
    form = BLOCK.entry_form(r)
    assert [f.k for f in form.fields if f.asked({"out": 1})] == ["out", "B", "C", "D"]
    assert BLOCK.score(r, {"out": 1, "B": 10, "C": 12, "D": 6}).winners == ("A",)
    blocked = [f.k for f in form.fields if f.asked({"out": 0})]
    assert blocked == ["out", "A", "A_pieces", "B", "B_pieces", "C", "C_pieces", "D", "D_pieces"]
    with pytest.raises(Refusal, match="MISSING A PIECES"):
        BLOCK.score(r, {"out": 0, "A": 10, "B": 10, "C": 12, "D": 6})
