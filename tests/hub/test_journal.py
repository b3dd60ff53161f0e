"""The journal (docs/journal.md): append-only, durable, replayable."""
import sqlite3

import pytest

from hub.event import Event
from hub.journal import Journal, open_reader, read_events


def ev(seq, id_, kind="table.result", body=None):
    return Event(seq, id_, 1000.0 + seq, "table:3", kind, body or {"game": seq})


def test_events_come_back_in_order_with_their_bodies(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    j.append([ev(1, "a.1.1"), ev(2, "a.1.2", body={"values": {"A": 5}, "é": "ü"})])
    j.append([ev(3, "a.1.3")])
    assert [e.id for e in j.events()] == ["a.1.1", "a.1.2", "a.1.3"]
    assert list(j.events(after=1))[0].body == {"values": {"A": 5}, "é": "ü"}
    assert j.last_seq() == 3
    assert j.find("a.1.2") == (2, ev(2, "a.1.2", body={"values": {"A": 5}, "é": "ü"}).digest)


def test_a_body_comes_back_as_written_even_past_orjsons_range(tmp_path):
    """Rows are read with orjson, which refuses an int past 64 bits; a staff action's
    seed may be one, and the row must still replay with the value written."""
    j = Journal(tmp_path / "j.sqlite3")
    big = {"seed": 2**70, "why": "a lot's seed", "x": [1.5, -3, None, True]}
    j.append([ev(1, "s.1", kind="conductor.reseat", body=big), ev(2, "a.1.2")])
    assert [e.body for e in j.events()] == [big, {"game": 2}]


def test_an_id_is_journaled_once_and_a_failed_batch_appends_nothing(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    j.append([ev(1, "a.1.1")])
    with pytest.raises(sqlite3.IntegrityError):
        j.append([ev(2, "a.1.2"), ev(3, "a.1.1")])
    assert [e.seq for e in j.events()] == [1]


def test_a_batchs_ids_are_told_their_verdicts_at_once_however_many(tmp_path):
    """The writer asks, for every batch, which of its ids were journaled or refused for
    good (docs/protocol.md, "One id, one verdict"): a resend in a rush's batch of hundreds
    must be found, said once where it came twice, and an id never seen said nothing of."""
    j = Journal(tmp_path / "j.sqlite3")
    journaled = [ev(n, f"a.1.{n}") for n in range(1, 1201)]
    j.append(journaled, [("b.1.7", "d7", "NO SUCH GAME", 1.0), ("b.1.8", "d8", "BAD MESSAGE", 1.0)])
    asked = ["a.1.1200", "x.1.1", "b.1.7", "a.1.3"] + [f"a.1.{n}" for n in range(1, 1201)] + ["b.1.7", "b.1.9"]
    found, refused = j.verdicts(iter(asked))
    assert found == {e.id: (e.seq, e.digest) for e in journaled}
    assert refused == {"b.1.7": ("d7", "NO SUCH GAME")}
    assert j.find_many(["a.1.2", "a.1.2", "nobody.1.1"]) == {"a.1.2": (2, journaled[1].digest)}


def test_the_journal_refuses_edits_in_place(tmp_path):
    path = tmp_path / "j.sqlite3"
    Journal(path).append([ev(1, "a.1.1")])
    db = sqlite3.connect(path)
    for sql in ("UPDATE journal SET body = '{}'", "DELETE FROM journal"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute(sql)


def test_a_reader_beside_the_writer_sees_committed_events(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    j.append([ev(1, "a.1.1")])
    reader = open_reader(path)
    j.append([ev(2, "a.1.2")])
    assert [e.seq for e in read_events(reader)] == [1, 2]
    with pytest.raises(sqlite3.OperationalError):
        reader.execute("INSERT INTO journal VALUES (9,'x',0,'s','k','{}','d')")
