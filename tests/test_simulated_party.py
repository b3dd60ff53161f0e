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
    hub, events = _played_to_the_final_count(broker, tmp_path, seed=2, tables=3, form="draw")
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


def _played_to_the_final_count(broker, tmp_path, seed: int, **party):
    """A hub on `broker` whose party (create_party's `party`) the simulator plays to its
    final count, within 240 s; the stopped hub and its journal's events."""
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    said = []
    sim = None
    try:
        assert create_party(hub, **party).ok
        sim = PartySimulator(hub, seed=seed, data_dir=tmp_path / "boards", say=said.append, pace=0.0).start()
        deadline = time.monotonic() + 240
        while hub.state.final_count is None:
            assert time.monotonic() < deadline, f"party not over; the simulator said {said[-5:]}"
            time.sleep(0.5)
    finally:
        if sim:
            sim.stop()
        hub.stop()
    with contextlib.closing(open_reader(hub.journal.path)) as db:
        return hub, list(read_events(db))


def _session_at(events, seq: int) -> int:
    return sum(1 for e in events if e.seq < seq and e.kind == "conductor.session-started")


def test_a_bergen_party_keys_its_points_as_they_are_made_and_stops_at_ten(broker, tmp_path):
    """Grimm 1896 (000_ff8a6ed40036e836.txt), BERGEN GAME party: "Ten points made at any
    table ends a session, whereupon the bell is rung, and all tables stop playing at once";
    a double-header counts two, a triple-header three, "domino" one. Set up with points
    keyed as they are made (the console's default), the virtual tables key each header
    from the board as the engine's players make it, then the hand's end; the side that
    reaches ten rings the stop bell, and no table keys a count after it."""
    hub, events = _played_to_the_final_count(broker, tmp_path, seed=3, tables=2, form="bergen",
                                             sessions=2, in_play="each")
    assert conductor.to_json(conductor.replay(events)) == conductor.to_json(hub.state)
    starts = [e.seq for e in events if e.kind == "conductor.session-started"]
    assert len(starts) == 2
    for start, end in zip(starts, starts[1:] + [events[-1].seq + 1]):
        session = [e for e in events if start <= e.seq < end]
        counts = [e for e in session if e.kind == "table.count"]
        assert counts, "no header keyed as it was made"
        # each count is keyed during its hand: before that hand's result, never after
        for c in counts:
            assert not any(e.kind == "table.result" and e.body["table"] == c.body["table"]
                           and e.body["game"] == c.body["game"] and e.seq < c.seq for e in session)
        bell = next(e for e in session if e.kind == "hub.bell-rung")
        assert bell.body["meaning"] == "stop"
        # the table that rang it has a side at ten, as keyed up to the bell
        at_bell = conductor.replay([e for e in events if e.seq <= bell.seq])
        t = at_bell.session.tables[bell.body["cause"]["table"]]
        assert max(sum(e.gains[i] for e in t.entries if e.counts) for i in (0, 1)) >= 10
        assert not [c for c in counts if c.seq > bell.seq], "a count keyed after the stop bell"
