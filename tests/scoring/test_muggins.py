"""Muggins: rounding, the entry form and its refusals, the two Muggins calls, game targets."""
import pytest

from hub.scoring import Refusal, get_form
from hub.scoring.settle import round5

M = get_form("muggins")


def test_rounding_parker():
    # 001_9f9bc89015baa380.txt, MUGGINS: "His opponents having twenty spots and he nineteen, he
    # adds twenty ... If they have twenty-two he adds twenty ... twenty-three he adds twenty-five"
    assert [round5(n) for n in (20, 22, 23)] == [20, 20, 25]


def test_rounding_milton_bradley():
    # 003_611dc33fc9a3dd20.txt, MUGGINS: "If the spots amount to 28 or 29, the points scored would
    # be 30. If it were 26 or 27, the score would be 25."
    assert [round5(n) for n in (26, 27, 28, 29)] == [25, 25, 30, 30]


def values(rules, out, spots, play=None, muggins=None):
    v = {"out": out}
    for i, s in enumerate(rules.seats):
        v[s] = spots[i]
        v[f"{s}_play"] = (play or [0] * 4)[i]
        if rules.variant == "tandy":
            v[f"{s}_muggins"] = (muggins or [0] * 4)[i]
    return v


def test_domino_adds_the_others_spots_rounded():
    r = M.rules(players=2, variant="parker")
    out = M.score(r, values(r, 1, [0, 23], [15, 10]))
    assert out.points == {"A": 15 + 25, "B": 10} and out.winners == ("A",)


def test_milton_bradley_block_scores_the_difference_rounded():
    # 003_611dc33fc9a3dd20.txt: "If both players are blocked, the player with the lowest number
    # of spots on his remaining Dominoes scores the difference"
    r = M.rules(players=2, variant="milton-bradley")
    out = M.score(r, values(r, 0, [9, 31]))
    assert out.points == {"A": 20, "B": 0} and out.blocked


def test_count_not_a_multiple_of_five_is_refused():
    r = M.rules(players=2)
    with pytest.raises(Refusal) as e:
        M.score(r, values(r, 1, [0, 10], [12, 0]))
    assert e.value.why == "NOT A MULTIPLE 5"


def test_more_spots_than_the_set_holds_is_refused():
    # each seat may hold what it drew (up to 153 spots), but the two hands together cannot
    # show more than the set less the lead's double blank: 168
    r = M.rules(players=2)
    assert M.score(r, values(r, 0, [153, 15])).points["B"] == 140
    with pytest.raises(Refusal) as e:
        M.score(r, values(r, 0, [153, 16]))
    assert e.value.why == "TOO MANY SPOTS"


def test_the_domino_seat_cannot_hold_spots():
    r = M.rules(players=2)
    with pytest.raises(Refusal) as e:
        M.score(r, values(r, 1, [4, 10]))
    assert e.value.why == "DOMINO HAS SPOTS"


def test_tandy_muggins_caller_takes_the_count_parker_loses_it():
    # 004_ee99a39654249905.txt: "any opponent can call "muggins" and add the count to his own score"
    r = M.rules(players=2, variant="tandy")
    out = M.score(r, values(r, 1, [0, 0], [10, 0], muggins=[0, 15]))
    assert out.points["B"] == 15
    # 001_9f9bc89015baa380.txt: "any of his opponents call "Muggins" he loses the count" -- the
    # count is not keyed at all, and no field exists to give it to the caller
    assert "A_muggins" not in {f.k for f in M.entry_form(M.rules(players=2, variant="parker")).fields}


def test_targets():
    # Parker: "The game is two hundred, if two play; but one hundred and fifty, if more play."
    assert M.target(M.rules(players=2, variant="parker")) == 200
    assert M.target(M.rules(players=3, variant="parker")) == 150
    # Milton Bradley: "The player to score 100 points first wins the game."
    r = M.rules(players=2)
    assert M.target(r) == 100
    assert M.game_over(r, {"A": 100, "B": 40}) and not M.game_over(r, {"A": 95, "B": 40})


