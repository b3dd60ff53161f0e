"""The journal's checkpoints, off the writer's path (docs/journal.md, "Checkpoints").

In WAL mode a commit appends its pages to the `-wal` file and syncs that; a checkpoint
copies them into the database file and syncs it. SQLite's default runs one inside the
commit that takes the WAL past 1,000 pages, on the committing connection: the hub's
writer, whose acks and screens wait for that commit (one of 203 ms in session 14's quiet
window, docs/performance.md section 3). The writer's connection has it off
(`wal_autocheckpoint=0`, hub/journal.py); this thread, on a connection of its own,
checkpoints instead, PASSIVE (it never waits for the writer or a reader, and takes no lock
the writer needs), at a quiet moment after the journal moved: no commit for `quiet` s, or
`every` s after the first commit not yet checkpointed, whichever is first.

The WAL starts again from its beginning (it stops growing) only at a commit after a
checkpoint that copied every frame: one with a commit landing in the middle does not.
Where the WAL has passed `limit` frames, every checkpoint of this thread with a commit in
its middle (a writer with never a quiet moment), the writer runs one itself, between
two commits (`committed`): most frames are copied already, so it is short, and it is the
only checkpoint ever on the writer's path. A commit is as durable as before (its WAL
synced, synchronous=FULL); a checkpoint only moves what is durable already, and one cut
short by a kill is done again by the next connection.

Litestream (hub/replica.py) holds a read of the WAL until it has shipped it, and
checkpoints too: a PASSIVE checkpoint copies only the frames below every reader's mark and
the WAL starts again only when no reader needs it, so Litestream's copy is never taken
from under it (as with SQLite's own automatic checkpoints, which are PASSIVE too).
"""
from __future__ import annotations

import logging
import sqlite3
import threading
import time
import weakref
from pathlib import Path
from typing import Callable, NamedTuple

log = logging.getLogger("hub.checkpoints")

# A checkpoint beside a commit shares the disk with its sync: a few, not one at every pause
# (at 0.05 s and 1 s, 21-28 in a 200-table steady phase, and slow commits beside them more
# often than their time would say; SQLite's own ran 5).
QUIET_S = 0.25   # no commit this long: a checkpoint now is likely to copy every frame
EVERY_S = 3.0    # a checkpoint at the latest this long after the first commit not checkpointed
LIMIT = 10_000   # WAL frames (40 MB of 4 KB pages) past which the writer checkpoints itself


class Checkpoint(NamedTuple):
    """One PASSIVE checkpoint: when it began (`time.monotonic()`), how long it took, the WAL's
    frames then and how many of them are in the database file after it (all, unless a
    commit or a reader held some back); `busy`: another checkpoint (Litestream's) was
    running; `writer`: run by the writer itself (`committed`)."""
    at: float
    seconds: float
    frames: int
    moved: int
    busy: bool
    writer: bool


class Checkpoints:
    """A thread checkpointing the journal at `path` after the writer's commits (`committed`),
    and once more at `stop`; the writer's connection `writer` runs none of its own in its
    commits. `owner` (the Journal): once it is gone without a `stop` (a tool or a test that
    never closed it), the thread ends too and lets its connection go. `noted`: called with
    each Checkpoint (hub/tail.py)."""

    def __init__(self, path: str | Path, writer: sqlite3.Connection, owner: object,
                 noted: Callable[[Checkpoint], None] | None = None):
        writer.execute("PRAGMA wal_autocheckpoint=0")
        self.quiet, self.every, self.limit, self.noted = QUIET_S, EVERY_S, LIMIT, noted
        self._writer = writer
        self.overdue = False   # the WAL past `limit` and never copied whole: the writer's turn
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._moved, self._stopping = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-checkpoints", daemon=True)
        self._thread.start()
        weakref.finalize(owner, self._let_go)

    def _let_go(self) -> None:
        self._stopping.set()
        self._moved.set()

    def committed(self) -> None:
        """The writer's call after each commit: a flag set for this thread, and only where the
        WAL passed `limit` frames without starting again (a commit in the middle of each of
        this thread's checkpoints), a checkpoint of its own between two commits: the next
        commit starts the WAL again."""
        self._moved.set()
        if self.overdue:
            self.checkpoint(self._writer)

    def checkpoint(self, db: sqlite3.Connection | None = None) -> Checkpoint:
        """A PASSIVE checkpoint now, on this thread's connection (or the writer's, `db`)."""
        at = time.monotonic()
        busy, frames, moved = (db or self._db).execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0]
        done = Checkpoint(at, time.monotonic() - at, max(frames, 0), max(moved, 0), bool(busy), db is not None)
        # every frame copied, yet the WAL long: it did not start again, a commit in this
        # checkpoint's middle each time (a reader holding frames back: a moved < frames,
        # which the writer's checkpoint would not help)
        self.overdue = db is None and not busy and done.moved == done.frames > self.limit
        if self.noted is not None:
            self.noted(done)
        return done

    def stop(self) -> Checkpoint | None:
        """No more checkpoints in the background; a last one of everything committed (the
        writer has made its last commit), then this connection closed. Once only."""
        if self._stopping.is_set():
            return None
        self._let_go()
        self._thread.join()
        try:
            return self.checkpoint()
        finally:
            self._db.close()

    def _run(self) -> None:
        while True:
            self._moved.wait()
            due = time.monotonic() + self.every
            while True:   # until a quiet moment, or `every` s
                self._moved.clear()
                if self._stopping.wait(max(0.0, min(self.quiet, due - time.monotonic()))):
                    return
                if not self._moved.is_set() or time.monotonic() >= due:
                    break
            self._moved.clear()   # a commit from here on is after this checkpoint's start
            try:
                self.checkpoint()
            except sqlite3.Error:   # the disk, say: said, and tried again after the next commit
                log.exception("checkpointing the journal failed")
