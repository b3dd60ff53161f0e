"""A whole party played through the real firmware: what `party demo` shows a host.

Three virtual tables key every hand the engine's players play, the simulated
host seats, rings and reseats, and the party runs to its final count. Nothing
keyed is lost or doubled, and the journal replays to the live party.
"""
import collections
import contextlib
import time

import pytest

from party.simulated_party import PartySimulator
from hub import conductor
from hub.conductor.state import table_done
from hub.journal import open_reader, read_events
from hub.service import Hub
from party.setup import create_party

pytestmark = [pytest.mark.broker, pytest.mark.slow]


def test_a_three_table_draw_party_runs_to_its_final_count(broker, tmp_path):
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    said = []
    sim = None
    try:
        assert create_party(hub, tables=3, form="draw").ok
        sim = PartySimulator(hub, seed=2, data_dir=tmp_path / "boards", say=said.append, pace=0.0).start()
        deadline = time.monotonic() + 240
        while hub.state.final_count is None:
            assert time.monotonic() < deadline, f"party not over; the simulator said {said[-5:]}"
            time.sleep(0.5)
    finally:
        if sim:
            sim.stop()
        hub.stop()

    with contextlib.closing(open_reader(hub.journal.path)) as db:
        events = list(read_events(db))
    state = conductor.replay(events)
    assert conductor.to_json(state) == conductor.to_json(hub.state)
    setup = state.setup
    assert len(state.sessions) == setup.sessions
    for s in state.sessions:  # every table played its session out
        assert all(table_done(setup, s, t) for t in s.tables.values())
    # Each board event is journaled once; the boards' ids never repeat.
    ids = collections.Counter(e.id for e in events)
    assert max(ids.values()) == 1
    results = [e for e in events if e.kind == "table.result"]
    per_session_table = collections.Counter((e.body["table"], _session_at(events, e.seq)) for e in results)
    assert all(n <= setup.games_per_session for n in per_session_table.values())
    # Every checked-in guest's card is on the final standings.
    standings = conductor.standings(state)
    assert {p["guest"] for p in standings["leaders"]} == set(state.guests)
    assert standings["prizes"] and all(p["winner"] for p in standings["prizes"])


def _session_at(events, seq: int) -> int:
    return sum(1 for e in events if e.seq < seq and e.kind == "conductor.session-started")
