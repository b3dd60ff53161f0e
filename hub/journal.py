"""The append-only journal: one SQLite file per party (see docs/journal.md)."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import orjson

from . import checkpoints, child, seal
from .event import Event

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq    INTEGER PRIMARY KEY,
    id     TEXT NOT NULL UNIQUE,
    at     REAL NOT NULL,
    source TEXT NOT NULL,
    kind   TEXT NOT NULL,
    body   TEXT NOT NULL,
    digest TEXT NOT NULL,
    seal   TEXT            -- hub/seal.py: the chain's link; NULL in rows written before it
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
-- The first seq written with a seal (hub/seal.py): 1, or where a journal written before
-- the seal was first opened by a writer that seals. Every row from it on carries one.
CREATE TABLE IF NOT EXISTS sealed (since INTEGER NOT NULL);
-- The hub's start-up audits that passed (hub/startup.py): the last row audited, its seal,
-- and which code of the hub audited it. Not events of the party, so not in the fold.
CREATE TABLE IF NOT EXISTS audited (
    seq  INTEGER NOT NULL,
    seal TEXT NOT NULL,
    code TEXT NOT NULL,
    at   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS refused (
    id     TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    why    TEXT NOT NULL,
    at     REAL NOT NULL
);
"""


_VERDICTS = "SELECT id, seq, digest FROM journal WHERE id IN (SELECT value FROM json_each(?))"


