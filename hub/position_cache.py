"""What is derived from the party at one journal position — the standings, and the web's
views of them — computed once and shared by every reader of one hub.

Every screen's stream wakes at the same commit: one computes, the others wait for it and
take its answer (without the lock twenty screens computed the same standings twenty
times, 800 players' each). A new position forgets the answers of the one before.
"""
from __future__ import annotations

import threading
from typing import Callable, Hashable, TypeVar

T = TypeVar("T")


class PositionCache:
    def __init__(self):
        self._lock = threading.RLock()   # an answer may be made from another (a view from the standings)
        self._seq: int | None = None
        self._answers: dict[Hashable, object] = {}
        self._last: dict[Hashable, object] = {}   # each key's answer made last, at any position

    def get(self, seq: int, key: Hashable, compute: Callable[[], T]) -> T:
        """The answer `key` at journal position `seq`, computed by `compute` if not yet."""
        with self._lock:
            if seq != self._seq:
                self._seq, self._answers = seq, {}
            if key not in self._answers:
                self._answers[key] = self._last[key] = compute()
            return self._answers[key]

    def last(self, key: Hashable):
        """The answer `key` made last, at whichever position (None if never): what the next one
        may be made from, as the standings after an entry are the ones before with one table's
        rows made anew."""
        with self._lock:
            return self._last.get(key)
