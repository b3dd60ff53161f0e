"""Impossible entries are refused with a reason a table's display can show, field by field as
they are keyed: every bound the deal and the tile set imply."""
import random

import pytest

from hub.scoring import FORMS, Refusal, get_form

BLOCK, DRAW, AQ, M = get_form("block"), get_form("draw"), get_form("all-quarters"), get_form("muggins")


def refused(call, why):
    with pytest.raises(Refusal) as e:
        call()
    assert e.value.why == why and len(why) <= 16


def grimm(out, spots, pieces):
    return {"out": out, **{s: v for s, v in zip("ABCD", spots)},
            **{f"{s}_pieces": n for s, n in zip("ABCD", pieces)}}


def test_no_seat_holds_more_pieces_than_it_was_dealt_and_could_draw():
    # 000_ff8a6ed40036e836.txt, BLOCK GAME: "Each player draws eight pieces"; DRAW GAME: "Two
    # pieces must always remain unused in the stock" -- at four, 36 - 32 - 2 = 2 to draw.
    r = BLOCK.rules(players=4, variant="grimm")
    assert BLOCK.entry_form(r).field("A_pieces").max == 8
    assert DRAW.entry_form(DRAW.rules(players=4, variant="grimm")).field("A_pieces").max == 10
    refused(lambda: BLOCK.score(r, grimm(0, [20, 30, 40, 50], [20, 4, 4, 4])), "A PIECES 0-8")
    # the seat's sixteenths: the eight heaviest pieces at most, 16|16 16|12 12|12 16|8 16|6
    # 16|4 12|8 16|3
    assert BLOCK.entry_form(r).field("A").max == 32 + 28 + 24 + 24 + 22 + 20 + 20 + 19


def test_no_piece_shows_more_sixteenths_than_the_double_whole():
    # 000_ff8a6ed40036e836.txt, TABLE OF NOTES: the whole note, 16 sixteenths, is the largest
    # value, so one piece shows at most the Double Whole's 32; the least piece, the Double
    # Sixteenth, shows 2.
    r = BLOCK.rules(players=4, variant="grimm")
    refused(lambda: BLOCK.score(r, grimm(1, [0, 40, 20, 20], [0, 1, 2, 2])), "B: 32 AT MOST")
    refused(lambda: BLOCK.score(r, grimm(1, [0, 1, 20, 20], [0, 1, 2, 2])), "B: 2 AT LEAST")
    refused(lambda: BLOCK.score(r, grimm(1, [0, 9, 20, 20], [0, 0, 2, 2])), "SPOTS NO PIECES")
    assert BLOCK.score(r, grimm(1, [0, 32, 20, 20], [0, 1, 2, 2])).points["A"] == 72


def test_a_domino_leaves_pieces_with_the_others_and_a_block_with_everyone():
    # 000_ff8a6ed40036e836.txt, BLOCK GAME: "The one who first plays all his pieces calls
    # "domino," and has won the game" -- the game ends there, so the others still hold pieces;
    # "If the game is blocked, the players count their note-values" -- everyone holds some.
    r = BLOCK.rules(players=4, variant="grimm")
    refused(lambda: BLOCK.score(r, grimm(1, [0, 0, 0, 0], [0, 0, 0, 0])), "ALL THE REST OUT")
    # pieces are asked only after a block: the musical set has no blank, so no sixteenths is
    # no piece
    refused(lambda: BLOCK.score(r, {"out": 1, "B": 0, "C": 0, "D": 0}), "ALL THE REST OUT")
    assert BLOCK.score(r, {"out": 1, "B": 0, "C": 0, "D": 3}).points["A"] == 3
    refused(lambda: BLOCK.score(r, grimm(0, [10, 0, 20, 20], [1, 0, 2, 2])), "B OUT: DOMINO BY")
    refused(lambda: BLOCK.score(r, grimm(2, [10, 5, 20, 20], [1, 1, 2, 2])), "DOMINO HAS SPOTS")
    # the musical set has no blank: without pieces keyed (Bergen), no spots is no pieces
    b = get_form("bergen")
    rb = b.rules(players=2, variant="game")
    bare = {"out": 1, "A_double": 0, "A_triple": 0, "B_double": 0, "B_triple": 0,
            "A": 0, "A_doubles": 0, "A_low": 0, "B": 0, "B_doubles": 0, "B_low": 0}
    refused(lambda: b.score(rb, bare), "ALL THE REST OUT")
    # the double-six set has one blank, 0|0: a block may leave one seat showing no spots
    p = BLOCK.rules(players=3)
    assert BLOCK.score(p, {"out": 0, "A": 0, "B": 5, "C": 7}).points["A"] == 12
    refused(lambda: BLOCK.score(p, {"out": 0, "A": 0, "B": 0, "C": 7}), "B OUT: DOMINO BY")


