"""The audit (issue 12 item 11): events written straight into a journal, around the
judge, fold silently; `audit` judges every input again against the state before it and
lists each one the conductor would refuse, with its seq and reason. A journal the
conductor wrote passes, and the audit's state is the replay's."""
import pytest

from hub.conductor import audit, replay
from hub.conductor import events as k
from hub.event import Event

from .party import Party, spots_game, win
from .test_block_party import block_party


def test_a_journal_the_conductor_wrote_passes_and_audits_to_the_replayed_state():
    p = block_party(Party())
    state, findings = audit(p.journal)
    assert findings == () and state == replay(p.journal) == p.state


def forged(p: Party, source: str, kind: str, body: dict, id: str = "forged") -> list[Event]:
    """The journal with one event appended by another writer than the judge."""
    journal = p.journal + [Event(len(p.journal) + 1, id, p.now, source, kind, body)]
    assert not replay(journal).anomalies   # the fold takes it without a word
    return journal


def only_finding(journal: list[Event]):
    _, findings = audit(journal)
    assert len(findings) == 1, findings
    return findings[0]


@pytest.fixture
def party() -> Party:
    """Block (000, BLOCK GAME: "As soon as four games have been finished at any table the
    conductor rings the bell"), two tables in play."""
    p = Party()
    p.create(form="block", tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    return p


def test_a_fifth_game(party):
    for _ in range(4):
        party.must(win(party, 1, "A", 5))
    fifth = spots_game("ABCD", {"B": 3})
    f = only_finding(forged(party, "table:1", k.RESULT,
                            {"game": 5, "values": fifth, "table": 1, "board": "sim-1"}))
    assert (f.seq, f.id, f.why) == (len(party.journal) + 1, "forged", "NO SUCH GAME")


def test_a_result_after_an_acknowledged_stop_bell(party):
    """000, BERGEN GAME: "the bell is rung, and all tables stop playing at once"."""
    party.must(party.staff(k.BELL, {"meaning": "stop"}))
    party.ack_bell()
    values = spots_game("ABCD", {"A": 5}, lead="A")
    f = only_finding(forged(party, "table:1", k.RESULT,
                            {"game": 1, "values": values, "table": 1, "board": "sim-1"}))
    assert (f.seq, f.why) == (len(party.journal) + 1, "TABLE STOPPED")


def test_a_player_in_two_seats(party):
    """000, BLOCK GAME: the conductor moves each player to one seat of the next session."""
    for n in (1, 2):
        for _ in range(4):
            party.must(win(party, n, "A", 5))
    party.ack_bell()
    v = party.reseat()
    moved = v.events[1]
    assert moved.kind == k.PLAYERS_MOVED
    seats = {n: list(row) for n, row in moved.body["seats"].items()}
    seats["2"][0] = seats["1"][0]            # the same card at Table 1 A and Table 2 A
    journal = party.journal[:-1] + [Event(moved.seq, moved.id, moved.at, "hub", moved.kind,
                                          dict(moved.body, seats=seats))]
    assert not replay(journal).anomalies
    f = only_finding(journal)
    assert (f.seq, f.kind, f.why) == (moved.seq, k.PLAYERS_MOVED, "OTHER DECISION")


def test_a_correction_of_an_annulled_game(party):
    entry = party.must(win(party, 1, "B", 7)).events[0].id
    party.must(party.staff(k.GAME_ANNULLED, {"table": 1, "entry": entry, "why": "piece dropped"}))
    f = only_finding(forged(party, "staff:ann", k.RESULT_CORRECTED, {
        "entry": entry, "values": spots_game("ABCD", {"B": 3}, lead="A"), "why": "recount"}))
    assert (f.seq, f.why) == (len(party.journal) + 1, "GAME ANNULLED")


def test_a_result_sent_by_table_2_naming_table_1(party):
    values = spots_game("ABCD", {"A": 5}, lead="A")
    f = only_finding(forged(party, "table:2", k.RESULT,
                            {"game": 1, "values": values, "table": 1, "board": "sim-2"}))
    assert (f.seq, f.why) == (len(party.journal) + 1, "WRONG TABLE")


def test_an_outcome_other_than_the_engines_is_reported(party):
    """docs/journal.md: what was announced replays; the audit re-scores and says so."""
    v = party.must(win(party, 1, "B", 7))
    e = v.events[0]
    outcome = dict(e.body["outcome"], points={"A": 0, "B": 70, "C": 0, "D": 0})
    journal = party.journal[:-1] + [Event(e.seq, e.id, e.at, e.source, e.kind,
                                          dict(e.body, outcome=outcome))]
    f = only_finding(journal)
    assert (f.seq, f.why) == (e.seq, "OUTCOME DIFFERS")
    assert replay(journal).session.tables[1].entries[0].gains[1] == 70   # as journaled
    # the audit folded the engine's outcome in place, then put it back for the journal's
    state, _ = audit(journal)
    assert state == replay(journal) and len(state.session.tables[1].entries) == 1


def test_a_decision_nobody_asked_for(party):
    f = only_finding(forged(party, "hub", k.HUB_BELL, {"meaning": "stop", "cause": "time"}))
    assert f.why == "NOT DECIDED"
