"""A whole Block party, as "HOW TO GIVE MUSICAL DOMINO PARTIES" describes it
(Grimm 1896, 000_ff8a6ed40036e836.txt): check-in, cards drawn, a late-comer, a
short last table, three sessions ended by the bell, the movement after session I
and the ranking after session II, an annulled game, a guest who leaves, the
final count, the prize and the booby prize settled by play-offs."""
from hub.conductor import events as k
from hub.conductor import screens, standings, to_json
from hub.conductor.prizes import awards
from party.hands import spots_game

from .party import Party, cards_seating, win

GUESTS = [f"Guest {i:02d}" for i in range(10)]


def play_session_one(p: Party) -> None:
    """Gains in session I (sixteenths), designed for every tie-break the book names:
    Table 1: A 30, B 25, C 25, D 0; Table 2: A 10, C 25, D 25; Table 3: A 5, B 15, C 0."""
    p.start()
    p.must(win(p, 1, "A", 30))
    p.must(win(p, 2, "A", 10))
    p.must(win(p, 3, "B", 15))
    p.must(win(p, 1, "B", 25))
    # a wrong match discovered after game 2 at Table 2 was keyed: the assistant annuls it
    wrong = p.must(win(p, 2, "B", 99)).events[0].id
    p.must(p.staff(k.GAME_ANNULLED, {"table": 2, "entry": wrong, "why": "wrong match"}, login="bob"))
    assert p.state.session.tables[2].entered == 1          # "begin a new game"
    # a correction of the annulled game is refused, the journal unchanged
    before = len(p.journal)
    v = p.staff(k.RESULT_CORRECTED, {"entry": wrong, "values": spots_game("ABCD", {"B": 5}),
                                     "why": "typo"})
    assert (v.ok, v.why, len(p.journal)) == (False, "GAME ANNULLED", before)
    p.must(win(p, 2, "C", 25))
    p.must(win(p, 1, "C", 25))
    v = p.must(win(p, 1, "D", 0))       # Table 1's fourth game: the bell
    assert [e.kind for e in v.events] == [k.RESULT, k.HUB_BELL]
    bell = p.state.session.bell
    assert bell.meaning == "finish" and bell.rung.by == "hub"
    assert standings(p.state)["session"]["missing"] == [2, 3]
    p.ack_bell()
    p.must(win(p, 2, "D", 25))          # the games in hand are finished
    p.must(win(p, 3, "A", 5))
    v = win(p, 3, "B", 2)               # but no new game is started
    assert (v.ok, v.why) == (False, "NO NEW GAME")
    assert standings(p.state)["session"]["state"] == "ended"


def test_a_block_party_from_the_list_to_the_prizes():
    p = block_party(Party())
    assert p.replayed() == to_json(p.state)


