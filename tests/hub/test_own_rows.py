"""A hub marks the rows it journals itself as audited by its code (hub/startup.py, `OwnRows`;
docs/journal.md, "An audit done once"): a restart after an orderly stop admits none of them
again, after a kill only those since its last mark, made in a quiet second. Rows it did not
write — changed while it was down, journaled by a hub started without the audit — are
audited as before, and so are a replica's rows past the lost hub's last mark after a
takeover."""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
from pathlib import Path

import pytest

from hub import conductor, seal
from hub.event import Proposal
from hub.journal import Journal, backup, open_reader
from hub.service import Hub
from hub.startup import open_party

from ..conductor.party import Party
from ..conductor.test_block_party import block_party
from .test_audit_once import found_again

pytestmark = pytest.mark.broker
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def inputs():
    """The inputs of a whole Block party (tests/conductor/test_block_party.py), as they were
    sent: a hub given them judges them and journals its own decisions on them."""
    return [Proposal(e.id, e.source, e.kind, {key: v for key, v in e.body.items() if key != "outcome"})
            for e in block_party(Party()).journal if e.source != "hub"]


def serve(path, broker, inputs, audit: bool = True) -> int:
    """A hub started on `path`, given `inputs`, stopped in order; the journal's last seq."""
    hub = Hub(path, broker.host, broker.port, audit=audit).start()
    try:
        for p in inputs:
            assert hub.submit(p).ok, p
        return hub.seq
    finally:
        hub.stop()


def marks(path) -> list[int]:
    db = open_reader(path)
    try:
        return [seq for (seq,) in db.execute("SELECT seq FROM audited ORDER BY seq")]
    finally:
        db.close()


def restarted(path):
    """The party a restarted hub's start-up serves from `path`."""
    journal, state = open_party(path)
    journal.close()
    return state


def test_a_restart_after_an_orderly_stop_admits_nothing_again(tmp_path, broker, inputs, admitted):
    path = tmp_path / "party.sqlite3"
    last = serve(path, broker, inputs)   # the journal written from its first row
    assert marks(path) == [last]
    state = restarted(path)
    assert admitted == []
    assert state == conductor.replay(Journal(path).events()) and state.seq == last


# A hub in a process of its own, killed: marked in its first quiet second after the first
# half of the inputs, not again before the kill (`MARK_EVERY_S` an hour after that mark).
KILLED = """
import json, sys, time
from hub import startup
from hub.event import Proposal
from hub.journal import open_reader
from hub.service import Hub
path, host, port, half = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
inputs = [Proposal(*p) for p in json.loads(sys.stdin.readline())]
startup.MARK_EVERY_S = 0.0
hub = Hub(path, host, port).start()
for p in inputs[:half]:
    assert hub.submit(p).ok
marked, db = hub.seq, open_reader(path)
while db.execute("SELECT MAX(seq) FROM audited").fetchone()[0] != marked:
    time.sleep(0.05)
startup.MARK_EVERY_S = 3600.0
for p in inputs[half:]:
    assert hub.submit(p).ok
print(marked, hub.seq, flush=True)
time.sleep(120)
"""


def test_a_restart_after_a_kill_admits_again_only_the_rows_since_the_last_mark(tmp_path, broker, inputs,
                                                                              admitted):
    path = tmp_path / "party.sqlite3"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    hub = subprocess.Popen([sys.executable, "-c", KILLED, str(path), broker.host, str(broker.port),
                            str(len(inputs) // 2)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                           text=True)
    try:
        hub.stdin.write(json.dumps([[p.id, p.source, p.kind, p.body] for p in inputs]) + "\n")
        hub.stdin.flush()
        with selectors.DefaultSelector() as said:
            said.register(hub.stdout, selectors.EVENT_READ)
            assert said.select(60), "the hub did not journal the party within 60 s"
        marked, last = map(int, hub.stdout.readline().split())
    finally:
        hub.kill()   # no orderly stop: no mark at the end
        hub.wait()
    assert 0 < marked < last and marks(path) == [marked]
    state = restarted(path)
    assert admitted == list(range(marked + 1, last + 1))
    assert state == conductor.replay(Journal(path).events())


def test_a_row_changed_while_the_hub_was_down_is_found(tmp_path, broker, inputs, admitted):
    """Its chain and head record made again after the change: the seal of the row marked is
    no longer the one recorded, so every row is admitted again, and the change found."""
    path = tmp_path / "party.sqlite3"
    serve(path, broker, inputs)
    found_again(path, admitted)


def test_a_hub_started_without_the_audit_marks_nothing_and_its_rows_are_audited(tmp_path, broker, inputs,
                                                                                admitted):
    path, half = tmp_path / "party.sqlite3", len(inputs) // 2
    marked = serve(path, broker, inputs[:half])
    last = serve(path, broker, inputs[half:], audit=False)   # `party run --no-audit`
    assert marks(path) == [marked]
    admitted.clear()   # the first hub's start-up, on the empty journal
    restarted(path)
    assert admitted == list(range(marked + 1, last + 1))


def test_a_takeover_admits_again_the_rows_after_the_lost_hubs_last_mark(tmp_path, broker, inputs, admitted,
                                                                        monkeypatch):
    """The replica is a copy of the journal's file, its marks with it (a backup here, as
    Litestream's restore gives it): a standby running the same code folds the rows the lost
    hub marked; the rest, and every row for a standby of other code, are admitted again."""
    path, half = tmp_path / "party.sqlite3", len(inputs) // 2
    marked = serve(path, broker, inputs[:half])
    last = serve(path, broker, inputs[half:], audit=False)   # rows no mark covers

    def taken_over(name: str) -> Path:
        copy = tmp_path / name
        copy.write_bytes(backup(path))
        restored = Journal(copy)   # as `party takeover` marks it
        restored.mark_restored(0.0)
        restored.close()
        assert seal.read_head(copy) == (last, Journal(path).chain.head)
        return copy

    admitted.clear()
    restarted(taken_over("standby.sqlite3"))
    assert admitted == list(range(marked + 1, last + 1))
    admitted.clear()
    monkeypatch.setattr("hub.startup.code", lambda: "another version of the hub")
    restarted(taken_over("other.sqlite3"))
    assert admitted == list(range(1, last + 1))
