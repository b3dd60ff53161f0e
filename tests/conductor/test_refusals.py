"""Bad input is refused with a reason short enough for a table's display, and nothing is
journaled: the journal and every derived value are exactly as before (issue 4, "Done
when": a result from a table not in session, for a game that does not exist, after the bell
has stopped that table, from a seat that is empty; a player seated twice; a correction of
an annulled game)."""
import pytest

from hub.conductor import events as k
from hub.conductor import to_json
from party.hands import spots_game

from .party import Party, win


def refused(p: Party, why: str, send) -> None:
    before_journal, before = list(p.journal), to_json(p.state)
    v = send()
    assert (v.ok, v.why) == (False, why)
    assert len(v.why) <= 16
    assert p.journal == before_journal and to_json(p.state) == before


@pytest.fixture
def party() -> Party:
    """Block, two tables: four at Table 1, two at Table 2 (cards 2A, 2B)."""
    p = Party()
    p.create(form="block", tables=3)
    p.guests([f"G{i}" for i in range(6)])
    p.draw()
    return p


def test_a_table_not_in_session(party):
    refused(party, "NOT IN SESSION", lambda: win(party, 1, "A", 5))
    party.start()
    refused(party, "SEAT EMPTY", lambda: party.result(3, spots_game("AB", {"A": 2})))


def test_a_game_that_does_not_exist(party):
    party.start()
    refused(party, "NO SUCH GAME", lambda: party.result(
        1, spots_game("ABCD", {"A": 5}, lead="A"), game=3))
    party.must(win(party, 1, "A", 5))
    refused(party, "ALREADY SAVED", lambda: party.result(1, spots_game("ABCD", {"A": 5}), game=1))


def test_a_table_stopped_by_the_bell(party):
    party.start()
    party.must(party.staff(k.BELL, {"meaning": "stop"}))
    party.ack_bell()
    refused(party, "TABLE STOPPED", lambda: win(party, 1, "A", 5))


def test_a_seat_that_is_empty(party):
    party.start()
    # Table 2 has players in A and B only
    refused(party, "SEAT EMPTY", lambda: party.result(2, spots_game("ABC", {"C": 4}, lead="A")))
    refused(party, "SEAT EMPTY", lambda: party.result(2, spots_game("AB", {"A": 4}, lead="C")))


def test_a_player_seated_twice(party):
    party.must(party.staff(k.SESSION_STARTED, {"session": 1}))
    numbers = party.card_numbers(1)
    refused(party, "SEATED TWICE", lambda: party.table(
        1, k.SEAT_CHECK, {"cards": dict(numbers, B=numbers["A"])}))
    refused(party, "SEAT B WRONG", lambda: party.table(
        1, k.SEAT_CHECK, {"cards": dict(numbers, B=numbers["C"], C=numbers["B"])}))
    refused(party, "SEAT CHECK FIRST", lambda: win(party, 1, "A", 5))
    guest = party.state.holders["1A"]
    refused(party, "ALREADY SEATED", lambda: party.staff(
        k.GUEST_SEATED, {"guest": guest, "table": 1, "seat": "A", "why": "moved"}))
    refused(party, "SEAT TAKEN", lambda: party.staff(
        k.GUEST_SEATED, {"guest": guest, "table": 2, "seat": "B", "why": "moved"}))
    refused(party, "ALREADY IN", lambda: party.staff(k.CHECKED_IN, {"guest": guest}))


def test_a_correction_of_an_annulled_game(party):
    party.start()
    entry = party.must(win(party, 1, "B", 7)).events[0].id
    party.must(party.staff(k.GAME_ANNULLED, {"table": 1, "entry": entry, "why": "piece dropped"}))
    refused(party, "GAME ANNULLED", lambda: party.staff(
        k.RESULT_CORRECTED, {"entry": entry, "values": spots_game("ABCD", {"B": 3}, lead="A"),
                             "why": "recount"}))
    refused(party, "GAME ANNULLED", lambda: party.staff(
        k.GAME_ANNULLED, {"table": 1, "entry": entry, "why": "again"}))
    refused(party, "NO SUCH GAME", lambda: party.staff(
        k.RESULT_CORRECTED, {"entry": "nope", "values": {}, "why": "x"}))


def test_inputs_from_nowhere(party):
    refused(party, "UNKNOWN TABLE", lambda: party.table(9, k.CALL, {}))
    refused(party, "WRONG TABLE", lambda: party.propose("table:1", k.CALL, {"table": 2}))
    refused(party, "NOT STAFF", lambda: party.staff(k.BELL, {"meaning": "stop"}, login="eve"))
    party.must(party.staff(k.STAFF_ADDED, {"login": "bob"}))
    refused(party, "CONDUCTOR ONLY", lambda: party.staff(k.STAFF_ADDED, {"login": "cy"}, login="bob"))


def test_steps_out_of_order(party):
    refused(party, "PARTY EXISTS", lambda: party.staff(k.PARTY_CREATED, {"form": "block", "tables": 2}))
    refused(party, "SEATS DRAWN", lambda: party.staff(k.DRAW_SEATS, {}))
    refused(party, "NO SUCH BELL", lambda: party.table(1, k.BELL_ACK, {"bell": "s1-bell-1"}))
    party.start()
    refused(party, "RESULTS MISSING", lambda: party.staff(k.RESEAT, {}))
    refused(party, "PARTY NOT OVER", lambda: party.staff(k.FINAL_COUNT, {}))
    refused(party, "COUNT FIRST", lambda: party.staff(k.PLAY_OFF, {"prize": "1", "table": 1}))
    refused(party, "GAMES REMAIN", lambda: party.table(1, k.TABLE_BELL, {}))
    refused(party, "MISSING LEAD", lambda: party.result(1, spots_game("ABCD", {"A": 5})))


def test_a_bad_set_up():
    p = Party()
    refused(p, "NO PARTY", lambda: p.staff(k.GUEST_LISTED, {"guest": "x"}))
    refused(p, "UNKNOWN FORM", lambda: p.staff(k.PARTY_CREATED, {"form": "whist", "tables": 2}))
    refused(p, "BAD TABLES", lambda: p.staff(k.PARTY_CREATED, {"form": "block", "tables": 0}))
    refused(p, "NO SUCH VARIANT", lambda: p.staff(
        k.PARTY_CREATED, {"form": "block", "tables": 2, "variant": "nobody"}))


def test_the_conductor_names_an_assistant_or_another_conductor(party):
    """CONDUCTOR and ASSISTANT (000_ff8a6ed40036e836.txt: "When the party is very large he
    may require an assistant"): a login is an assistant unless named a conductor, and acts
    as such."""
    party.must(party.staff(k.STAFF_ADDED, {"login": "bob"}))
    party.must(party.staff(k.STAFF_ADDED, {"login": "cy", "role": "conductor"}))
    assert (party.state.staff["bob"], party.state.staff["cy"]) == ("assistant", "conductor")
    party.must(party.staff(k.STAFF_ADDED, {"login": "dee"}, login="cy"))
    refused(party, "CONDUCTOR ONLY", lambda: party.staff(k.STAFF_ADDED, {"login": "eve"}, login="bob"))