def block_party(p: Party) -> Party:
    """The whole party, asserting every step against the book; returns it for other tests."""
    p.create(form="block", tables=4, booby=True)
    p.must(p.staff(k.STAFF_ADDED, {"login": "bob", "role": "assistant"}))
    p.guests(GUESTS + ["Gone Gus"])
    p.must(p.staff(k.GUEST_LEFT, {"guest": "Gone Gus", "why": "called away"}))
    p.must(p.staff(k.GUEST_LISTED, {"guest": "Late Lucy"}))
    p.draw()
    assert p.state.guests["Gone Gus"].card is None     # gone before the cards were taken
    # LIST: "takes as many score-cards in successive order as there are persons present";
    # the last table has two players
    cards = sorted(g.card for g in p.state.guests.values() if g.card)
    assert cards == sorted("1A 1B 1C 1D 2A 2B 2C 2D 3A 3B".split())
    assert cards_seating(p)[3] == "3A 3B - -"
    # "Late-comers will have to be satisfied to receive vacant seats at the last tables"
    v = p.must(p.staff(k.CHECKED_IN, {"guest": "Late Lucy"}))
    assert v.msg == "TABLE 3 C" and p.state.guests["Late Lucy"].card == "3C"
    # a short table draws more pieces: eight each at four, ten each at three (the engine's
    # Grimm Block: 8 * 4 // 3)
    assert screens(p.state)[3]["lines"][-1] == "DRAW 10 EACH"

    # "Never is any table allowed to begin playing before the conductor has announced the beginning"
    v = win(p, 1, "A", 30)
    assert (v.ok, v.why) == (False, "NOT IN SESSION")
    play_session_one(p)

    # FIRST SESSION: the two luckiest of every table to the preceding table, Table 1's to the
    # lowest; seated by gains, the highest in A; equal amounts: the higher table (nearer
    # Table 1, the default), then the higher seat.
    p.reseat()
    assert to_json(p.state)["sessions"][1]["seated_by"] == "staff:ann"    # on record by name
    # Table 1: 1C (25, stayed), 2C and 2D (25, from Table 2): 1C first
    assert cards_seating(p, 2) == {1: "1C 2C 2D 1D", 2: "3B 2A 3A 2B", 3: "1A 1B 3C -"}
    assert "Guest" in standings(p.state)["moves"][0] and "-> Table 1 A" in standings(p.state)["moves"][0]

    # SECOND SESSION
    p.start()
    # a mistaken bell is undone, on record with who and why
    p.must(p.staff(k.BELL, {"meaning": "stop"}))
    mistaken = p.state.session.bell.id
    p.must(p.staff(k.BELL_UNDONE, {"bell": mistaken, "why": "rang by mistake"}))
    assert p.state.session.bell is None
    p.must(win(p, 1, "A", 40))
    p.must(win(p, 1, "B", 5))
    p.must(win(p, 1, "C", 5))
    p.must(win(p, 2, "B", 20))
    p.must(win(p, 3, "A", 0))
    p.must(win(p, 1, "D", 0))
    p.ack_bell()
    p.must(win(p, 2, "A", 0))
    p.must(win(p, 3, "B", 0))

    # THIRD SESSION: all cards ranked on both sessions, from Table 1 A downward; equal amounts
    # by the table and seat of session II; blank cards "according to the table-number and
    # seat received for the second session".
    p.reseat()
    # totals: 1C 65; 2C, 2D, 2A, 1A 30 (session II places T1 B, T1 C, T2 B, T3 A); 1B 25;
    # 3B 15; 3A 5; blank: 1D (T1 D), 2B (T2 D), 3C (T3 C)
    assert cards_seating(p, 3) == {1: "1C 2C 2D 2A", 2: "1A 1B 3B 3A", 3: "1D 2B 3C -"}

    p.start()
    # a guest leaves: the seat is empty, the table plays on with two
    leaver = p.state.holders["2B"]
    p.must(p.staff(k.GUEST_LEFT, {"guest": leaver, "why": "last train"}))
    v = p.result(3, spots_game("AB", {"A": 3}, lead="A"))
    assert (v.ok, v.why) == (False, "SEAT EMPTY")
    for seat in "ABCD":
        p.must(win(p, 1, seat, 0))
    p.ack_bell()
    p.must(win(p, 2, "A", 35))
    p.must(win(p, 3, "C", 0))
    assert standings(p.state)["over"]

    p.must(p.staff(k.FINAL_COUNT, {}))
    # three tables: one prize ("only three tables, one prize will be sufficient")
    prizes = {a.prize: a for a in awards(p.state)}
    assert set(prizes) == {"1", "booby"}
    assert prizes["1"].cards == ("1A", "1C") and prizes["1"].amount == 65
    assert prizes["booby"].cards == ("1D", "3C")          # the leaver has no prize
    # "they will have to play a game among themselves"
    p.must(p.staff(k.PLAY_OFF, {"prize": "1", "table": 1}))
    p.must(p.staff(k.PLAY_OFF, {"prize": "booby", "table": 2}))
    v = p.table(1, k.RESULT, {"game": 1, "values": spots_game("AB", {"B": 10})})
    assert v.ok and v.msg == "PLAY-OFF SAVED"
    p.must(p.table(2, k.RESULT, {"game": 1, "values": spots_game("AB", {"A": 0})}))  # equal: again
    assert screens(p.state)[2]["form"]["title"] == "PLAY-OFF 2"
    p.must(p.table(2, k.RESULT, {"game": 2, "values": spots_game("AB", {"A": 12})}))
    won = {a["prize"]: a["winner"] for a in to_json(p.state)["prizes"]}
    assert won == {"1": p.state.holders["1C"], "booby": p.state.holders["3C"]}
    return p