class Journal:
    """The hub's single writer's handle, used from one thread at a time (readers, the web app and
    `party replay`, use `open_reader` and `read_events`)."""

    def __init__(self, path: str | Path, checker: child.Child | None = None):
        """`checker`: the chain checked by this child (`seal.checker`, made before the journal was opened),
        started by `chain_told_by`; `chain` waits for it, and sets `head` (the start-up asks before it serves)."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            check_file(self.path)   # a cut file: said before SQLite reads on into it
        # isolation_level=None: BEGIN/COMMIT are ours, a batch of events one durable transaction.
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
        self._seal_from_here()
        # The chain checked once at open (the hub serves it only unbroken); its head is where
        # the next row's seal starts. The record is read before the rows: see seal.check.
        self._checking = seal.Checking(self._db, self.path, seal.read_head(self.path), checker)
        if checker is None:
            _ = self.chain
        self.batch_seals: dict[int, str] = {}   # seq -> seal of the last batch's rows (its acks')
        self._head_record = seal.HeadRecord(self.path)
        self.checkpoints = checkpoints.Checkpoints(self.path, self._db, self)   # not in this connection's commits

    def _seal_from_here(self) -> None:
        """A journal written before the seal is sealed from its next row on (its rows stay as
        they were written; the first seal covers them all: hub/seal.py)."""
        if self._db.execute("SELECT 1 FROM sealed").fetchone():
            return
        self._db.execute("BEGIN IMMEDIATE")
        if not any(col[1] == "seal" for col in self._db.execute("PRAGMA table_info(journal)")):
            self._db.execute("ALTER TABLE journal ADD COLUMN seal TEXT")
        self._db.execute("INSERT INTO sealed (since) VALUES (?)", (self.last_seq() + 1,))
        self._db.execute("COMMIT")

    @property
    def chain(self) -> seal.Chain:
        if self._checking is not None:
            self._chain, self._checking = self._checking.result(), None
            self.head = (self._chain.seq, self._chain.head)
        return self._chain

    @chain.setter
    def chain(self, chain: seal.Chain) -> None:
        if self._checking is not None:
            self._checking.stop()
            self._checking = None
        self._chain = chain

    def chain_told_by(self, told: Callable[[], seal.Chain | None] | None) -> None:
        """The chain as another's read of the rows checks it (hub/audit_apart.py); None: the checker's."""
        self._checking.told_by(told)

    def close(self) -> None:
        if self._checking is not None:
            self._checking.stop()
        self.checkpoints.stop()
        self._db.close()
        self._head_record.close()

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
        writer asks for every batch), the ids handed over as one JSON array: one statement,
        compiled once. A list of `?`s was a statement of its own for every batch size,
        compiled again where SQLite's cache no longer held it (a rush's batches: 0.6 M
        instructions of its 200 results, docs/performance.md section 3, "Session 14")."""
        ids = list(dict.fromkeys(event_ids))
        journaled = {id_: (seq, dig) for id_, seq, dig in self._db.execute(_VERDICTS, (orjson.dumps(ids).decode(),))}
        return journaled, {id_: self._refused[id_] for id_ in ids if id_ in self._refused}

    def append(self, events: Sequence[Event], refused: Sequence[tuple[str, str, str, float]] = ()) -> None:
        """Append events, numbered by the caller, in one durable transaction, with the
        batch's final refusals (id, digest, why, at).

        The single writer numbers events itself (it folds them before they are
        committed) and commits a whole batch of inputs at once: one fsync per
        batch is what lets the hub keep up with a room entering after the bell.
        A failure appends nothing.
        """
        seq, head = self.head
        rows, seals, sha256, dumps = [], {}, hashlib.sha256, orjson.dumps
        for e in events:   # each row sealed on the one before it (hub/seal.py)
            seq, id_, at, source, kind, body, digest = e.seq, e.id, e.at, e.source, e.kind, e.body_json, e.digest
            # `seal.link` spelled out, as `seal.check` spells it (the same bytes: every test
            # of the chain writes here and checks there): a call of eight arguments less a row
            head = seals[seq] = sha256(dumps((head, seq, id_, float(at), source, kind, digest, body))).hexdigest()
            rows.append((seq, id_, at, source, kind, body, digest, head))
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany("INSERT INTO journal (seq, id, at, source, kind, body, digest, seal) "
                                 "VALUES (?,?,?,?,?,?,?,?)", rows)
            self._db.executemany("INSERT INTO refused (id, digest, why, at) VALUES (?,?,?,?)", refused)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self.checkpoints.committed()
        known = self._refused
        for id_, digest, why, _ in refused:   # a loop, not a generator: a resume less a refusal
            known[id_] = (digest, why)
        if rows:
            self.head = (seq, head)
            self._head_record.write(seq, head)
            self.batch_seals = seals

    def seal_of(self, seq: int) -> str | None:
        """The seal of the row at `seq` (what its ack carries): the last batch's from memory,
        an older row's (a resend's) from the file; None for a row written before the seal."""
        known = self.batch_seals.get(seq)
        if known is None:
            row = self._db.execute("SELECT seal FROM journal WHERE seq = ?", (seq,)).fetchone()
            known = row[0] if row else None
        return known

    def audited_to(self, code: str) -> int:
        """The last seq an audit by the hub's `code` passed whose row still carries the seal it
        had then (0: none). Only the chain, found unbroken, says the rows up to it are the rows
        audited (docs/journal.md, "An audit done once"): the hub's start-up asks while the chain
        is still being checked apart, and serves nothing unless it is found unbroken."""
        for seq, sealed in self._db.execute("SELECT seq, seal FROM audited WHERE code = ? ORDER BY seq DESC",
                                            (code,)):
            if self.seal_of(seq) == sealed:
                return seq
        return 0

    def first_input_after(self, seq: int) -> int | None:
        """The seq of the first input (a row not the hub's own) after `seq`, if any."""
        return self._db.execute("SELECT MIN(seq) FROM journal WHERE seq > ? AND source != 'hub'", (seq,)).fetchone()[0]

    def mark_audited(self, seq: int, code: str, at: float, synced: bool = True) -> None:
        """An audit by the hub's `code` passed every row up to `seq` (a sealed row), or that
        code's judge admitted them as they were journaled (hub/startup.py, `OwnRows`).
        `synced=False`: committed without waiting for the disk (a mark a power cut loses costs
        the next start-up an audit of the rows it covered, nothing else), so that an entry
        arriving meanwhile does not wait for an fsync behind it."""
        sealed = self.seal_of(seq)
        if sealed is None:
            return
        if not synced:
            self._db.execute("PRAGMA synchronous=NORMAL")   # WAL: the commit is not synced
        try:
            self._db.execute("INSERT INTO audited (seq, seal, code, at) VALUES (?, ?, ?, ?)",
                             (seq, sealed, code, at))
        finally:
            if not synced:
                self._db.execute("PRAGMA synchronous=FULL")   # the batches' commits: as always

    def events(self, after: int = 0) -> Iterator[Event]:
        return read_events(self._db, after)

    def restored(self) -> tuple[int, float] | None:
        """(seq, time) of this journal's last restore from a replica; None if never."""
        row = self._db.execute("SELECT seq, at FROM restored ORDER BY rowid DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else None

    def mark_restored(self, at: float) -> int:
        """A takeover: this journal was just restored from a replica, up to its last seq; a
        head record left beside it by a lost hub is of rows the replica may lack, and goes."""
        seq = self.last_seq()
        self._db.execute("INSERT INTO restored (seq, at) VALUES (?, ?)", (seq, at))
        self._head_record.write(*self.head)
        self.chain = seal.check(self._db, self.head)
        return seq


def open_reader(path: str | Path) -> sqlite3.Connection:
    """A read-only connection, safe beside a running hub."""
    return sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True, check_same_thread=False)


