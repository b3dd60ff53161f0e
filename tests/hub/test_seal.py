"""The sealed journal (issue 24, docs/journal.md "The seal"): each row's seal covers its
content and the seal before it. `party replay --audit` and the hub's start-up find the first
broken link — a row's body and outcome edited together (which the conductor's audit cannot
see), a row removed from the middle, the last row removed (by the writer's head record), a
tail cut mid-row, a digest or a seal changed — and a journal the hub's writer wrote passes.
A journal written before the seal still replays, and is sealed from its next row on."""
from __future__ import annotations

import os
import sqlite3

import pytest

from hub import audit_apart, child, seal
from hub.conductor import events as k
from hub.event import Event
from hub.journal import Journal, JournalDamaged
from hub.service import Hub
from hub.startup import open_party
from party.cli import main

from ..conductor.party import Party
from ..conductor.test_block_party import block_party


@pytest.fixture(scope="module")
def party_events():
    return block_party(Party()).journal


@pytest.fixture(autouse=True, params=["checked here", "checked apart", "checked on the audit's read"])
def chain_checked(request, monkeypatch):
    """Each start-up here three times: the chain checked in the hub's process, in a child beside
    the audit, as a big journal's is (hub/seal.py, Checking), and on the read of the child that
    audits the first rows, as a big journal's first start's is (hub/audit_apart.py): the same
    verdict, in the same words."""
    if request.param != "checked here":
        monkeypatch.setattr(seal, "APART_BYTES", 0)
    if request.param == "checked on the audit's read":
        monkeypatch.setattr(audit_apart, "SPLIT_ROWS", 1)
    return request.param


@pytest.fixture
def journal(party_events, tmp_path):
    """A whole Block party as the hub's writer journals it, in batches."""
    path = tmp_path / "party.sqlite3"
    j = Journal(path)
    for i in range(0, len(party_events), 7):
        j.append(party_events[i:i + 7])
    j.close()
    return path


def tampered(path, *sql: str):
    """The file edited as anyone with the file could: the append-only triggers dropped."""
    db = sqlite3.connect(path)
    db.executescript("DROP TRIGGER journal_no_update; DROP TRIGGER journal_no_delete;" + ";".join(sql))
    db.close()
    return path


def audited(path, capsys) -> tuple[int, str]:
    code = main(["replay", str(path), "--audit"])
    return code, capsys.readouterr().out


def not_served(path) -> str:
    with pytest.raises(JournalDamaged) as refused:
        Hub(path, "127.0.0.1", 9)     # audited as it is made, before it connects
    return str(refused.value)


def test_a_journal_the_writer_wrote_passes(journal, party_events, capsys):
    code, out = audited(journal, capsys)
    assert code == 0
    head = Journal(journal).head
    assert head[0] == len(party_events)
    assert f"seal: unbroken to seq {head[0]}, receipt {head[1][-6:]}; the writer's head record agrees" in out
    hub = Hub(journal, "127.0.0.1", 9)
    assert hub.seq == len(party_events)
    hub.journal.close()


def test_a_body_and_its_outcome_edited_together_break_the_seal(journal, capsys):
    """The conductor's audit cannot see this one: the values and the outcome agree again."""
    first = next(e for e in Journal(journal).events() if e.kind == k.RESULT)
    winner = first.body["outcome"]["winners"][0]
    edited = dict(first.body, values=dict(first.body["values"], **{winner: first.body["values"][winner] + 1}))
    edited["outcome"] = dict(first.body["outcome"],
                             points={s: p + (s == winner) for s, p in first.body["outcome"]["points"].items()})
    tampered(journal, f"UPDATE journal SET body = '{Event(1, 'x', 0, 's', 'k', edited).body_json}' "
                      f"WHERE seq = {first.seq}")
    code, out = audited(journal, capsys)
    assert code == 1
    assert (f"SEAL BROKEN: seq {first.seq} does not match its seal: the row was changed after it was "
            f"sealed") in out
    assert f"seq {first.seq} does not match its seal" in not_served(journal)


def test_a_row_removed_from_the_middle_is_found(journal, capsys):
    tampered(journal, "DELETE FROM journal WHERE seq = 50")
    code, out = audited(journal, capsys)
    assert code == 1 and "SEAL BROKEN: seq 50 is missing: the row after seq 49 is seq 51" in out
    assert "seq 50 is missing" in not_served(journal)


def test_the_last_row_removed_is_found_by_the_writers_head_record(journal, party_events, capsys):
    last = len(party_events)
    tampered(journal, f"DELETE FROM journal WHERE seq = {last}")
    code, out = audited(journal, capsys)
    assert code == 1
    assert (f"SEAL BROKEN: the journal ends at seq {last - 1}, but the writer recorded seq {last}") in out
    assert "were removed, or this is an older copy" in not_served(journal)


def test_the_last_row_removed_cannot_be_seen_from_the_file_alone_and_the_audit_says_so(journal, party_events,
                                                                                     capsys):
    """Without the head record (the journal copied alone) the file is a shorter journal whose
    every link holds: nothing in it tells. The audit says what it could not check."""
    tampered(journal, f"DELETE FROM journal WHERE seq = {len(party_events)}")
    seal.head_path(journal).unlink()
    code, out = audited(journal, capsys)
    assert code == 0 and "no head record beside it (party.sqlite3-head): rows removed from its end" in out


