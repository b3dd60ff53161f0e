"""A hub's runs on a journal (hub/runs.py): what the console says after a restart and
where `party run` finds the broker port the boards were given."""
from __future__ import annotations

import time

from hub import runs
from hub.runs import Runs


def test_a_run_stopped_in_order_says_when_and_a_killed_one_its_last_sign_of_life(tmp_path, monkeypatch):
    monkeypatch.setattr(runs, "ALIVE_S", 0.05)
    journal = tmp_path / "party.sqlite3"
    assert runs.last(journal) is None                       # never run on

    first = Runs(journal)
    first.begin(("127.0.0.1", 41883), lambda: (7, {"1": "b1"}))
    time.sleep(0.2)
    first.end()
    before = Runs(journal).previous
    assert before.stopped is not None and before.stopped >= before.alive - 0.01
    assert (before.seq, before.broker, before.boards) == (7, ("127.0.0.1", 41883), {"1": "b1"})

    killed = Runs(journal)                                 # dies: never ends
    seen = {"seq": 8}
    killed.begin(("127.0.0.1", 41883), lambda: (seen["seq"], {}))
    seen["seq"] = 12
    deadline = time.monotonic() + 5     # noted as it goes, every ALIVE_S (later on a loaded machine)
    while (after := runs.last(journal)).seq != 12 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert after.started == killed.started and after.stopped is None
    assert after.seq == 12 and after.alive > after.started   # noted as it went
    assert len(Runs(journal).before) == 2
    killed.end()


def test_a_board_coming_online_is_noted_at_once_not_at_the_next_beat(tmp_path, monkeypatch):
    """A hub killed a second after its boards came online: started again, it still knows
    which boards to wait for (the console's restart summary, web/restart.py)."""
    monkeypatch.setattr(runs, "ALIVE_S", 3600.0)   # no beat in this test: only the change notes
    journal = tmp_path / "party.sqlite3"
    online: dict[str, str] = {}
    run = Runs(journal)
    run.begin(("127.0.0.1", 41883), lambda: (1, dict(online)))
    assert runs.last(journal).boards == {}
    online.update({"1": "b1", "2": "b2"})
    run.changed()
    deadline = time.monotonic() + 10
    while runs.last(journal).boards != online and time.monotonic() < deadline:
        time.sleep(0.02)
    assert runs.last(journal).boards == {"1": "b1", "2": "b2"}
    del online["2"]
    run.changed()
    deadline = time.monotonic() + 10
    while runs.last(journal).boards != online and time.monotonic() < deadline:
        time.sleep(0.02)
    assert runs.last(journal).boards == {"1": "b1"}
    run.end()
    assert runs.last(journal).stopped is not None


def test_a_hub_stopped_again_later_leaves_the_runs_of_the_hubs_after_it(tmp_path):
    journal = tmp_path / "party.sqlite3"
    first = Runs(journal)
    first.begin(("127.0.0.1", 41883), lambda: (3, {}))
    first.end()
    second = Runs(journal)
    second.begin(("127.0.0.1", 41883), lambda: (5, {"1": "b1"}))
    first.end()                                  # a second stop of the first hub: nothing written
    assert runs.last(journal).started == second.started and len(Runs(journal).before) == 2
    second.end()


def test_a_damaged_runs_file_leaves_the_party_going_without_its_history(tmp_path):
    journal = tmp_path / "party.sqlite3"
    (tmp_path / "party.sqlite3.runs.json").write_text('{"runs": [{"started": "')
    assert Runs(journal).previous is None
