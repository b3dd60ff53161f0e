"""The hub's start-up audit done once (docs/journal.md, "An audit done once"): a restarted
hub folds the rows an earlier start-up's audit passed, by the same code, where the seal
chain shows them unchanged since, and admits again only the rows after them. A row changed
before them, even with the chain made again after it, is audited again and found."""
from __future__ import annotations

import gc
import os
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from hub import audit_apart, child, conductor, seal
from hub.event import Event
from hub.conductor import events as k
from hub.journal import Journal, JournalDamaged
from hub.startup import JournalFailsAudit, open_party

from ..conductor.party import Party
from ..conductor.test_block_party import block_party
from ..conductor.test_replay_collector import generation_of, passes_counted
from ..conftest import children_left


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


def forged(path, row: Event) -> None:
    """A result's values changed in the file, and the chain and the head record beside it
    made again from there (SHA-256 has no key): only the audit can tell."""
    winner = row.body["outcome"]["winners"][0]
    body = Event(1, "x", 0, "s", "k", dict(row.body, values=dict(
        row.body["values"], **{winner: row.body["values"][winner] + 1}))).body_json
    db = sqlite3.connect(path)
    db.executescript("DROP TRIGGER journal_no_update")
    db.execute("UPDATE journal SET body = ? WHERE seq = ?", (body, row.seq))
    head = db.execute("SELECT seal FROM journal WHERE seq = ?", (row.seq - 1,)).fetchone()[0] \
        if row.seq > 1 else seal.START
    seq = row.seq
    for again in db.execute("SELECT seq, id, at, source, kind, digest, body FROM journal WHERE seq >= ? "
                            "ORDER BY seq", (row.seq,)).fetchall():
        head, seq = seal.link(head, *again), again[0]
        db.execute("UPDATE journal SET seal = ? WHERE seq = ?", (head, seq))
    db.commit()
    db.close()
    record = seal.HeadRecord(path)
    record.write(seq, head)
    record.close()
    assert Journal(path).chain.broken is None   # the chain alone cannot tell


def found_again(path, admitted) -> None:
    """A result of the journal at `path` forged: every row admitted again, the forged one found."""
    first = next(e for e in Journal(path).events() if e.kind == k.RESULT and e.body["outcome"]["winners"])
    forged(path, first)
    with pytest.raises(JournalFailsAudit) as refused:
        open_party(path)
    assert f"seq {first.seq}" in str(refused.value)
    assert admitted[0] == 1


def test_a_row_changed_before_the_last_audit_with_its_chain_made_again_is_found(half_audited, admitted):
    """Whoever rewrites the chain and the head record beside it, but not the audit's record,
    changes the seal of the row audited to: the whole journal is audited."""
    found_again(half_audited[0], admitted)


# -- a big journal's audit on two cores (hub/audit_apart.py): a child audits the first rows
# while the hub folds them and audits the rest; the same party, the same findings

@pytest.fixture
def whole(party_events, tmp_path):
    path = tmp_path / "party.sqlite3"
    journal = Journal(path)
    journal.append(party_events)
    journal.close()
    return path


def test_a_big_journal_is_audited_on_two_cores_and_the_same_party_served(whole, party_events, admitted,
                                                                        monkeypatch, children, chain_checked):
    monkeypatch.setattr(audit_apart, "SPLIT_ROWS", 1)
    journal, state = open_party(whole)
    journal.close()
    assert state == conductor.replay(party_events)
    # the hub admitted again only the rows after the child's, which it folded
    assert 1 < admitted[0] and admitted == list(range(admitted[0], len(party_events) + 1))
    # the audit's child, and the chain's where it is checked apart
    assert len(children.forked) == (children.way == "forked") * (1 + (chain_checked == "checked apart"))
    admitted.clear()
    open_party(whole)[0].close()   # and the audit was recorded as the whole journal's
    assert admitted == [] and children_left() == []


@pytest.mark.parametrize("where", [0.2, 0.95])   # in the child's rows; in the hub's
def test_a_forged_row_in_either_half_is_not_served_and_told_as_by_one_audit(whole, party_events, monkeypatch,
                                                                             where, children):
    results = [e for e in party_events if e.kind == k.RESULT and e.body["outcome"]["winners"]]
    forged(whole, results[int(len(results) * where)])
    with pytest.raises(JournalFailsAudit) as alone:
        open_party(whole)
    monkeypatch.setattr(audit_apart, "SPLIT_ROWS", 1)
    with pytest.raises(JournalFailsAudit) as on_two_cores:
        open_party(whole)
    assert on_two_cores.value.findings == alone.value.findings and alone.value.findings
    assert children_left() == []   # the audit's child, still running where the hub found first: killed


def test_a_cut_journal_is_refused_and_leaves_no_child(whole, monkeypatch, children, chain_checked):
    """The start-up's children are made before the journal is opened (hub/child.py): a file
    found cut at open leaves them neither running nor unreaped."""
    monkeypatch.setattr(audit_apart, "SPLIT_ROWS", 1)
    with open(whole, "r+b") as f:
        f.truncate(f.seek(0, 2) - 1000)
    with pytest.raises(JournalDamaged, match="the file is cut short"):
        open_party(whole)
    assert len(children.forked) == (children.way == "forked") * (1 + (chain_checked == "checked apart"))
    assert children_left() == []


def test_children_ended_before_their_work_leave_it_to_the_hub(whole, party_events, admitted, monkeypatch, forks):
    """A forked child gone before it was given its work (killed by the host, or by the kernel
    for memory): the hub audits the whole journal and checks the chain itself, and serves the
    same party."""
    monkeypatch.setattr(audit_apart, "SPLIT_ROWS", 1)
    monkeypatch.setattr(seal, "APART_BYTES", 0)
    given = child.Child.given

    def ended_first(made, *args):
        os.kill(made._pid, signal.SIGKILL)
        while Path(f"/proc/{made._pid}/stat").read_text().rsplit(") ", 1)[1][0] != "Z":   # dead, unreaped
            time.sleep(0.001)
        return given(made, *args)
    monkeypatch.setattr(child.Child, "given", ended_first)
    journal, state = open_party(whole)
    journal.close()
    assert len(forks) == 2 and state == conductor.replay(party_events)
    assert admitted[-len(party_events):] == [e.seq for e in party_events]   # then all of it audited here
    assert children_left() == []


def test_a_start_up_after_a_party_frozen_before_leaves_no_pass_over_its_own(whole):
    """A second hub's start-up in one process (a bench's, a drill's): its party is frozen for
    it before the collector runs again, not passed over whole at the first allocation after
    its replay (docs/performance.md section 4, "Session 14")."""
    gc.freeze()   # the process's objects so far, as a first hub's start-up freezes its party
    threshold = gc.get_threshold()
    gc.set_threshold(100, *threshold[1:])   # this party makes more than that: a big one's way
    try:
        with passes_counted() as passes:
            journal, state = open_party(whole)
            made = [{} for _ in range(50)]   # containers made after it: a pass over it would run here
        journal.close()
        assert len(made) == 50 and passes == []
        assert generation_of(state) is None   # frozen
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()
