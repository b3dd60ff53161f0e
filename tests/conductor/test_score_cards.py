"""The score-card of each guest (Grimm 1896, 000_ff8a6ed40036e836.txt, SCORE-CARDS: "I
SESSION 1 Game ... II SESSION: Table ..... ... Total"; THIRD SESSION: "The seat each player
occupies now is marked on his card beneath the line III Session"): each session the card was
seated in has its table and seat, marked when the seat is taken, before any game of it."""
import random

from hub.conductor import events as k
from hub.conductor import score_cards, standings

from .party import Party
from .test_random_parties import play_session


def test_a_card_shows_each_sessions_table_and_seat_from_the_moment_it_is_seated():
    p = Party()
    p.create(form="block", tables=2)
    p.guests([f"G{i:02d}" for i in range(8)])
    p.draw()
    first = p.seating()
    play_session(p, random.Random(3))
    p.must(p.staff(k.RESEAT, {"seed": 5}))
    second = p.seating()
    cards = {c["guest"]: c for c in score_cards(p.state)}
    for number, seating in ((1, first), (2, second)):
        for table, seats in seating.items():
            for seat, guest in seats.items():
                row = cards[guest]["sessions"][number - 1]
                assert (row["session"], row["table"], row["seat"]) == (number, table, seat)
    for card in cards.values():
        assert card["sessions"][1]["games"] == [] and card["sessions"][1]["total"] == 0
        assert card["total"] == sum(card["sessions"][0]["games"]) and not card["left"]
    p.must(p.staff(k.GUEST_LEFT, {"guest": second[2]["D"], "why": "called away"}))
    assert [c["guest"] for c in score_cards(p.state) if c["left"]] == [second[2]["D"]]
    assert [x["guest"] for x in standings(p.state)["leaders"] if x["left"]] == [second[2]["D"]]


def test_the_leaders_are_ranked_from_one_by_their_amounts_and_the_seat_checks_shown():
    p = Party()
    p.create(form="block", tables=2)
    p.guests([f"G{i:02d}" for i in range(8)])
    p.draw()
    assert [row["seat_check"] for row in standings(p.state)["progress"]] == [False, False]
    play_session(p, random.Random(4))
    assert [row["seat_check"] for row in standings(p.state)["progress"]] == [True, True]
    leaders = standings(p.state)["leaders"]
    assert [x["rank"] for x in leaders] == list(range(1, 9))
    assert [x["amount"] for x in leaders] == sorted((x["amount"] for x in leaders), reverse=True)
