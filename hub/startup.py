"""The party a hub starts from: its journal opened and folded — audited first, unless the
host says otherwise, so that no verdict is given from a journal the conductor would not
have written (docs/journal.md)."""
from __future__ import annotations

import hashlib
import logging
import sqlite3
import time
from functools import cache
from itertools import islice
from pathlib import Path

from . import audit_apart, conductor, seal
from .journal import Journal, JournalDamaged

log = logging.getLogger("hub.startup")


def open_party(path: str | Path, audit: bool = True):
    """(the journal, the party folded from it); `JournalFailsAudit` if audited and found
    wanting, `JournalDamaged` (hub/journal.py) if a row cannot be read.

    The rows an earlier start-up's audit passed, or a hub journaled itself (`OwnRows`), by
    this same code, are folded, not admitted again, where the chain checked at open shows them
    unchanged since (docs/journal.md, "An audit done once"): the rows after them are audited."""
    # The children beside the fold and the audit, made before this process opens the journal
    # (hub/child.py): the first rows' audit (hub/audit_apart.py) and the chain's check (hub/seal.py).
    first = audit_apart.FirstRows.ready(path) if audit else None
    checker = seal.checker(path)
    try:
        journal = Journal(path, checker)
        try:
            with conductor.collector_paused():  # reading the journal too, not only the fold
                done = journal.audited_to(code()) if audit else 0
                to = audit_apart.split(done, journal.last_seq(), journal.first_input_after) if first else None
                if to:   # the rows up to `to` audited by the child meanwhile
                    first.audit(path, done, to)
                if checker is not None:   # the chain checked on the child's read, or by the checker's own
                    journal.chain_told_by(first.chain if to else None)
                if audit:
                    state, findings = _audited(journal, to or done)
                    if to and (findings or not first.passed()):
                        state, findings = _audited(journal, done)   # told as a whole audit tells it
                    if journal.chain.broken:   # checked apart as it opened (hub/seal.py); a row it
                        # could not read was said first, by the audit's reading
                        raise JournalDamaged(f"its seal is broken: {journal.chain.broken}; "
                                             f"`party run --no-audit` serves it as it is")
                    if findings:
                        raise JournalFailsAudit(path, findings)
                    if state.seq > done:
                        journal.mark_audited(state.seq, code(), time.time())
                else:
                    state = conductor.replay(journal.events())
                    _ = journal.chain   # served as it is, but sealed on from its head
                # what was replayed stays for the party: frozen before the collector runs again,
                # or its first pass is over all of it where a party was frozen before (a second
                # hub in one process: 0.25 s at load in bench/replay_bench.py's restart)
                conductor.collector_spares_the_party()
        except (JournalFailsAudit, JournalDamaged):   # not served (JournalDamaged: which row, where)
            journal.close()
            raise
    finally:   # where not asked, or the start-up failed: killed
        for made in (first, checker):
            if made is not None:
                made.stop()
    return journal, state


def _audited(journal: Journal, done: int):
    """The audit of the rows after `done`, from the party folded from the rows up to it."""
    events = journal.events()
    passed = conductor.replay(islice(events, done)) if done else None
    return conductor.audit(events, passed)


# While the hub runs, its rows are marked at most this often, in a second the writer had
# nothing to do: a restart after a kill audits at most about this long of the party again.
MARK_EVERY_S = 60.0


class OwnRows:
    """The rows a hub journals itself, marked audited by its code (docs/journal.md, "An audit
    done once"). A hub whose start-up audited the party (or that starts the journal) holds
    the party its journal folds to, and its writer journals only what this code's judge
    admitted against it: what the audit would admit again. So they are marked, and a restart
    folds them instead of admitting them again: at an orderly stop, and while the hub runs in
    a quiet second at most every `MARK_EVERY_S`. Marked only where the journal's last row is
    the party's (the state the hub holds is that of the rows it marks); after a failed batch
    nothing more (the party in memory may not be the journal's fold). A hub started without
    the audit marks nothing: it is not made here."""

    def __init__(self, journal: Journal, seq: int):
        self._journal: Journal | None = journal
        self._marked, self._code, self._at = seq, code(), time.monotonic()

    def quiet(self, seq: int, now: float) -> None:
        """The writer has had nothing to do for a second, at `now` (monotonic), its party at
        `seq`: marked if a minute has passed, without waiting for the disk."""
        if now - self._at >= MARK_EVERY_S:
            self._at = now
            self.mark(seq, synced=False)

    def mark(self, seq: int, synced: bool = True) -> None:
        """The rows up to `seq`, the party's, marked (an orderly stop's call: synced)."""
        journal = self._journal
        if journal is None or seq <= self._marked or journal.head[0] != seq:
            return
        try:
            journal.mark_audited(seq, self._code, time.time(), synced)
        except sqlite3.Error as e:   # the party goes on: the next start-up audits these rows
            log.warning("could not mark the rows up to seq %d audited: %s", seq, e)
            return
        self._marked = seq

    def doubt(self) -> None:
        """A batch failed: nothing more is marked in this run."""
        self._journal = None


@cache
def code() -> str:
    """The hub's code, as the SHA-256 of its source files: an audit passed by other code (a
    newer judge, say) is not taken as this code's."""
    h = hashlib.sha256()
    root = Path(__file__).parent
    for f in sorted(root.rglob("*.py")):
        h.update(f"{f.relative_to(root)}\0".encode())
        h.update(f.read_bytes())
    return h.hexdigest()


class JournalFailsAudit(RuntimeError):
    """A journal holding events the conductor would not have written: not served unless
    the host says so, since every verdict given from it would build on them."""

    def __init__(self, path, findings):
        self.findings = findings
        shown = "".join(f"\n  {f}" for f in findings[:10])
        more = f"\n  ... and {len(findings) - 10} more" if len(findings) > 10 else ""
        super().__init__(
            f"the journal {path} holds {len(findings)} event(s) the conductor would not have "
            f"written:{shown}{more}\n`party replay --audit {path}` lists them all; "
            f"`party run --no-audit` serves the journal as it is.")
