"""A damaged journal is said, never thrown (issue 24): `party replay`, its `--audit` and
`--json`, and `party run` each say what is wrong and where (the row's seq, a byte offset)
and exit 1, without a traceback — for a body that is not JSON, a body nested 100,000
levels deep, and a file missing its last 512 bytes."""
from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from hub import audit_apart, seal
from hub.journal import Journal
from party.cli import main

from ..conftest import children_left

from ..conductor.party import Party
from ..conductor.test_block_party import block_party

COMMANDS = (["replay"], ["replay", "--audit"], ["replay", "--json"],
            ["run", "--broker", "127.0.0.1:9", "--journal"])   # the hub is made before it connects


@pytest.fixture(scope="module")
def party_journal(tmp_path_factory):
    """A whole Block party as the hub's writer journals it."""
    path = tmp_path_factory.mktemp("party") / "party.sqlite3"
    journal = Journal(path)
    journal.append(block_party(Party()).journal)
    journal.close()
    return path


def edited(party_journal, tmp_path, seq: int, body: str):
    """The journal with one row's body replaced, as an editor of the file would (the
    append-only triggers dropped first)."""
    path = tmp_path / "edited.sqlite3"
    path.write_bytes(party_journal.read_bytes())
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("UPDATE journal SET body = ? WHERE seq = ?", (body, seq))
    db.commit()
    db.close()
    return path


def said(command: list[str], path) -> str:
    """What the command says on its way out; it must leave by SystemExit with a message
    (exit status 1, printed without a traceback), not by any other exception."""
    with pytest.raises(SystemExit) as out:
        main([*command, str(path)])
    assert isinstance(out.value.code, str), out.value.code
    return out.value.code


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_body_that_is_not_json_is_named_by_seq_and_offset(party_journal, tmp_path, command):
    path = edited(party_journal, tmp_path, 40, '{"game": 1, oops')
    message = said(command, path)
    assert "is damaged: seq 40: its body is not JSON" in message and "at byte offset 12" in message


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_body_nested_100000_levels_deep_is_named_by_seq(party_journal, tmp_path, command):
    path = edited(party_journal, tmp_path, 41, "[" * 100_000 + "]" * 100_000)
    assert "is damaged: seq 41: its body is nested too deep to read (200,000 bytes)" in said(command, path)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_file_missing_its_last_512_bytes_is_said_in_bytes(party_journal, tmp_path, command):
    path = tmp_path / "cut.sqlite3"
    path.write_bytes(party_journal.read_bytes()[:-512])
    size = os.path.getsize(path)
    message = said(command, path)
    assert "is damaged: the file is cut short" in message
    assert f"the last 512 bytes, from byte offset {size:,}, are missing" in message


def test_a_row_with_a_field_missing_is_named_after_the_last_seq_read_whole(party_journal, tmp_path):
    """SQLite reading a damaged page can give a row with NULLs (what a cut file gave before
    the size was checked): named after the last row read whole."""
    path = tmp_path / "nulls.sqlite3"
    path.write_bytes(party_journal.read_bytes())
    db = sqlite3.connect(path)
    db.execute("PRAGMA ignore_check_constraints = ON")
    db.execute("PRAGMA writable_schema = ON")   # the columns' NOT NULL lifted, as damage would
    db.execute("UPDATE sqlite_schema SET sql = replace(sql, 'NOT NULL', '') WHERE name = 'journal'")
    db.commit()
    db.close()
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("UPDATE journal SET body = NULL, id = NULL WHERE seq = 30")
    db.commit()
    db.close()
    assert "the row after seq 29 is damaged: id missing, body missing" in said(["replay", "--audit"], path)


def test_the_undamaged_journal_still_replays(party_journal, capsys):
    assert main(["replay", str(party_journal), "--audit"]) == 0
    assert ", 0 of them the conductor would not have written" in capsys.readouterr().out


def test_run_forks_its_start_ups_children_before_its_broker_starts(party_journal, tmp_path, monkeypatch, forks):
    """`party run` makes the hub before its embedded broker's thread starts: the start-up's
    children (the first rows' audit, the chain's check) are forked from its one thread
    (hub/child.py), and a journal refused leaves neither them nor the broker behind."""
    monkeypatch.setattr(audit_apart, "SPLIT_ROWS", 1)
    monkeypatch.setattr(seal, "APART_BYTES", 0)
    path, threads = edited(party_journal, tmp_path, 40, '{"game": 1, oops'), set(threading.enumerate())
    assert "is damaged: seq 40: its body is not JSON" in said(["run", "--mqtt-port", "0", "--journal"], path)
    assert len(forks) == 2 and children_left() == [] and set(threading.enumerate()) <= threads
