"""Tiddle-a-wink: Milton Bradley's, Grimm's game and Grimm's party count."""
import random

import pytest

from hub.scoring import Line, Placement, Refusal, get_form

TW = get_form("tiddle-a-wink")


def test_a_double_gives_a_second_turn():
    # 003_611dc33fc9a3dd20.txt, TIDDLE-A-WINK: "When a player plays a double, either when leading or
    # during the game, he is allowed a second play"; 000_ff8a6ed40036e836.txt: "He who plays a
    # Double in any part of the game, is entitled to play again if he can"
    seen = 0
    for variant in ("grimm-party", "milton-bradley"):
        r = TW.rules(variant=variant, players=4 if variant != "milton-bradley" else 6,
                     tile_set="musical" if variant != "milton-bradley" else "double-nine")
        spec = TW.spec(r)
        for seed in range(40):
            p = TW.play_hand(r, random.Random(seed))
            line = Line(spec.layout, spec.matching, spec.crosswise)
            hands = {s: list(d) for s, d in p.dealt.items()}
            for a, b in zip(p.moves, p.moves[1:] + (None,)):
                if a.action not in ("lead", "play"):
                    continue
                line = line.play(Placement(a.tile, a.end, a.exposed))
                hands[a.seat].remove(a.tile)
                if not a.tile.is_double or not hands[a.seat]:
                    continue
                playable = [q for t in hands[a.seat] for q in line.placements(t)]
                # he plays again if he can; he moves on only when nothing of his fits
                assert (b is not None and b.seat == a.seat) == bool(playable)
                seen += bool(playable)
    assert seen


def test_no_drawing_go_and_pass():
    # "When a player is unable to match, he says "Go" and passes."
    r = TW.rules(variant="milton-bradley", players=6, tile_set="double-nine")
    for seed in range(30):
        assert all(m.action != "draw" for m in TW.play_hand(r, random.Random(seed)).moves)


def test_milton_bradley_first_out_scores_the_spots_left():
    # "This player receives one point for each spot left in his opponents' hands."; "200 points"
    r = TW.rules(variant="milton-bradley", players=6, tile_set="double-nine")
    v = {"out": 2, "A": 10, "B": 0, "C": 4, "D": 7, "E": 0, "F": 9}
    assert TW.score(r, v).points["B"] == 30
    assert TW.target(r) == 200
    assert TW.entry_form(r).field("out").seat is False   # six players: keyed as a number


def test_milton_bradley_block_tie_scores_nothing():
    # Rule 6, garbled: "player holding least number of spots, or in case of a tie, the least
    # number of spots left in the opponents' hands." Tied players' opponents hold the same spots,
    # so the clause separates no one: read as no score.
    r = TW.rules(variant="milton-bradley", players=6, tile_set="double-nine")
    v = {"out": 0, "A": 3, "B": 3, "C": 4, "D": 7, "E": 8, "F": 9}
    assert TW.score(r, v).points == dict.fromkeys("ABCDEF", 0)
    v["A"] = 2
    assert TW.score(r, v).points["A"] == 3 + 4 + 7 + 8 + 9


def test_grimm_party_a_point_a_double_and_one_for_tiddle_a_wink():
    # 000_ff8a6ed40036e836.txt, TIDDLE-A-WINK (party): "A point is made whenever a player obtains
    # two turns through playing a double. There are eight doubles in the set."; ""Tiddle-a-wink"
    # counts one point."
    r = TW.rules()
    assert r.variant == "grimm-party" and TW.is_partnership(r)
    v = {"out": 2, "A_doubles": 2, "B_doubles": 1, "C_doubles": 0, "D_doubles": 3}
    out = TW.score(r, v)
    assert out.side_points == {"AC": 2, "BD": 1 + 3 + 1}
    assert TW.target(r) == 10   # "Ten points made in partnership at any table ends a session"
    v["C_doubles"] = 3
    with pytest.raises(Refusal) as e:
        TW.score(r, v)
    assert e.value.why == "TOO MANY DOUBLES"


def test_grimm_party_hand_end_is_who_went_out_and_counts_eight_doubles_as_keyed():
    # 000_ff8a6ed40036e836.txt, TIDDLE-A-WINK (party): "There are eight doubles in the set.";
    # "A point is made whenever a player obtains two turns through playing a double";
    # ""Tiddle-a-wink" counts one point": a block makes no point, so the hands are not keyed.
    r = TW.rules()
    form = TW.entry_form(r)
    with pytest.raises(Refusal) as e:
        form.check_partial({"A_doubles": 5, "B_doubles": 4})
    assert e.value.why == "TOO MANY DOUBLES"
    blocked = TW.score(r, {"out": 0, "A_doubles": 1, "B_doubles": 0, "C_doubles": 2, "D_doubles": 1})
    assert blocked.side_points == {"AC": 3, "BD": 1} and blocked.blocked and not blocked.winners
    with pytest.raises(Refusal) as e:
        TW.score(r, {"out": 0, "A": 10, "A_doubles": 0, "B_doubles": 0, "C_doubles": 0,
                     "D_doubles": 0})
    assert e.value.why == "UNKNOWN FIELD"
    # doubles keyed as they are played: the hand's end is one seat, or 0
    each = TW.rules(in_play="each")
    assert [f.k for f in TW.entry_form(each).fields] == ["out"]
    assert TW.score(each, {"out": 3}).side_points == {"AC": 1, "BD": 0}