def test_a_tail_cut_mid_row_is_found(journal, capsys):
    data = journal.read_bytes()
    journal.write_bytes(data[:-700])
    with pytest.raises(SystemExit) as out:
        main(["replay", str(journal), "--audit"])
    assert "is damaged: the file is cut short" in str(out.value.code)
    assert "the file is cut short" in not_served(journal)


def test_a_digest_changed_is_found(journal, capsys):
    tampered(journal, "UPDATE journal SET digest = '0' || substr(digest, 2) WHERE seq = 60")
    code, out = audited(journal, capsys)
    assert code == 1 and "SEAL BROKEN: seq 60 does not match its seal: the row was changed" in out


def test_a_seal_changed_is_found_and_told_from_a_changed_row(journal, capsys):
    tampered(journal, "UPDATE journal SET seal = '0' || substr(seal, 2) WHERE seq = 60")
    code, out = audited(journal, capsys)
    assert code == 1 and "SEAL BROKEN: seq 60 does not match its seal: its seal was changed" in out


def test_a_served_journal_goes_on_from_its_head(journal, party_events, capsys):
    """A restarted writer seals its next row on the last one's seal: still unbroken."""
    j = Journal(journal)
    j.append([Event(len(party_events) + 1, "staff.late", 2e9, "staff:bob", k.GUEST_LISTED,
                    {"guest": "Late Larry"})])
    j.close()
    code, out = audited(journal, capsys)
    assert f"seal: unbroken to seq {len(party_events) + 1}" in out


OLD_SCHEMA = """
CREATE TABLE journal (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, at REAL NOT NULL,
    source TEXT NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, digest TEXT NOT NULL);
CREATE TABLE restored (seq INTEGER NOT NULL, at REAL NOT NULL);
CREATE TABLE refused (id TEXT PRIMARY KEY, digest TEXT NOT NULL, why TEXT NOT NULL, at REAL NOT NULL);
"""


def old_journal(path, events):
    """A journal as the hub wrote it before the seal."""
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.executemany("INSERT INTO journal VALUES (?,?,?,?,?,?,?)",
                   [(e.seq, e.id, e.at, e.source, e.kind, e.body_json, e.digest) for e in events])
    db.commit()
    db.close()
    return path


def test_a_journal_written_before_the_seal_replays_and_is_sealed_from_its_next_row(party_events, tmp_path,
                                                                                 capsys):
    half = len(party_events) // 2
    path = old_journal(tmp_path / "old.sqlite3", party_events[:half])
    code, out = audited(path, capsys)
    assert code == 0 and "seal: none (a journal written before the seal" in out
    j = Journal(path)                      # a hub that seals opens it: from the next row on
    j.append(party_events[half:])
    j.close()
    code, out = audited(path, capsys)
    assert code == 0
    assert (f"seal: unbroken to seq {len(party_events)}, receipt") in out
    assert f"seq 1 to {half}, written before the seal, are covered by the first seal after them" in out
    # a row written before the seal, changed: the first seal after it no longer holds
    tampered(path, "UPDATE journal SET body = replace(body, 'Guest 01', 'Guest 99') WHERE seq <= 10")
    code, out = audited(path, capsys)
    assert code == 1 and f"SEAL BROKEN: seq {half + 1}, the first row sealed, does not match its seal" in out


def test_a_journal_sealed_then_stripped_of_its_seals_is_found(journal, capsys):
    tampered(journal, "UPDATE journal SET seal = NULL")
    code, out = audited(journal, capsys)
    assert code == 1 and "SEAL BROKEN: seq 1 has no seal, though every row from seq 1 was sealed" in out


def test_a_first_start_ups_chain_is_checked_on_the_read_of_the_audits_child(journal, monkeypatch, forks):
    """Where a child audits the first rows (hub/audit_apart.py), it checks the chain on its read
    of them and of the rows after them: no process reads every row again for the chain alone."""
    opened = Journal(journal)
    here = opened.chain
    opened.close()
    monkeypatch.setattr(audit_apart, "SPLIT_ROWS", 1)
    monkeypatch.setattr(seal, "APART_BYTES", 0)
    monkeypatch.setattr(seal, "check", lambda *a: pytest.fail("the rows read again for the chain alone"))
    given, to = [], child.Child.given
    monkeypatch.setattr(child.Child, "given", lambda made, *args: given.append(made._module) or to(made, *args))
    j, _ = open_party(journal)
    assert j.chain == here and j.head == (here.seq, here.head) and here.broken is None
    j.close()
    assert len(forks) == 2 and given == ["hub.audit_apart"]   # the chain's own child stopped before it read a row


def test_a_big_journals_chain_is_checked_in_a_child_beside_the_start_up(journal, monkeypatch, children):
    """The hub's start-up checks a big journal's chain in a process of its own while it
    audits (hub/seal.py, Checking), forked or spawned (hub/child.py): the chain it gets is the
    one checked here."""
    opened = Journal(journal)
    here, hub, check = opened.chain, os.getpid(), seal.check
    opened.close()   # its checkpointer's thread ended: the children forked
    monkeypatch.setattr(seal, "APART_BYTES", 0)
    monkeypatch.setattr(seal, "check", lambda *a: pytest.fail("checked in the hub's own process")
                        if os.getpid() == hub else check(*a))   # a forked child's is its own
    j = Journal(journal, seal.checker(journal))
    assert j.chain == here and j.head == (here.seq, here.head) and here.broken is None
    j.close()
    assert len(children.forked) == (children.way == "forked")
