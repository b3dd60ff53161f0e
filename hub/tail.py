"""Where the hub's time went, kept as it goes (docs/performance.md, "The tail"): for each
batch the moments of its steps (its commit among them), the journal's checkpoints, for
each view of the standings when it was made and when each stream had written it to its
screen's socket, and the process's pauses — the cyclic collector's passes (`gc.callbacks`)
and, while watched, how late a thread that asks to wake every few milliseconds is woken
(the interpreter held by another thread, or the process not run at all). A guest waiting
for SAVED meets the tail, not the median; these say which step it was. The last `KEEP` of
each, in memory only. Times are `time.monotonic()`, one clock for every process on the
machine.
"""
from __future__ import annotations

import gc
import threading
import time
from collections import deque
from typing import NamedTuple

from .checkpoints import Checkpoint

KEEP = 20_000


class Batch(NamedTuple):
    """One turn of the writer: inputs taken, judged, journaled (COMMIT returned), acks and
    bell sent, screens sent. Seqs `first`..`last` were appended (none: first > last)."""
    taken: float
    judged: float
    committed: float
    acked: float
    shown: float
    first: int
    last: int
    inputs: int


class Pause(NamedTuple):
    """The process stopped for something: a collection (`what` its generation, 0-2) or a
    watcher woken late (`what` -1)."""
    at: float
    seconds: float
    what: int


class Tail:
    def __init__(self):
        self.batches: deque[Batch] = deque(maxlen=KEEP)
        self.views: deque[tuple[int, float, float]] = deque(maxlen=KEEP)   # (seq, started, made)
        self.frames: deque[tuple[int, float, int]] = deque(maxlen=KEEP)   # (seq, written, stream)
        self.pauses: deque[Pause] = deque(maxlen=KEEP)
        self.checkpoints: deque[Checkpoint] = deque(maxlen=KEEP)   # the journal's (hub/checkpoints.py)
        self._gc_start = 0.0
        self._watching = threading.Event()

    # ----- what the hub notes ---------------------------------------------------
    def batch(self, taken, judged, committed, acked, shown, first, last, inputs) -> None:
        self.batches.append(Batch(taken, judged, committed, acked, shown, first, last, inputs))

    def viewed(self, seq: int, started: float, made: float) -> None:
        self.views.append((seq, started, made))

    def checkpointed(self, done: Checkpoint) -> None:
        """The journal's checkpointer ran one, on its own thread (beside, not in, a commit)."""
        self.checkpoints.append(done)

    def framed(self, seq: int, written: float, stream: int) -> None:
        """Stream number `stream` has handed the view of `seq` to its socket (the kernel has it all)."""
        self.frames.append((seq, written, stream))

    # ----- the process's pauses ------------------------------------------------
    def start(self) -> None:
        """Note the collector's passes (until `stop`)."""
        gc.callbacks.append(self._collected)

    def watch(self, every: float = 0.005, late: float = 0.010) -> None:
        """Also a thread asking to wake each `every` s; a wake-up more than `late` s after
        its time is a pause of the whole process (until `stop`)."""
        if self._watching.is_set():
            return
        self._watching.set()
        threading.Thread(target=self._watch, args=(every, late), name="hub-tail", daemon=True).start()

    def stop(self) -> None:
        self._watching.clear()
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)

    def _collected(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_start = time.monotonic()
        else:
            self.pauses.append(Pause(self._gc_start, time.monotonic() - self._gc_start, info["generation"]))

    def _watch(self, every: float, late: float) -> None:
        due = time.monotonic() + every
        while self._watching.is_set():
            time.sleep(max(0.0, due - time.monotonic()))
            now = time.monotonic()
            if now - due > late:
                self.pauses.append(Pause(due, now - due, -1))
            due = now + every