# ----- reads beside a running hub (the web, the replica, the tools): each its own read-only connection

def _read_one(path: str | Path, sql: str, args: tuple = ()) -> tuple | None:
    db = open_reader(path)
    try:
        return db.execute(sql, args).fetchone()
    finally:
        db.close()


def journaled_at(path: str | Path, seq: int) -> float | None:
    """When the event at `seq` was journaled (None if there is none)."""
    row = _read_one(path, "SELECT at FROM journal WHERE seq = ?", (seq,))
    return row[0] if row else None


def last_seq_of(path: str | Path) -> int:
    """The journal's last seq (0 if empty): a replica's restored copy, say."""
    return _read_one(path, "SELECT COALESCE(MAX(seq), 0) FROM journal")[0]


def appended_after(path: str | Path, seq: int) -> tuple[int, int]:
    """(events, distinct ids) journaled after `seq`: a check that each was recorded once."""
    return _read_one(path, "SELECT COUNT(*), COUNT(DISTINCT id) FROM journal WHERE seq > ?", (seq,))


def stored_rows(path: str | Path) -> dict[str, list[tuple]]:
    """Every row of the journal's tables as stored, every column, in a fixed order: for
    comparing two journals byte for byte (bench/same_bytes.py)."""
    db = open_reader(path)
    try:
        return {"journal": db.execute("SELECT * FROM journal ORDER BY seq").fetchall(),
                "refused": db.execute("SELECT * FROM refused ORDER BY id").fetchall()}
    finally:
        db.close()


def recorded(path: str | Path, event_id: str) -> tuple[float, str] | None:
    """(time, source) of the journaled event with this id; None if it is not in the journal."""
    row = _read_one(path, "SELECT at, source FROM journal WHERE id = ?", (event_id,))
    return (row[0], row[1]) if row else None


def sealed_row(journal: str | Path, event_id: str) -> tuple[int, str | None] | None:
    """(seq, seal) of the journaled event with this id, read as the journal's readers do
    (read-only, beside the writer): a receipt for the console and the phone keypad."""
    db = open_reader(journal)
    try:
        return db.execute("SELECT seq, seal FROM journal WHERE id = ?", (event_id,)).fetchone()
    finally:
        db.close()


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


class JournalDamaged(Exception):
    """A journal file that cannot be read as the hub wrote it: what is wrong and where (the
    row's seq, a byte offset), said in words for the host; never served, never guessed at."""

    def __init__(self, what: str, seq: int | None = None):
        self.seq = seq
        super().__init__(what)


