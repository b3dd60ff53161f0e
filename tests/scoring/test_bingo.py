"""Bingo (Parker)."""
import pytest

from hub.scoring import Refusal, Tile, get_form
from hub.scoring.forms.bingo import declaration, taker, worth

BG = get_form("bingo")
T = Tile.of


def test_what_pieces_count():
    # 001_9f9bc89015baa380.txt, BINGO: "the Double of trumps always twenty-eight; the other Doubles
    # and all the other trumps according to their spots; the Six-Four and Three-Blank for ten each,
    # whether trumps or not; the other pieces have no value."
    assert worth(T(4, 4), trump=4) == 28
    assert worth(T(2, 2), trump=4) == 4
    assert worth(T(4, 1), trump=4) == 5
    assert worth(T(4, 0), trump=4) == 11          # a blank counts seven
    assert worth(T(6, 4), trump=2) == 10 and worth(T(3, 0), trump=2) == 10
    assert worth(T(5, 1), trump=2) == 0


def test_bingo_takes_the_double_of_trumps():
    # "The Double-Blank called Bingo, counts fourteen, is the highest domino, and will take the
    # Double of trumps."
    assert taker([("A", T(5, 5)), ("B", T(0, 0))], trump=5) == 1


def test_declarations():
    # "If the player has two Doubles in his hand, he can ... announce twenty points ... Three Doubles
    # count forty; four Doubles, fifty; five Doubles, sixty; six Doubles, seventy points. If Bingo be
    # among the Doubles held, it adds ten more to the count."
    assert declaration([T(1, 1), T(2, 2), T(3, 4)]) == 20
    assert declaration([T(1, 1), T(2, 2), T(3, 3)]) == 40
    assert declaration([T(1, 1), T(2, 2), T(3, 3), T(0, 0)]) == 60
    assert declaration([T(n, n) for n in range(1, 7)]) == 70
    assert declaration([T(1, 1), T(2, 3)]) == 0


def values(first=0, count=0, tricks=0, last=0, bingo=0):
    return {"first": first, "loser_count": count, "loser_tricks": tricks, "last": last,
            "bingo": bingo}


def test_points_for_seventy():
    # "The player who first counts seventy, scores one point towards game; if he makes seventy
    # before his opponent has counted thirty, he scores two points; if before his adversary has won
    # a trick, three points. If Bingo capture the Double of trumps, it adds at once one point"
    r = BG.rules()
    assert BG.score(r, values(1, 40, 3)).points == {"A": 1, "B": 0}
    assert BG.score(r, values(1, 29, 3)).points == {"A": 2, "B": 0}
    assert BG.score(r, values(2, 0, 0)).points == {"A": 0, "B": 3}
    assert BG.score(r, values(1, 40, 3, bingo=2)).points == {"A": 1, "B": 1}
    # "The game is seven points"
    assert BG.target(r) == 7


def test_neither_reaches_seventy_last_trick_takes_the_point():
    # Parker defers to "Laws ... of Sixty-Six", not printed; the common law is taken
    assert BG.score(BG.rules(), values(last=2)).points == {"A": 0, "B": 1}


@pytest.mark.parametrize("v,why", [
    (values(1, 40, 3, last=2), "TWO WINNERS"),
    (values(), "NO WINNER"),
    (values(1, 70, 3), "OTHER HAS 70"),
    (values(1, 20, 0), "COUNT NO TRICKS"),
])
def test_refusals(v, why):
    with pytest.raises(Refusal) as e:
        BG.score(BG.rules(), v)
    assert e.value.why == why


def test_after_the_stock_suit_is_followed_and_the_trick_headed():
    # Parker: "In all other respects the game is conducted in the same manner as Sixty-Six" -- the
    # common law of Sixty-Six once the stock is out: follow suit and win if you can, else trump
    from hub.scoring.forms.bingo import replies
    hand = [T(5, 1), T(5, 6), T(2, 3), T(2, 2)]
    assert replies(hand, T(5, 3), trump=2, stock_out=False) == hand
    assert replies(hand, T(5, 3), trump=2, stock_out=True) == [T(5, 6)]     # fives, and the higher
    assert replies(hand, T(4, 1), trump=2, stock_out=True) == [T(2, 3), T(2, 2)]   # no four: trump
    assert replies([T(6, 1), T(4, 3)], T(5, 0), trump=2, stock_out=True) == [T(6, 1), T(4, 3)]


def test_played_hands_obey_the_replies():
    import random
    from hub.scoring.forms.bingo import replies
    for seed in range(80):
        p = BG.play_hand(BG.rules(), random.Random(seed))
        hands = {s: list(h) for s, h in p.dealt.items()}
        trump = p.moves[0].exposed
        stock = 14   # 13 undrawn and the turned piece, drawn last
        moves = [m for m in p.moves if m.action in ("play", "draw")]
        i = 0
        while i < len(moves):
            lead, reply = moves[i], moves[i + 1]
            assert reply.tile in replies(hands[reply.seat], lead.tile, trump, stock_out=stock == 0)
            hands[lead.seat].remove(lead.tile)
            hands[reply.seat].remove(reply.tile)
            i += 2
            while i < len(moves) and moves[i].action == "draw":
                hands[moves[i].seat].append(moves[i].tile)
                stock -= 1
                i += 1
