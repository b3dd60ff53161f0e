"""Replaying a journal gives the state the live hub had: after every event of a whole
party, the fold of the journal so far equals the live state, identical in to_json (what
`party replay --json` prints); and `party replay` reads the hub's SQLite journal."""
import json
from dataclasses import replace

from hub.conductor import events as k
from hub.conductor import replay, ruling, to_json
from hub.journal import Journal
from party.cli import main

from .party import Party
from .test_block_party import block_party


class Recording(Party):
    """Keeps to_json of the live state after each event journaled."""

    def __init__(self):
        super().__init__()
        self.after: list[dict] = []

    def journaled(self, ev):
        super().journaled(ev)
        self.after.append(to_json(self.state))


def test_replay_of_every_prefix_equals_the_live_state():
    p = block_party(Recording())
    assert len(p.after) == len(p.journal) > 80
    assert replay(p.journal) == p.state        # not only the JSON: the very same values
    for i, live in enumerate(p.after, start=1):
        assert to_json(replay(p.journal[:i])) == live, p.journal[i - 1].kind


def test_party_replay_prints_the_same_json_as_the_live_hub(tmp_path, capsys):
    p = block_party(Party())
    path = tmp_path / "party.sqlite"
    journal = Journal(path)          # the hub's own writer
    journal.append(p.journal)
    journal.close()
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(to_json(p.state)))
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "SESSION 3" in text and "PRIZES" in text and p.state.holders["1C"] in text


def test_a_result_is_journaled_with_its_outcome_and_replay_reads_it_without_scoring(monkeypatch):
    """docs/journal.md: what was announced is what replays; the fold never scores again."""
    p = block_party(Party())
    results = [e for e in p.journal if e.kind == k.RESULT]
    assert results and all(set(e.body["outcome"]) == {"points", "winners", "blocked", "tally"}
                           for e in results)

    def no_scoring(*args, **kwargs):
        raise AssertionError("replay scored a result again")
    monkeypatch.setattr(ruling, "score", no_scoring)   # where a fold step would score
    assert replay(p.journal) == p.state


def test_a_journal_written_before_outcomes_were_recorded_still_replays():
    p = block_party(Party())
    old = [replace(e, body={x: v for x, v in e.body.items() if x != "outcome"})
           for e in p.journal]
    assert any(e.kind == k.RESULT for e in old) and all("outcome" not in e.body for e in old)
    assert to_json(replay(old)) == to_json(p.state)
