"""A 4x4 matrix keypad: the scanner (pins) and the decoder (pure logic).

The scanner drives one row low at a time (rows are open-drain, so two keys in
one column never short two driven outputs) and reads the columns, pulled up.
A matrix without diodes shows a *ghost*: with three keys pressed on the
corners of a rectangle the fourth corner reads as pressed too, and no scan can
tell it from a real press. So the decoder trusts at most two keys down at once
(two keys can never ghost): a key is reported once when it goes down, a second
key pressed before the first is released is reported too (fast typing rolls
over), and as soon as three or more read as down the keypad is locked: nothing
is reported until every key is released. Mashed keys produce nothing, never a
wrong digit.
"""
from drivers.ticks import ticks_diff

KEYS = ("123A", "456B", "789C", "*0#D")  # the common membrane keypad's legend, row by row
DEBOUNCE_MS = 20


class Decoder:
    """Debounces whole scans and turns them into key-down events."""

    def __init__(self, debounce_ms: int = DEBOUNCE_MS) -> None:
        self.debounce_ms = debounce_ms
        self._stable: set[str] = set()  # the accepted set of keys down
        self._raw: set[str] = set()     # the last scan
        self._since = 0                 # when the scan last changed
        self._locked = False            # a possible ghost was seen: wait for all keys up

    def update(self, down, now: int):
        """Feed the keys read as down by one scan at `now` (ms); returns a key or None."""
        down = set(down)
        if down != self._raw:
            self._raw = down
            self._since = now
            return None
        if down == self._stable or ticks_diff(now, self._since) < self.debounce_ms:
            return None
        before, self._stable = self._stable, down
        if not down:
            self._locked = False
            return None
        if len(down) > 2:
            self._locked = True
        if self._locked:
            return None
        new = down - before
        # two keys going down in the same instant: which one was meant is unknowable
        return next(iter(new)) if len(new) == 1 else None


class Matrix:
    """Scans a keypad wired to row pins (open-drain outputs) and column pins (pulled-up inputs)."""

    def __init__(self, rows, cols, keys=KEYS) -> None:
        self.rows = rows
        self.cols = cols
        self.keys = keys
        for r in rows:
            r.value(1)   # released: open-drain high is high impedance

    def scan(self) -> set:
        down = set()
        for i, row in enumerate(self.rows):
            row.value(0)
            for j, col in enumerate(self.cols):
                if not col.value():
                    down.add(self.keys[i][j])
            row.value(1)
        return down
