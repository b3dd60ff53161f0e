"""A Draw party of seven tables: "The party rules are the same as in Block" (DRAW GAME,
000_ff8a6ed40036e836.txt). Seven tables bring three prizes, and a tie for the second
prize is settled by a play-off after the first and third are awarded."""
from hub.conductor import events as k
from hub.conductor import to_json
from hub.conductor.prizes import awards, prize_count
from party.hands import spots_game

from .party import Party, cards_seating, win

GUESTS = [f"Player {i:02d}" for i in range(26)]


def play(p: Party, table_one: list, others: dict) -> None:
    """Table 1 plays its four games (and so rings the bell); every other table finishes the
    one game in hand after acknowledging the bell: `others` {table: (seat, gain)}."""
    p.start()
    for seat, gain in table_one:
        p.must(win(p, 1, seat, gain))
    p.ack_bell()
    for n, (seat, gain) in others.items():
        p.must(win(p, n, seat, gain))


def test_a_draw_party_of_seven_tables():
    p = Party()
    p.create(form="draw", tables=7)
    p.guests(GUESTS)
    p.draw(seed=3)
    assert cards_seating(p)[7] == "7A 7B - -"     # the last table has two players
    # PRIZES: "for more than six tables, have three prizes"
    assert prize_count(p.state) == 3

    play(p, [("A", 5), ("B", 5), ("C", 0), ("D", 0)], {n: ("A", 10 * n) for n in range(2, 8)})
    p.reseat()
    # the two highest of each table up one table, Table 1's to the last; equal amounts at the
    # same table: the higher seat (1A before 1B; B before C and D at 0)
    assert cards_seating(p, 2) == {1: "2A 1C 1D 2B", 2: "3A 2C 2D 3B", 3: "4A 3C 3D 4B",
                                   4: "5A 4C 4D 5B", 5: "6A 5C 5D 6B", 6: "7A 6C 6D 7B",
                                   7: "1A 1B - -"}

    play(p, [("A", 0), ("B", 30), ("C", 30), ("D", 0)], {n: ("A", 0) for n in range(2, 8)})
    p.reseat()
    # ranked on both sessions: 7A 70, 6A 60, 5A 50, 4A 40; at 30: 1C (session II: T1 B),
    # 1D (T1 C), 3A (T2 A); 2A 20; 1A and 1B 5 (T7 A, B); then the blank cards by their
    # session II table and seat
    assert cards_seating(p, 3) == {1: "7A 6A 5A 4A", 2: "1C 1D 3A 2A", 3: "1A 1B 2B 2C",
                                   4: "2D 3B 3C 3D", 5: "4B 4C 4D 5B", 6: "5C 5D 6B 6C",
                                   7: "6D 7B - -"}

    play(p, [("A", 30), ("B", 10), ("C", 20), ("D", 0)], {n: ("A", 0) for n in range(2, 8)})
    v = p.staff(k.RESEAT, {})
    assert (v.ok, v.why) == (False, "LAST SESSION")
    p.must(p.staff(k.FINAL_COUNT, {}))
    # 7A 100; 6A and 5A 70, tied for the second prize; 4A 40 takes the third: "the conductor
    # awards the first and third prizes before he gives out the second prize"
    got = {a.prize: (a.cards, a.winner) for a in awards(p.state)}
    assert got == {"1": (("7A",), "7A"), "2": (("5A", "6A"), None), "3": (("4A",), "4A")}
    v = p.staff(k.PLAY_OFF, {"prize": "1", "table": 1})
    assert (v.ok, v.why) == (False, "NO TIE")
    p.must(p.staff(k.PLAY_OFF, {"prize": "2", "table": 3}))
    p.must(p.table(3, k.RESULT, {"game": 1, "values": spots_game("AB", {"B": 8})}))
    prizes = {a["prize"]: a["winner"] for a in to_json(p.state)["prizes"]}
    h = p.state.holders
    assert prizes == {"1": h["7A"], "2": h["6A"], "3": h["4A"]}
    assert p.replayed() == to_json(p.state)