def check_file(path: str | Path) -> None:
    """A file shorter than its own header says (SQLite's page size times its page count) was
    cut: its last rows are gone or half there. Said at once, in bytes, before any row is read
    (SQLite would read the missing pages as zeros, or call the image malformed further on)."""
    with open(path, "rb") as f:
        header = f.read(100)
        size = f.seek(0, 2)
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        return   # not SQLite at all: sqlite3 says so in its words
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(header[28:32], "big")
    # the count is kept only where these two agree (SQLite's file format, section 1.3.9)
    if pages and header[24:28] == header[92:96] and size < page * pages:
        raise JournalDamaged(f"the file is cut short: {size:,} bytes where its header says {pages} pages of "
                             f"{page:,} ({page * pages:,} bytes); the last {page * pages - size:,} bytes, "
                             f"from byte offset {size:,}, are missing")


def read_events(db: sqlite3.Connection, after: int = 0, links: seal.Links | None = None) -> Iterator[Event]:
    """The journal's rows from seq `after` on, in order, each read as an Event; a row that
    cannot be read (the file damaged, a body that is not JSON) raises JournalDamaged naming
    its seq, or the last seq read whole. `links`: the rows as the chain checks them, all (no `after`)."""
    last, loads, journaled = after, orjson.loads, Event.journaled   # last: the last seq read whole
    try:
        rows = links.rows() if links is not None else db.execute(
            "SELECT seq, id, at, source, kind, body FROM journal WHERE seq > ? ORDER BY seq", (after,))
        for row in rows:
            seq, id_, at, source, kind, body = row
            if not (type(seq) is int and seq > last and type(id_) is str and type(at) in (float, int)
                    and type(source) is str and type(kind) is str and type(body) is str):
                raise JournalDamaged(f"the row after seq {last} is damaged: {_damage(row, last)}", last + 1)
            try:   # _body's common case without its call: once per row
                what = loads(body)
            except orjson.JSONDecodeError:
                what = None
            yield journaled(seq, id_, at, source, kind,
                                  what if type(what) is dict else _body(seq, body))
            last = seq
    except sqlite3.DatabaseError as e:
        if e.sqlite_errorcode == sqlite3.SQLITE_NOTADB:
            raise   # not a journal at all (another file named): not a damaged one
        raise JournalDamaged(f"the file is damaged after seq {last}: {e}", last + 1) from None


def _damage(row: tuple, last: int) -> str:
    """What is wrong with a row read back: its fields missing or of another type."""
    wrong = [f"{name} {'missing' if value is None else 'of type ' + type(value).__name__}"
             for name, value, want in zip(("seq", "id", "at", "source", "kind", "body"), row,
                                          (int, str, (int, float), str, str, str))
             if value is None or not isinstance(value, want)]
    if not wrong:   # each field of its type: the seq is out of order
        wrong = [f"seq {row[0]} out of order"]
    return ", ".join(wrong)


def _body(seq: int, text: str) -> dict:
    """A row's body as written. orjson reads it in a third of `json`'s time (a replay and the
    start-up's audit read every row); `json` what orjson refuses: an int past 64 bits, which a
    staff action's body may hold. The digest is of the text, not of this reading."""
    try:
        body = orjson.loads(text)
    except orjson.JSONDecodeError:
        try:
            body = json.loads(text)
        except json.JSONDecodeError as e:
            raise JournalDamaged(f"seq {seq}: its body is not JSON ({e.msg}, at byte offset "
                                 f"{len(text[:e.pos].encode())} of the body)", seq) from None
        except RecursionError:
            raise JournalDamaged(f"seq {seq}: its body is nested too deep to read "
                                 f"({len(text.encode()):,} bytes)", seq) from None
    if type(body) is not dict:
        raise JournalDamaged(f"seq {seq}: its body is JSON but not an object ({type(body).__name__})", seq)
    return body
