"""Texas 42 (Milton Bradley)."""
import pytest

from hub.scoring import Refusal, Tile, get_form
from hub.scoring.forms.texas42 import COUNT
from hub.scoring.tricks import suit_led, trick_winner

TX = get_form("texas-42")
T = Tile.of


def test_a_hand_totals_42():
    # 003_611dc33fc9a3dd20.txt, TEXAS 42: "The total of 42 is counted for each hand, 35 points for
    # the Dominoes and 7 points, one for each Trick."; "the 5-5 and 6-4 Dominoes count 10 points
    # each. The 5-0, 4-1 and 3-2 Dominoes each have a point value of 5 points."
    assert COUNT == {T(5, 5): 10, T(6, 4): 10, T(5, 0): 5, T(4, 1): 5, T(3, 2): 5}
    assert sum(COUNT.values()) + 7 == 42


def values(bidder, bid, tricks, count):
    return {"bidder": bidder, "bid": bid, "tricks": tricks, "count": count}


def test_bid_made_scores_bid_plus_points():
    # "For example: if the team bid 37 and made 38 points, they would score 75."
    r = TX.rules()
    out = TX.score(r, values(1, 37, 3, 35))
    assert out.side_points == {"AC": 75, "BD": 0} and out.points["C"] == 75


def test_bid_set_opponents_score_their_points_plus_the_bid():
    # "if, however, they bid 37 and made only 36 points, their opponents would score the 6 points
    # they made, PLUS the opponents' bid of 37, for 43 points altogether. The bidding side would not
    # score any points."
    r = TX.rules()
    out = TX.score(r, values(2, 37, 6, 30))
    assert out.side_points == {"BD": 0, "AC": 43}


def test_exactly_the_bid_by_variant():
    # "If the bidding side makes MORE points than it has bid" -- literal in "more-than"; the
    # default counts the bid made, since a bid of 42 ("the highest is 42") could never be exceeded
    v = values(1, 42, 7, 35)
    assert TX.score(TX.rules(), v).side_points["AC"] == 84
    assert TX.score(TX.rules(variant="more-than"), v).side_points == {"AC": 0, "BD": 42}


@pytest.mark.parametrize("v,why", [
    (values(1, 29, 3, 20), "BID 30 TO 42"),
    (values(1, 43, 3, 20), "BID 30 TO 42"),
    (values(1, 30, 8, 20), "TRICKS 0 TO 7"),
    (values(1, 30, 3, 22), "NOT A MULTIPLE 5"),
    (values(1, 30, 0, 10), "COUNT MAX 0"),
    (values(0, 30, 3, 10), "NO BIDDER"),
])
def test_refusals(v, why):
    with pytest.raises(Refusal) as e:
        TX.score(TX.rules(), v)
    assert e.value.why == why


def test_suit_led_is_the_higher_number_unless_trump():
    # "If One's is the Trump suit and a player leads with a 2-4 Domino, the suit being led at that
    # time is the 4."
    assert suit_led(T(2, 4), trump=1) == 4
    assert suit_led(T(1, 4), trump=1) == 1
    # "In all the Number suits, the Double Domino of the Number is the highest."; "a Trump Domino
    # may be used when a player cannot follow suit"
    plays = [("A", T(2, 4)), ("B", T(4, 4)), ("C", T(4, 6)), ("D", T(0, 3))]
    assert trick_winner(plays, trump=1) == 1
    plays[3] = ("D", T(1, 0))
    assert trick_winner(plays, trump=1) == 3


def test_five_hands_make_a_game():
    # "The team having the most points after five games usually is declared the winner."
    r = TX.rules()
    assert not TX.game_over(r, {"A": 200}, hands_played=4)
    assert TX.game_over(r, {"A": 0}, hands_played=5)


def test_count_bounded_by_the_tricks_that_hold_it():
    # 003_611dc33fc9a3dd20.txt, TEXAS 42 rule 2: 'the 5-5 and 6-4 Dominoes count 10 points each.
    # The 5-0, 4-1 and 3-2 Dominoes each have a point value of 5 points'; rule 6: 'The winner of
    # the Trick takes in the four Dominoes'. One trick holds at most 10+10+5+5 = 30, and a side
    # that took six tricks left the other one trick, which cannot hold all 35.
    r = TX.rules()
    assert TX.score(r, values(1, 30, 1, 30)).tally["made"] == 31
    for v, why in ((values(1, 30, 1, 35), "COUNT MAX 30"),
                   (values(1, 30, 6, 0), "COUNT MIN 5"),
                   (values(1, 30, 7, 30), "COUNT MIN 35")):
        with pytest.raises(Refusal) as e:
            TX.score(r, v)
        assert e.value.why == why
    assert TX.score(r, values(1, 30, 6, 5)).side_points["BD"] == (42 - 11) + 30   # set
    form = TX.entry_form(r)
    assert form.check_partial({"tricks": 1}) == {"tricks": 1}
    with pytest.raises(Refusal):
        form.check_partial({"tricks": 1, "count": 35})


def test_the_holder_of_one_blank_bids_first():
    # 003_611dc33fc9a3dd20.txt, TEXAS 42 rule 5: "The player having the 1-0 Domino in his hand bids
    # first."; "Each player, in turn, may make one Bid"
    import random
    r = TX.rules()
    not_a = 0
    for seed in range(40):
        p = TX.play_hand(r, random.Random(seed))
        first = p.moves[0].seat
        assert T(1, 0) in p.dealt[first]
        bids = [m.seat for m in p.moves if m.action in ("bid", "pass")][:4]
        i = r.seats.index(first)
        assert bids == list(r.seats[i:] + r.seats[:i])
        not_a += first != "A"
    assert not_a
