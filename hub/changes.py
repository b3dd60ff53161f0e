"""The writer's progress as the screens wait on it: the journal's position moved, and
whether the writer still has inputs it has not judged (web/projection.py, web/keypad.py).

A room keying at once commits batch after batch; a screen that redrew the standings of 800
players after each one took the writer's CPU and delayed them all. So a screen may wait, a
bounded `settle`, for a writer still busy, and give inputs on their way a `quiet` moment.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Changes:
    def __init__(self, seq: Callable[[], int], stopping: threading.Event):
        self._seq, self._stopping = seq, stopping
        self._moved = threading.Condition()
        self._busy = False   # the writer has inputs waiting (read or queued) that it has not judged

    # ----- the writer's side ------------------------------------------------------
    def busy(self) -> None:
        """The writer has taken inputs it has not judged yet."""
        self._busy = True

    def caught_up(self) -> None:
        """Nothing waits for the writer: a screen held back by `wait`'s settle may go."""
        if self._busy:
            with self._moved:
                self._busy = False
                self._moved.notify_all()

    def batch_done(self) -> None:
        """A batch is through (also one that appended nothing: a settling screen waits for the inbox)."""
        with self._moved:
            self._moved.notify_all()

    # ----- the screens' side -------------------------------------------------------
    def wait(self, after_seq: int, timeout: float, settle: float = 0.0, quiet: float = 0.0) -> int:
        """Block until the journal has passed `after_seq` or `timeout` passed; the seq now.

        With `settle`, a change found while the writer still has inputs waiting waits up to
        `settle` seconds more for it to catch up. With `quiet` too, a writer caught up is
        given that long, once, for inputs on their way, and then their batch (within the same
        `settle`): a rush's first tables reach it a few ms before the rest, and a view made of
        them alone was made again a batch later. Once: waiting for a quiet that long again
        after every entry held an ordinary pace's views back by tens of ms. Only where the
        writer caught up within `quiet` of the change: one busy longer (a rush's batches) has
        had what was on its way already, and the rush's last commit waited the quiet for nothing
        (session 17: 3 of the ~6 ms between it and its view)."""
        seq, stopping, moved = self._seq, self._stopping.is_set, self._moved
        with moved:
            if not moved.wait_for(lambda: seq() > after_seq or stopping(), timeout):
                return seq()
            found = time.monotonic()
            deadline = found + settle
            if settle > 0 and moved.wait_for(lambda: not self._busy or stopping(), settle) \
                    and quiet > 0 and not stopping() and time.monotonic() - found < quiet:
                seen = seq()   # caught up: what is on its way gets `quiet` s to reach the writer, once
                if moved.wait_for(lambda: self._busy or seq() != seen or stopping(),
                                  min(quiet, deadline - time.monotonic())):
                    moved.wait_for(lambda: not self._busy or stopping(), deadline - time.monotonic())
        return seq()
