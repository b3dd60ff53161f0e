"""The start-up's audit on the machine's two cores (docs/performance.md, session 11).

An audit admits every input again against the state before it, so it cannot be cut in two
by itself; but a fold costs about half an admit, and an audit may start from a state folded
from the rows before it (the audit done once, hub/startup.py). So a child process audits the
first rows from the start while the hub folds them, then audits the rest: the hub waits for
about two thirds of a whole audit instead of all of it. The child says only whether its rows
passed; where it finds anything, or cannot say, the hub audits the whole journal itself, as
it always did, so a journal that fails is told in the same words and findings."""
from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path

from . import child

# Fewer rows to audit than this and the hub audits them alone: the child's start (its imports,
# about 0.45 s of CPU) would cost about what it takes off (at 20,000 rows, a 1.4 s audit).
SPLIT_ROWS = 40_000
# The child's share of the rows to audit: it admits them all, while the hub folds them (about
# half the cost) and admits the rest, so both end about together.
SHARE = 0.60


class FirstRows:
    """The rows after `done` up to `to`, audited in a child process from the party folded
    from the rows up to `done`."""

    def __init__(self, path: str | Path, done: int, to: int):
        self._child = child.spawn("hub.audit_apart", str(path), str(done), str(to))

    def passed(self) -> bool:
        """The child audited its rows and found nothing (False: it found something, or could
        not say)."""
        running, self._child = self._child, None
        if running is None:
            return False
        out, _ = running.communicate()
        return running.returncode == 0 and out == b"passed"

    def stop(self) -> None:
        running, self._child = self._child, None
        child.stop(running)


def split(done: int, last: int, first_input_after) -> int | None:
    """Where the hub takes over from the child: the row before an input (never between an
    input and the decisions journaled on it), about `SHARE` of the way; None: not worth it."""
    if last - done < SPLIT_ROWS:
        return None
    seq = first_input_after(done + int((last - done) * SHARE))
    return seq - 1 if seq is not None and seq - 1 > done else None


if __name__ == "__main__":   # the child: python -m hub.audit_apart JOURNAL DONE TO
    from hub import conductor
    from hub.journal import open_reader, read_events
    _path, _done, _to = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    _events = read_events(open_reader(_path))
    with conductor.collector_paused():
        _passed = conductor.replay(islice(_events, _done)) if _done else None
        _state, _findings = conductor.audit(islice(_events, _to - _done), _passed)
    sys.stdout.write("passed" if not _findings and _state.seq == _to else "found")
