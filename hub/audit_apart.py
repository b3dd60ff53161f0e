"""The start-up's audit on the machine's two cores (docs/performance.md, session 11).

An audit admits every input again against the state before it, so it cannot be cut in two
by itself; but a fold costs about half an admit, and an audit may start from a state folded
from the rows before it (the audit done once, hub/startup.py). So a child process audits the
first rows from the start while the hub folds them, then audits the rest: the hub waits for
about two thirds of a whole audit instead of all of it. The child says whether its rows
passed; where it finds anything, or cannot say, the hub audits the whole journal itself, as
it always did, so a journal that fails is told in the same words and findings. It checks the
seal's chain on its read of the rows besides (hub/seal.py, `Links`), and says it: on two cores
a third process reading every row again (the chain's child, `seal.Checking`) shared a core
with one of the other two."""
from __future__ import annotations

import json
import sys
from dataclasses import asdict
from itertools import islice
from pathlib import Path

from . import child, conductor, seal
from .journal import open_reader, read_events

# Fewer rows to audit than this and the hub audits them alone: the split costs the hub a fold of
# the child's rows (the child forked, hub/child.py), which pays where the other core is free: its CPU
# at 20,000 rows 0.47-0.50 s against 0.74-0.75 alone (the child 0.45 s), at 10,000 rows
# 0.28 against 0.38 (the child 0.20). Spawned, the child's imports are 0.3-0.45 s more.
SPLIT_ROWS = 15_000
# The child's share of the rows to audit: it admits them all, while the hub folds them (about
# half the cost) and admits the rest, so that the hub's work is about its child's, which checks
# the seal's chain on its read besides. On the 101k journal at 0.55, once session 19's cuts to
# the audit and the fold were in: the hub 10,355 M instructions, its child 10,694 M; a row moved
# to the hub is about 80 k more for it (audited, not folded) and 125 k less for the child (read
# for the chain alone): at 0.535 the hub 10,489 M, its child 10,489 M.
SHARE = 0.535


# No row takes fewer bytes in the file (its digest and seal are 64 each): a journal file under
# SPLIT_ROWS of them holds too few rows to split, and no child is made for it.
ROW_BYTES = 100


class FirstRows:
    """The rows after `done` up to `to`, audited in a child process from the party folded
    from the rows up to `done`: the child made before the hub's process opens the journal (so
    that a forked one carries none of its SQLite state, hub/child.py), given its rows once
    the hub knows them (`audit`)."""

    def __init__(self):
        self._child, self._answer = child.Child(__name__), None

    @classmethod
    def ready(cls, path: str | Path) -> FirstRows | None:
        """A child ready for the journal at `path`, where it may hold enough rows to audit."""
        try:
            big = Path(path).stat().st_size >= SPLIT_ROWS * ROW_BYTES
        except OSError:   # a new journal
            return None
        return cls() if big else None

    def audit(self, path: str | Path, done: int, to: int) -> None:
        """The rows after `done` up to `to` audited, and the seal's chain checked on the child's
        read of them and the rest (hub/seal.py, `Links`), against the head record as it is
        before the child reads a row."""
        self._child.given(str(path), str(done), str(to), json.dumps(seal.read_head(path)))

    def passed(self) -> bool:
        """The child audited its rows and found nothing (False: it found something, or could
        not say)."""
        said = self._said()
        return said is not None and said["passed"]

    def chain(self) -> seal.Chain | None:
        """The journal's chain as the child checked it (None: it could not say)."""
        said = self._said()
        return seal.heard(said["chain"]) if said is not None else None

    def _said(self) -> dict | None:
        if self._answer is None:
            out = self._child.answer()
            self._answer = json.loads(out) if out is not None else {}
        return self._answer or None

    def stop(self) -> None:
        """Killed if running (the start-up failed, or went on without it)."""
        self._child.stop()


def split(done: int, last: int, first_input_after) -> int | None:
    """Where the hub takes over from the child: the row before an input (never between an
    input and the decisions journaled on it), about `SHARE` of the way; None: not worth it."""
    if last - done < SPLIT_ROWS:
        return None
    seq = first_input_after(done + int((last - done) * SHARE))
    return seq - 1 if seq is not None and seq - 1 > done else None


def answer(path: str, done: str, to: str, record: str) -> bytes:
    """The child's answer, as JSON: whether the rows after `done` up to `to` of the journal at
    `path` pass the audit, and the journal's chain with the head record `record` (JSON)."""
    done_, to_ = int(done), int(to)
    db = open_reader(path)
    links = seal.Links(db)
    events = read_events(db, links=links)
    with conductor.collector_paused():
        passed = conductor.replay(islice(events, done_)) if done_ else None
        state, findings = conductor.audit(islice(events, to_ - done_), passed)
    chain = links.chain(seal.record_heard(json.loads(record)))   # the rows after `to` read for it
    return json.dumps({"passed": not findings and state.seq == to_, "chain": asdict(chain)}).encode()


if __name__ == "__main__":   # the child not forked: python -m hub.audit_apart JOURNAL DONE TO RECORD
    sys.stdout.buffer.write(answer(*sys.argv[1:5]))
