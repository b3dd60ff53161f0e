"""The journal's checkpoints, off the writer's path (docs/journal.md, "Checkpoints").

In WAL mode a commit appends its pages to the `-wal` file and syncs that; a checkpoint
copies them into the database file and syncs it, so that the WAL can start again from its
beginning. SQLite's default runs a checkpoint inside the commit that takes the WAL past
1,000 pages, on the committing connection: the hub's writer, whose acks and screens wait
for that commit (one of 203 ms in session 14's quiet window, docs/performance.md
section 3). The writer's connection has it off (`wal_autocheckpoint=0`, hub/journal.py);
this thread, on a connection of its own, checkpoints instead: PASSIVE, which never waits
for the writer nor for a reader and never makes the writer wait (it takes no lock the
writer needs), a second or so after the journal moved, so the WAL holds about a second's
commits between two of them however long the party. A commit is as durable as before:
the WAL is synced at each (synchronous=FULL); a checkpoint only moves what is durable
already, and one cut short by a kill is done again by the next connection.

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
from pathlib import Path
from typing import Callable, NamedTuple

log = logging.getLogger("hub.checkpoints")

EVERY_S = 1.0   # a checkpoint this long after the journal moved: a second's commits at most in the WAL


class Checkpoint(NamedTuple):
    """One PASSIVE checkpoint: when it began (`time.monotonic()`), how long it took, the WAL's
    frames then and how many of them are in the database file after it (all, unless a
    reader held some back); `busy`: another checkpoint (Litestream's) was running."""
    at: float
    seconds: float
    frames: int
    moved: int
    busy: bool


class Checkpoints:
    """A thread checkpointing the journal at `path` after each `moved` (the writer's call after
    its commit) and once more at `stop`. `noted`: called with each Checkpoint (hub/tail.py)."""

    def __init__(self, path: str | Path, every: float = EVERY_S,
                 noted: Callable[[Checkpoint], None] | None = None):
        self.every, self.noted = every, noted
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._moved, self._stopping = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-checkpoints", daemon=True)
        self._thread.start()

    def moved(self) -> None:
        """The journal just committed (the writer's call: a flag set, nothing more)."""
        self._moved.set()

    def checkpoint(self) -> Checkpoint:
        """A PASSIVE checkpoint now, on this connection."""
        at = time.monotonic()
        busy, frames, moved = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        done = Checkpoint(at, time.monotonic() - at, max(frames, 0), max(moved, 0), bool(busy))
        if self.noted is not None:
            self.noted(done)
        return done

    def stop(self) -> Checkpoint | None:
        """No more checkpoints in the background; a last one of everything committed (the
        writer has made its last commit), then this connection closed. Once only."""
        if self._stopping.is_set():
            return None
        self._stopping.set()
        self._moved.set()
        self._thread.join()
        try:
            return self.checkpoint()
        finally:
            self._db.close()

    def _run(self) -> None:
        while True:
            self._moved.wait()
            # the commits of the next `every` s go into this checkpoint too
            if self._stopping.wait(self.every):
                return
            self._moved.clear()
            try:
                self.checkpoint()
            except sqlite3.Error:   # the disk, say: said, and tried again after the next commit
                log.exception("checkpointing the journal failed")
