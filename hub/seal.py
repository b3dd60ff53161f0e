"""The journal's seal: a hash chain over its rows (docs/journal.md, "The seal").

Each row's seal is the SHA-256 of the seal before it and the row's whole content (seq, id,
at, source, kind, digest, body), so a row edited, removed or put out of order breaks the
link after it. The last link, the head, is written after each commit to a small record
beside the journal (`JOURNAL-head`), and travels with each ack: a row removed from the end
leaves a head that the journal no longer holds. Nobody who can rewrite the whole file is
stopped by the file alone (SHA-256 has no key: the chain can be made again); a board's
receipt, the replica or the head record, kept elsewhere, are what show such a rewrite.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
from collections import deque
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterator

import orjson

from . import child

START = "0" * 64    # the link before the first row
_RECORD = 12 + 1 + 64 + 1   # "000000000123 <head>\n": one size, written in place


def link(prev: str, seq: int, id_: str, at: float, source: str, kind: str, digest: str, body: str) -> str:
    """The seal of a row whose previous row's seal is `prev`. The fields spelled as one JSON
    array (orjson, in C): no field can run into the next whatever it holds."""
    return hashlib.sha256(orjson.dumps((prev, seq, id_, float(at), source, kind, digest, body))).hexdigest()


def receipt(seal: str) -> str:
    """What a board and the console show of a seal: its last six characters."""
    return seal[-6:]


@dataclass(frozen=True)
class Chain:
    """A journal's chain as checked: its head (the last row's link), how much of it is sealed,
    and the first broken link in words (None: unbroken)."""
    head: str
    seq: int               # the last row's seq
    since: int | None      # rows from this seq on must carry a seal (None: written before the seal)
    broken: str | None = None
    record: tuple[int, str] | None = None   # the head record read beside the journal, if any

    @property
    def sealed(self) -> bool:
        return self.since is not None and self.seq >= self.since


def head_path(journal: str | Path) -> Path:
    return Path(f"{journal}-head")


def read_head(journal: str | Path) -> tuple[int, str] | None:
    """(seq, seal) the writer last recorded beside the journal; None where there is none
    (a journal copied alone, or written before the seal) or it cannot be read."""
    try:
        text = head_path(journal).read_bytes()[:_RECORD].decode("ascii")
        seq, seal = text.split()
        return int(seq), seal
    except (OSError, ValueError, UnicodeDecodeError):
        return None


class HeadRecord:
    """The writer's record of the head, overwritten in place after each commit. Not synced
    on its own: after a power cut it may be behind the journal (which is synced first), never
    ahead of it."""

    def __init__(self, journal: str | Path):
        self._fd = os.open(head_path(journal), os.O_RDWR | os.O_CREAT, 0o644)

    def write(self, seq: int, seal: str) -> None:
        os.pwrite(self._fd, f"{seq:012d} {seal}\n".encode(), 0)

    def close(self) -> None:   # as sqlite3's close, a second call does nothing
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def check(db: sqlite3.Connection, record: tuple[int, str] | None = None) -> Chain:
    """Check the chain of a journal (a reader or the writer's connection) from its first row,
    and the head `record` (read before the rows, so a running writer can only be ahead of
    it): the first broken link, if any, said with its seq."""
    return Links(db).chain(record)


class Links:
    """A journal's chain checked row by row as its rows are read (`rows`): by `check`, or on a
    read made anyway, the start-up audit's child's (hub/audit_apart.py), so that no process
    reads every row again for it. The rows are read from the first as this is made (the head
    record, read before it, can only be behind them)."""

    def __init__(self, db: sqlite3.Connection):
        self._db, self._since, self._end = db, _since(db), None
        sealed = self._since is not None and _has_seal_column(db)
        self._rows = self._checked(db.execute(f"SELECT seq, id, at, source, kind, body, digest, "
                                              f"{'seal' if sealed else 'NULL'} FROM journal ORDER BY seq"))

    def rows(self) -> Iterator[tuple]:
        """The rows (seq, id, at, source, kind, body) in order, each once its link is checked."""
        return self._rows

    def chain(self, record: tuple[int, str] | None) -> Chain:
        """The chain as checked, and the head `record`: the rows not read yet, read for it."""
        if self._end is None:
            deque(self._rows, 0)
        prev, last, broken = self._end
        if broken is None and record is not None:
            broken = _against_record(self._db, record, last, prev)
        return Chain(head=prev, seq=last, since=self._since, broken=broken, record=record)

    def _checked(self, rows: Iterator[tuple]) -> Iterator[tuple]:
        prev, last, broken, since = START, 0, None, self._since
        sha256, dumps = hashlib.sha256, orjson.dumps
        for row in rows:
            seq, id_, at, source, kind, body, digest, seal = row
            # `link` spelled out (the same bytes: every test of the chain writes with `link` and
            # checks here): a call less per row
            made = sha256(dumps((prev, seq, id_, float(at), source, kind, digest, body))).hexdigest()
            if made == seal and seq == last + 1:   # a sealed row as written: asked first
                prev, last = seal, seq
                yield row[:6]
                continue
            if seq != last + 1:
                broken = (f"seq {last + 1} is missing: the row after seq {last} is seq {seq}"
                          if seq > last + 1 else f"seq {seq} is out of order after seq {last}")
            elif seal is None and since is not None and seq >= since:
                broken = f"seq {seq} has no seal, though every row from seq {since} was sealed"
            elif seal is not None and seal != made:
                broken = (f"seq {seq} does not match its seal: {_which(self._db, seq, made, seal)}"
                          if seq != since else
                          f"seq {seq}, the first row sealed, does not match its seal: it, its seal or a row "
                          f"before it (written before the seal) was changed")
            if broken:
                self._end = (prev, last, broken)
                yield row[:6]
                break
            prev, last = seal or made, seq
            yield row[:6]
        else:
            self._end = (prev, last, None)
        for row in rows:   # after a broken link: read on, unchecked
            yield row[:6]


# A journal smaller than this is checked in the start-up's own process: a child's start
# (about 40 ms) would cost more than it takes off (a 100,000-row journal is about 30 MB).
APART_BYTES = 4 << 20


def checker(path: str | Path) -> child.Child | None:
    """The child that will check the chain of the journal at `path` (`Checking`), where it is
    big enough: made before the hub's process opens the journal, so that a forked child carries
    none of its SQLite connections' state (hub/child.py)."""
    try:
        big = Path(path).stat().st_size >= APART_BYTES
    except OSError:   # a new journal
        return None
    return child.Child(__name__) if big else None


class Checking:
    """A journal's chain being checked (`check`) in a process of its own, `checker`, beside the
    hub's start-up audit, on the machine's other core: both read every row, and in one process
    the check waited for the audit (SQLite and hashlib let go of the interpreter only for their
    own calls, a few microseconds a row). The child reads the rows committed before it was
    given the journal, as `check` on the writer's connection would; where it cannot say (it did
    not start, or stopped without a chain), the check is made here, so a damaged journal is told
    in the same words either way. No `checker`: checked here. The checker is given the journal
    at `told_by`, or where the chain is asked first; or stopped, where another process's read of
    the rows checks it (hub/audit_apart.py)."""

    def __init__(self, db: sqlite3.Connection, path: str | Path, record: tuple[int, str] | None,
                 checker: child.Child | None = None):
        self._db, self._record, self._child, self._told = db, record, checker, None
        self._args = (str(path), json.dumps(record))

    def told_by(self, told: Callable[[], Chain | None] | None) -> None:
        """The chain `told()` (None: it cannot say) on another process's read of the rows, the
        checker stopped before it reads a row; `told` None: the checker's, started now."""
        if told is None:
            if self._child is not None:
                self._child.given(*self._args)
            return
        self.stop()
        self._told = told

    def result(self) -> Chain:
        running, self._child = self._child, None
        told, self._told = self._told, None
        if running is not None:   # given now where `told_by` did not start it
            out = running.given(*self._args).answer()
            chain = heard(json.loads(out)) if out is not None else None
        else:
            chain = told() if told is not None else None
        return chain if chain is not None else check(self._db, self._record)

    def stop(self) -> None:
        """Not waited for (the start-up failed before it needed the chain)."""
        running, self._child = self._child, None
        if running is not None:
            running.stop()


def heard(fields: dict) -> Chain:
    """A chain a child said as JSON (`asdict`), read back."""
    return Chain(**fields | {"record": record_heard(fields["record"])})


def record_heard(fields: list | None) -> tuple[int, str] | None:
    """A head record as JSON gave it back (a list, or None)."""
    return tuple(fields) if fields else None


def _which(db: sqlite3.Connection, seq: int, made: str, seal: str) -> str:
    """Which of a row and its seal was changed, told by the next row's link (which covers the
    row's seal): if the next row follows from the seal, the row was changed; if from the link
    the row makes, its seal was."""
    after = db.execute("SELECT seq, id, at, source, kind, digest, body, seal FROM journal WHERE seq = ?",
                       (seq + 1,)).fetchone()
    if after is None or after[7] is None:
        return "the row or its seal was changed (the last row: which of them, the file cannot tell)"
    if link(seal, *after[:7]) == after[7]:
        return "the row was changed after it was sealed (its seal and the next row's agree)"
    if link(made, *after[:7]) == after[7]:
        return "its seal was changed (the row as it stands is the one the next row's seal covers)"
    return "the row and its seal were both changed"


def _against_record(db: sqlite3.Connection, record: tuple[int, str], last: int, head: str) -> str | None:
    seq, seal = record
    if seq > last:
        return (f"the journal ends at seq {last}, but the writer recorded seq {seq} (receipt {receipt(seal)}) "
                f"as committed: the rows after seq {last} were removed, or this is an older copy")
    row = db.execute("SELECT seal FROM journal WHERE seq = ?", (seq,)).fetchone() if seq != last else (head,)
    if row is None or row[0] != seal:
        return (f"seq {seq} is not the row the writer recorded (receipt {receipt(seal)}): the journal "
                f"was written again from there, or replaced")
    return None


def _since(db: sqlite3.Connection) -> int | None:
    try:
        row = db.execute("SELECT MIN(since) FROM sealed").fetchone()
    except sqlite3.OperationalError:   # a journal written before the seal, not opened by a writer since
        return None
    return row[0]


def _has_seal_column(db: sqlite3.Connection) -> bool:
    return any(col[1] == "seal" for col in db.execute("PRAGMA table_info(journal)"))


def answer(path: str, record: str) -> bytes:
    """A `Checking` child's answer: the chain of the journal at `path`, the head record
    `record` (JSON), as JSON."""
    db = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True)
    return json.dumps(asdict(check(db, record_heard(json.loads(record))))).encode()


if __name__ == "__main__":   # a `Checking` child not forked: python -m hub.seal JOURNAL RECORD-AS-JSON
    sys.stdout.buffer.write(answer(*sys.argv[1:3]))
