"""Wrong passwords at the console's login: slowed down per device.

The party's WiFi is open to every guest, and the console's login is one page
away from the projected standings. A guest's laptop guessing the conductor's
password gets `allowed` tries, then one try per `pause` seconds; the
conductor who mistypes loses half a minute, not the evening. Checking a
password costs ~100 ms of CPU (scrypt) on the machine that also journals the
scores, so a refused attempt is refused before any hash is computed, and the
checks that do run go one at a time.
"""
from __future__ import annotations

import threading
import time


class LoginThrottle:
    def __init__(self, allowed: int = 5, pause: float = 30.0, forget: float = 900.0,
                 clock=time.monotonic, most: int = 10_000):
        self.allowed, self.pause, self.forget, self.clock, self.most = allowed, pause, forget, clock, most
        self._failures: dict[str, tuple[int, float]] = {}   # address -> (wrong tries, time of the last)
        self._lock = threading.Lock()
        self.checking = threading.Lock()   # one password hash at a time

    def wait(self, address: str) -> float:
        """Seconds before `address` may try again (0: now)."""
        with self._lock:
            count, last = self._failures.get(address, (0, 0.0))
            if count < self.allowed:
                return 0.0
            return max(0.0, last + self.pause - self.clock())

    def failed(self, address: str) -> None:
        with self._lock:
            now = self.clock()
            count, last = self._failures.get(address, (0, now))
            if now - last > self.forget:
                count = 0   # a quarter of an hour without a wrong try: a clean slate
            self._failures[address] = (count + 1, now)
            if len(self._failures) > self.most:   # spoofed addresses cannot grow this without end
                oldest = min(self._failures, key=lambda a: self._failures[a][1])
                del self._failures[oldest]

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)
