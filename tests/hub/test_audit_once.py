"""The hub's start-up audit done once (docs/journal.md, "An audit done once"): a restarted
hub folds the rows an earlier start-up's audit passed, by the same code, where the seal
chain shows them unchanged since, and admits again only the rows after them. A row changed
before them, even with the chain made again after it, is audited again and found."""
from __future__ import annotations

import sqlite3

import pytest

from hub import conductor, seal
from hub.event import Event
from hub.conductor import events as k
from hub.journal import Journal
from hub.startup import JournalFailsAudit, open_party

from ..conductor.party import Party
from ..conductor.test_block_party import block_party


@pytest.fixture(scope="module")
def party_events():
    return block_party(Party()).journal


@pytest.fixture
def half_audited(party_events, tmp_path):
    """A party's first half journaled and audited by a hub's start-up; its second half
    journaled after (the hub served on)."""
    path, half = tmp_path / "party.sqlite3", len(party_events) // 2
    journal = Journal(path)
    journal.append(party_events[:half])
    journal.close()
    open_party(path)[0].close()
    journal = Journal(path)
    journal.append(party_events[half:])
    journal.close()
    return path, half


@pytest.fixture(autouse=True, params=["checked here", "checked apart"])
def chain_checked(request, monkeypatch):
    """Each start-up here twice: the chain checked in the hub's process, and in a child beside
    the audit, as a big journal's is (hub/seal.py, Checking)."""
    if request.param == "checked apart":
        monkeypatch.setattr(seal, "APART_BYTES", 0)
    return request.param


@pytest.fixture
def admitted(monkeypatch):
    """The seqs the start-up's audit admits again."""
    seen, audit = [], conductor.audit

    def counted(events, state=None):
        events = list(events)
        seen.extend(e.seq for e in events)
        return audit(events, state)
    monkeypatch.setattr(conductor, "audit", counted)
    return seen


def test_a_restart_admits_again_only_the_rows_after_the_last_audit(half_audited, party_events, admitted):
    path, half = half_audited
    journal, state = open_party(path)
    journal.close()
    assert admitted == [e.seq for e in party_events[half:]]
    assert state == conductor.replay(party_events)
    admitted.clear()
    journal, again = open_party(path)   # audited to the end now: nothing to admit again
    journal.close()
    assert admitted == [] and again == state


def test_an_audit_by_other_code_of_the_hub_is_not_taken(half_audited, party_events, admitted, monkeypatch):
    monkeypatch.setattr("hub.startup.code", lambda: "another version of the hub")
    open_party(half_audited[0])[0].close()
    assert admitted == [e.seq for e in party_events]


def test_a_row_changed_before_the_last_audit_with_its_chain_made_again_is_found(half_audited, admitted):
    """Whoever rewrites the chain (SHA-256 has no key) and the head record beside it, but not
    the audit's record, changes the seal of the row audited to: the whole journal is audited."""
    path, half = half_audited
    rows = [*Journal(path).events()]
    first = next(e for e in rows if e.kind == k.RESULT)
    winner = first.body["outcome"]["winners"][0]
    body = Event(1, "x", 0, "s", "k", dict(first.body, values=dict(
        first.body["values"], **{winner: first.body["values"][winner] + 1}))).body_json
    db = sqlite3.connect(path)
    db.executescript("DROP TRIGGER journal_no_update")
    db.execute("UPDATE journal SET body = ? WHERE seq = ?", (body, first.seq))
    head = db.execute("SELECT seal FROM journal WHERE seq = ?", (first.seq - 1,)).fetchone()[0] \
        if first.seq > 1 else seal.START
    for row in db.execute("SELECT seq, id, at, source, kind, digest, body FROM journal WHERE seq >= ? "
                          "ORDER BY seq", (first.seq,)).fetchall():
        head = seal.link(head, *row)
        db.execute("UPDATE journal SET seal = ? WHERE seq = ?", (head, row[0]))
    db.commit()
    db.close()
    record = seal.HeadRecord(path)
    record.write(rows[-1].seq, head)
    record.close()
    assert Journal(path).chain.broken is None   # the chain alone cannot tell
    with pytest.raises(JournalFailsAudit) as refused:
        open_party(path)
    assert f"seq {first.seq}" in str(refused.value)
    assert admitted[0] == 1
