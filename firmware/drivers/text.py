"""Lays text out into a character display's lines: the pure half of the display driver.
The rule is lines.layout, beside the app's lines, so that the unix port's board lays
out its frames by it too at no cost in heap (hal/host.py)."""
from lines import layout  # noqa: F401
