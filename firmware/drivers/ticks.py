"""ticks_diff: the difference of two wrapping millisecond ticks, as on a board.

The drivers' logic takes the time as an argument, so tests under CPython drive
it with plain integers; there ticks do not wrap and a plain difference is right.
"""
try:
    from time import ticks_diff
except ImportError:  # CPython
    def ticks_diff(a: int, b: int) -> int:  # type: ignore[no-redef]
        return a - b
