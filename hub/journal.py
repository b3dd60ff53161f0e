"""The append-only journal: one SQLite file per party (see docs/journal.md)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import orjson

from .event import Event

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq    INTEGER PRIMARY KEY,
    id     TEXT NOT NULL UNIQUE,
    at     REAL NOT NULL,
    source TEXT NOT NULL,
    kind   TEXT NOT NULL,
    body   TEXT NOT NULL,
    digest TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS journal_no_update BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_no_delete BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
-- Where this journal was restored from a replica (`party takeover`): not events of
-- the party, so not in the fold; the boards resend what they were told is after it.
CREATE TABLE IF NOT EXISTS restored (
    seq INTEGER NOT NULL,
    at  REAL NOT NULL
);
-- Inputs refused for good (docs/protocol.md, "One id, one verdict"): not events of the
-- party, so not in the fold; a resend of the same id gets the same refusal, after a
-- restart too.
CREATE TABLE IF NOT EXISTS refused (
    id     TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    why    TEXT NOT NULL,
    at     REAL NOT NULL
);
"""


class Journal:
    """The hub's single writer's handle: used from one thread at a time.

    Readers (the web app, `party replay`) use `open_reader` and `read_events`.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves so that a batch
        # of events is one durable transaction.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: a committed event survives a power cut, which is what the ack promises.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        # The inputs refused for good, kept here too (this handle is their only writer): a
        # handful a party, asked after for every input the hub takes, where the refused
        # table's half of `verdicts`' query took two fifths of its time.
        self._refused = {id_: (digest, why) for id_, digest, why in
                         self._db.execute("SELECT id, digest, why FROM refused")}

    def close(self) -> None:
        self._db.close()

    def last_seq(self) -> int:
        return self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()[0]

    def find(self, event_id: str) -> tuple[int, str] | None:
        """(seq, digest) of the journaled event with this id, if any."""
        row = self._db.execute("SELECT seq, digest FROM journal WHERE id = ?", (event_id,)).fetchone()
        return (row[0], row[1]) if row else None

    def find_many(self, event_ids: Iterable[str]) -> dict[str, tuple[int, str]]:
        """`find` for many ids at once: {id: (seq, digest)} of those journaled."""
        return self.verdicts(event_ids)[0]

    def verdicts(self, event_ids: Iterable[str]) -> tuple[dict[str, tuple[int, str]], dict[str, tuple[str, str]]]:
        """The verdicts these ids were given: {id: (seq, digest)} of those journaled and
        {id: (digest, why)} of those refused for good. One query for the journaled (the
        writer asks for every batch)."""
        ids, journaled = list(dict.fromkeys(event_ids)), {}
        for i in range(0, len(ids), 250):  # SQLite's limit on bound parameters is 999 in old builds
            chunk = ids[i:i + 250]
            marks = ",".join("?" * len(chunk))
            for id_, seq, dig in self._db.execute(f"SELECT id, seq, digest FROM journal WHERE id IN ({marks})",
                                                  chunk):
                journaled[id_] = (seq, dig)
        return journaled, {id_: self._refused[id_] for id_ in ids if id_ in self._refused}

    def append(self, events: Sequence[Event], refused: Sequence[tuple[str, str, str, float]] = ()) -> None:
        """Append events, numbered by the caller, in one durable transaction, with the
        batch's final refusals (id, digest, why, at).

        The single writer numbers events itself (it folds them before they are
        committed) and commits a whole batch of inputs at once: one fsync per
        batch is what lets the hub keep up with a room entering after the bell.
        A failure appends nothing.
        """
        rows = [(e.seq, e.id, e.at, e.source, e.kind, e.body_json, e.digest)
                for e in events]
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany(
                "INSERT INTO journal (seq, id, at, source, kind, body, digest) VALUES (?,?,?,?,?,?,?)", rows)
            self._db.executemany("INSERT INTO refused (id, digest, why, at) VALUES (?,?,?,?)", refused)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._refused.update((id_, (digest, why)) for id_, digest, why, _ in refused)

    def events(self, after: int = 0) -> Iterator[Event]:
        return read_events(self._db, after)

    def restored(self) -> tuple[int, float] | None:
        """(seq, time) of this journal's last restore from a replica; None if never."""
        row = self._db.execute("SELECT seq, at FROM restored ORDER BY rowid DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else None

    def mark_restored(self, at: float) -> int:
        """A takeover: this journal was just restored from a replica, up to its last seq."""
        seq = self.last_seq()
        self._db.execute("INSERT INTO restored (seq, at) VALUES (?, ?)", (seq, at))
        return seq


def open_reader(path: str | Path) -> sqlite3.Connection:
    """A read-only connection, safe beside a running hub."""
    return sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True, check_same_thread=False)


def backup(path: str | Path) -> bytes:
    """A consistent copy of the journal as a SQLite file's bytes, taken beside a running hub:
    SQLite's online backup reads one snapshot, whatever the writer commits meanwhile."""
    src, copy = open_reader(path), sqlite3.connect(":memory:")
    try:
        src.backup(copy)
        return copy.serialize()
    finally:
        src.close()
        copy.close()


def read_events(db: sqlite3.Connection, after: int = 0) -> Iterator[Event]:
    rows = db.execute(
        "SELECT seq, id, at, source, kind, body FROM journal WHERE seq > ? ORDER BY seq", (after,)
    )
    for seq, id_, at, source, kind, body in rows:
        yield Event.journaled(seq, id_, at, source, kind, _body(body))


def _body(text: str) -> dict:
    """A row's body as written. orjson reads it in a third of `json`'s time (a replay and the
    start-up's audit read every row); `json` what orjson refuses: an int past 64 bits, which a
    staff action's body may hold. The digest is of the text, not of this reading."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