def test_the_literal_reading_of_higher_table_number_puts_the_larger_number_first():
    """FIRST SESSION: "the card with a higher table-number has the precedence" read
    literally (option precedence="larger-number-first"): 2C and 2D before 1C."""
    p = Party()
    p.create(form="block", tables=4, precedence="larger-number-first")
    p.must(p.staff(k.STAFF_ADDED, {"login": "bob"}))
    p.guests(GUESTS + ["Late Lucy"])
    p.draw()
    assert cards_seating(p)[3] == "3A 3B 3C -"
    play_session_one(p)
    p.reseat()
    assert cards_seating(p, 2)[1] == "2C 2D 1C 1D"


def test_a_play_off_game_corrected_gives_the_prize_to_its_corrected_winner():
    """THIRD SESSION: "he who wins this game gets the second prize": a play-off's result
    corrected, the prize goes to whom the game as corrected says; the other play-off keeps
    its games and its winner."""
    p = block_party(Party())
    first, booby = p.state.play_offs
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": first.entries[0].id, "why": "misread",
                                        "values": spots_game("AB", {"A": 10})}))
    won = {a["prize"]: a["winner"] for a in to_json(p.state)["prizes"]}
    assert won == {"1": p.state.holders["1A"], "booby": p.state.holders["3C"]}
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": booby.entries[1].id, "why": "misread",
                                        "values": spots_game("AB", {"B": 12})}))
    won = {a["prize"]: a["winner"] for a in to_json(p.state)["prizes"]}
    assert won == {"1": p.state.holders["1A"], "booby": p.state.holders["1D"]}
    assert [len(x.entries) for x in p.state.play_offs] == [1, 2]
    assert p.replayed() == to_json(p.state)


def test_four_tied_for_the_prize_play_off_at_any_table_of_the_party():
    """THIRD SESSION: "he requests the candidates ... to play a game among themselves": four
    tied play at the table the conductor names, the last table too; no table beyond it."""
    p = Party()
    p.create(form="block", tables=2, sessions=1)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    for n in (2, 1):
        for seat, gain in (("A", 10), ("B", 10), ("C", 0), ("D", 0)):
            p.must(win(p, n, seat, gain))
    p.ack_bell()
    p.must(p.staff(k.FINAL_COUNT, {}))
    (prize,) = awards(p.state)
    assert prize.cards == ("1A", "1B", "2A", "2B") and prize.needs_play_off
    for table in (0, 3):
        v = p.staff(k.PLAY_OFF, {"prize": "1", "table": table})
        assert (v.ok, v.why) == (False, "UNKNOWN TABLE")
    v = p.must(p.staff(k.PLAY_OFF, {"prize": "1", "table": 2}))
    assert v.events[1].body["cards"] == ["1A", "1B", "2A", "2B"]


def test_a_correction_at_a_short_table_is_checked_against_the_short_tables_deal():
    """LIST: at a table of three "The number of dominoes to be drawn by each player at that
    table will have to be increased, in order to make the number taken from the stock ...
    equal": ten each, not the eight of BLOCK GAME. A correction of its result is checked as
    the table's game, not as a play-off's "game among themselves"."""
    p = Party()
    p.create(form="block", tables=2)
    p.guests([f"G{i}" for i in range(7)])
    p.draw()
    p.start()
    entry = p.must(win(p, 2, "A", 5)).events[0].id
    values = {"out": 1, "B": 60, "B_pieces": 10, "C": 40, "C_pieces": 8}   # B held ten
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": entry, "why": "recount", "values": values}))
    assert p.state.session.tables[2].entries[0].gains[0] == 100
    assert p.replayed() == to_json(p.state)
