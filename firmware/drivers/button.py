"""A debounced push button that tells a short press from a long one, by polling.

Polled, not IRQ-driven: a bouncing contact fires dozens of interrupts per press,
and an ISR may not allocate or touch the app's state; a 10 ms poll costs
nothing and the debouncing stays plain code that tests can drive.
"""
from drivers.ticks import ticks_diff

DEBOUNCE_MS = 30   # a contact must read the same this long before it counts
LONG_MS = 1500     # held this long: a long press


class Debounced:
    """A level that changes only after the raw reading has been stable DEBOUNCE_MS."""

    def __init__(self, debounce_ms: int = DEBOUNCE_MS) -> None:
        self.debounce_ms = debounce_ms
        self.level = False       # the accepted (debounced) level
        self._raw = False        # the last raw reading
        self._since = 0          # when the raw reading last changed

    def update(self, raw: bool, now: int) -> bool:
        """Feed one raw reading taken at `now` (ms); True when the accepted level changed."""
        if raw != self._raw:
            self._raw = raw
            self._since = now
            return False
        if raw != self.level and ticks_diff(now, self._since) >= self.debounce_ms:
            self.level = raw
            return True
        return False


class Button:
    """Turns polled readings of a pressed/released contact into press events.

    A short press is reported when released (only then is it known to be short);
    a long press is reported while still held, as soon as it is long enough, so
    the person holding it sees the answer without letting go. Names of the two
    events are given by the caller (the bell: "BELL" and "BELL-LONG").
    """

    def __init__(self, short: str, long: str, long_ms: int = LONG_MS,
                 debounce_ms: int = DEBOUNCE_MS) -> None:
        self.short = short
        self.long = long
        self.long_ms = long_ms
        self._contact = Debounced(debounce_ms)
        self._down_at = 0
        self._long_sent = False

    def update(self, pressed: bool, now: int):
        """Feed one raw reading; returns the event name or None."""
        if self._contact.update(pressed, now):
            if self._contact.level:
                self._down_at = now
                self._long_sent = False
                return None
            return None if self._long_sent else self.short
        if (self._contact.level and not self._long_sent
                and ticks_diff(now, self._down_at) >= self.long_ms):
            self._long_sent = True
            return self.long
        return None
