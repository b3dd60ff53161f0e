"""Who leads each later game of a session, as a table's screen names it (Grimm 1896,
000_ff8a6ed40036e836.txt, "HOW TO GIVE MUSICAL DOMINO PARTIES": "the one who has the highest
double begins the first game of every session. The second game of a session is begun by the
player who is to the left of the one who had the first lead. The third game is begun by him
who is to the left of the beginner of the second game, and so on.")"""
from hub.conductor import events as k
from hub.conductor import screen
from party.hands import spots_game

from .party import Party, occupied


def lead_line(p: Party, n: int) -> str:
    return next(x for x in screen(p.state, n)["lines"] if x.startswith("LEAD"))


def game(p: Party, n: int, lead: str | None = None) -> None:
    p.must(p.result(n, spots_game(occupied(p, n), {occupied(p, n)[0]: 5}, lead=lead)))


def block_party(guests: int) -> Party:
    p = Party()
    p.create(form="block", tables=3)
    p.guests([f"Guest {i:02d}" for i in range(guests)])
    p.draw()
    p.start()
    return p


def test_the_lead_goes_to_the_left_game_by_game_from_the_first_keyed():
    p = block_party(8)
    game(p, 1, lead="D")                       # the highest double was at D
    assert lead_line(p, 1) == "LEAD: SEAT A ANY"      # to the left of D, round the table
    game(p, 1)
    assert lead_line(p, 1) == "LEAD: SEAT B ANY"
    game(p, 1)
    assert lead_line(p, 1) == "LEAD: SEAT C ANY"
    game(p, 2, lead="B")
    assert lead_line(p, 2) == "LEAD: SEAT C ANY"


def test_an_annulled_first_game_leaves_the_lead_unknown_until_game_one_is_keyed_again():
    p = block_party(8)
    first = p.must(p.result(1, spots_game(occupied(p, 1), {"A": 5}, lead="C"))).events[0].id
    assert lead_line(p, 1) == "LEAD: SEAT D ANY"
    p.must(p.staff(k.GAME_ANNULLED, {"table": 1, "entry": first, "why": "wrong match"}))
    game(p, 1, lead="B")
    assert lead_line(p, 1) == "LEAD: SEAT C ANY"


def test_at_a_short_table_the_lead_passes_the_empty_seat():
    p = block_party(11)                        # tables of 4, 4 and 3
    (n, t), = ((n, t) for n, t in p.state.session.tables.items() if t.players == 3)
    seats = occupied(p, n)
    before_gap = next(x for x, y in zip(seats, seats[1:] + seats[0])
                      if "ABCD".index(y) != ("ABCD".index(x) + 1) % 4)
    game(p, n, lead=before_gap)
    after_gap = seats[(seats.index(before_gap) + 1) % 3]
    assert lead_line(p, n) == f"LEAD: SEAT {after_gap} ANY"
    game(p, n)
    assert lead_line(p, n) == f"LEAD: SEAT {seats[(seats.index(before_gap) + 2) % 3]} ANY"


def test_at_a_table_of_two_the_lead_goes_back_and_forth():
    p = block_party(6)                         # tables of 4 and 2
    assert occupied(p, 2) == "AB"
    game(p, 2, lead="A")
    for leads in "BAB":
        assert lead_line(p, 2) == f"LEAD: SEAT {leads} ANY"
        game(p, 2)


def test_the_board_asks_who_led_game_one_by_a_seat_number_from_one_to_four():
    p = block_party(8)
    (field,) = [f for f in screen(p.state, 1)["form"]["fields"] if f["k"] == "lead"]
    assert (field["label"], field["min"], field["max"], field["seat"]) == ("FIRST LEAD BY", 1, 4, True)
    game(p, 1, lead="A")
    assert not [f for f in screen(p.state, 1)["form"]["fields"] if f["k"] == "lead"]