def test_who_leads_and_with_what():
    # 003_611dc33fc9a3dd20.txt: "Player with the highest Double ... plays first, playing any Domino
    # he wishes from his hand."; 001_9f9bc89015baa380.txt: "The highest Double leads"
    import random
    from hub.scoring.tiles import heaviest
    other_lead = 0
    for seed in range(60):
        for variant in ("parker", "milton-bradley"):
            r = M.rules(players=3, variant=variant)
            p = M.play_hand(r, random.Random(seed))
            top = heaviest([t for h in p.dealt.values() for t in h])
            assert top in p.dealt[p.moves[0].seat]
            if variant == "parker":
                assert p.moves[0].tile == top
            else:
                other_lead += p.moves[0].tile != top
    assert other_lead


def test_one_count_keyed_in_play():
    # 001_9f9bc89015baa380.txt: "The player who makes a count must instantly announce it"; a table
    # that keys each count as it is made uses the count form (option in_play="each")
    r = M.rules(players=2, variant="tandy", in_play="each")
    assert [f.k for f in M.count_form(r).fields] == ["seat", "ends", "muggins"]
    assert M.score_play(r, {"seat": 1, "ends": 15, "muggins": 0}).points == {"A": 15, "B": 0}
    # Tandy: the caller adds the count to his own score
    assert M.score_play(r, {"seat": 1, "ends": 15, "muggins": 2}).points == {"A": 0, "B": 15}
    # Parker: the count is lost
    p = M.rules(players=2, variant="parker", in_play="each")
    assert M.score_play(p, {"seat": 1, "ends": 15, "muggins": 2}).points == {"A": 0, "B": 0}
    for values, why in (({"seat": 1, "ends": 12, "muggins": 0}, "NOT A MULTIPLE 5"),
                        ({"seat": 1, "ends": 10, "muggins": 1}, "CALLER IS SCORER"),
                        ({"seat": 0, "ends": 10, "muggins": 0}, "NO SEAT")):
        with pytest.raises(Refusal) as e:
            M.score_play(r, values)
        assert e.value.why == why
    # without the option there is no in-play entry: the hand's form carries the totals
    with pytest.raises(Refusal) as e:
        M.score_play(M.rules(players=2), {"seat": 1, "ends": 10})
    assert e.value.why == "NOTHING IN PLAY"


def test_pieces_dealt_by_each_book():
    # 001_9f9bc89015baa380.txt, MUGGINS: "Each player draws five pieces."; 003_611dc33fc9a3dd20.txt,
    # MUGGINS rule 1: "At the start of a two-player game, each draws a hand of seven Dominoes. For
    # three or four players, each draws five Dominoes."; 004_ee99a39654249905.txt, MUGGINS: "Each
    # player draws seven pieces."
    import random
    book = {"parker": {2: 5, 3: 5, 4: 5}, "milton-bradley": {2: 7, 3: 5, 4: 5},
            "tandy": {2: 7, 3: 7, 4: 7}}
    for variant, by_players in book.items():
        for players, each in by_players.items():
            p = M.play_hand(M.rules(players=players, variant=variant), random.Random(players))
            assert {len(d) for d in p.dealt.values()} == {each}, (variant, players)


def test_the_first_double_opens_four_ends_in_milton_bradley_and_tandy_not_parker():
    # 003_611dc33fc9a3dd20.txt, MUGGINS: "All sides of the FIRST DOUBLE Domino played may be used,
    # one piece to each side and later one to each end"; 004_ee99a39654249905.txt, MUGGINS: "Play
    # can be made from both sides of the first double and both ends of the first double, giving
    # four different points upon which to build." Parker's line has two ends.
    import random
    for variant, sides in (("milton-bradley", True), ("tandy", True), ("parker", False)):
        r = M.rules(players=2, variant=variant)
        on_a_side = sum(1 for seed in range(40)
                        for m in M.play_hand(r, random.Random(seed)).moves
                        if m.action == "play" and m.end >= 2)
        assert bool(on_a_side) == sides, variant