def test_fields_are_checked_as_they_are_keyed():
    # the board and the phone check each field against those keyed before it
    r = BLOCK.rules(players=4, variant="grimm")
    form = BLOCK.entry_form(r)
    assert form.check_partial({"out": 1, "A": 0}) == {"out": 1, "A": 0}
    assert form.check_partial({"B": 40}) == {"B": 40}          # B's pieces not keyed yet
    refused(lambda: form.check_partial({"B": 40, "B_pieces": 1}), "B: 32 AT MOST")
    refused(lambda: form.check_partial({"out": 1, "A": 5}), "DOMINO HAS SPOTS")
    refused(lambda: form.check_partial({"A_pieces": 9}), "A PIECES 0-8")
    refused(lambda: form.check_partial({"Z": 1}), "UNKNOWN FIELD")
    assert get_form("block").check_partial(r, {"out": 1, "A": 0}) == {"out": 1, "A": 0}


def test_a_muggins_count_is_no_more_than_the_open_ends_can_show():
    # 001_9f9bc89015baa380.txt, MUGGINS: "so as to make five, ten, fifteen or twenty, by adding
    # the spots contained on both ends of the row" -- a plain line's two ends show at most the
    # Double-Six and the Double-Five across (22): twenty. 003_611dc33fc9a3dd20.txt, MUGGINS:
    # "All sides of the FIRST DOUBLE Domino played may be used": four ends, at most 12+10+8+6.
    parker = M.rules(players=2, variant="parker", in_play="each")
    assert M.play_entry_form(parker).field("ends").max == 20
    refused(lambda: M.score_play(parker, {"seat": 1, "ends": 45, "muggins": 0}), "ENDS TOTAL 5-20")
    assert M.score_play(parker, {"seat": 1, "ends": 20, "muggins": 0}).points["A"] == 20
    mb = M.rules(players=2, in_play="each")
    assert M.play_entry_form(mb).field("ends").max == 35
    # All Quarters: the Double Whole and the Double Dotted Half across, 32 + 24
    aq = AQ.rules(players=2, in_play="each")
    assert AQ.play_entry_form(aq).field("ends").max == 56
    refused(lambda: AQ.score_play(aq, {"seat": 1, "ends": 60}), "OUT OF RANGE")


@pytest.mark.parametrize("name", sorted(FORMS))
def test_every_played_hand_passes_its_bounds_field_by_field(name):
    # what the engine's players leave is possible: no bound refuses it, keyed in any prefix
    form = FORMS[name]
    for variant, v in form.variants.items():
        for players in v.players[:3]:
            rules = form.rules(players=players, variant=variant)
            entry = form.entry_form(rules)
            for seed in range(5):
                played = form.play_hand(rules, random.Random(seed))
                keyed = {}
                for f in entry.fields:
                    keyed[f.k] = played.values[f.k]
                    assert entry.check_partial(keyed) == keyed


def test_the_last_seat_and_the_whole_deal_are_bounded_too():
    # 000_ff8a6ed40036e836.txt, BLOCK GAME: "Each player draws eight pieces" -- at four, 32 in
    # hand; the lead is on the table, so at most 31 are left: all of them when nobody could
    # follow the lead and the game blocked at once.
    r = BLOCK.rules(players=4, variant="grimm")
    at_once = grimm(0, [80, 90, 95, 100], [7, 8, 8, 8])
    assert BLOCK.score(r, at_once).winners == ("A",)
    refused(lambda: BLOCK.score(r, grimm(0, [80, 90, 95, 100], [8, 8, 8, 8])), "TOO MANY PIECES")
    # a domino by the last seat: he holds nothing, and leaves something with the others
    refused(lambda: BLOCK.score(r, grimm(4, [10, 0, 0, 3], [1, 0, 0, 1])), "DOMINO HAS SPOTS")
    refused(lambda: BLOCK.score(r, grimm(4, [0, 0, 0, 0], [0, 0, 0, 0])), "ALL THE REST OUT")
    # on a block, a seat keyed with no pieces went out, whatever its spots keyed later
    refused(lambda: BLOCK.entry_form(r).check_partial({"out": 0, "B_pieces": 0}), "B OUT: DOMINO BY")
