"""A refusal: an input that cannot be true, with the reason shown where the person is —
the table's display, 16 characters wide (docs/protocol.md).

The one exception the scoring engine, the conductor and the protocol raise, and the one
rule for its reason: what the display can show. A longer text is cut to the display's
width here (the display would cut it anyway; the whole text stays in the message, for
the log), so no caller shortens or checks it on its own.
"""
from __future__ import annotations

DISPLAY = 16   # characters in a line of a table's display


def shown(why: str) -> str:
    """A reason as a table's display shows it."""
    if not isinstance(why, str) or not why.strip():
        raise TypeError(f"a refusal needs a reason to show: {why!r}")
    return why[:DISPLAY]


class Refusal(ValueError):
    """`why`: the reason, as the display shows it; `detail`: more for the log;
    `event_id`: the refused input's id, where known (a board is told which entry)."""

    def __init__(self, why: str, detail: str = "", event_id: str | None = None):
        self.why, self.detail, self.event_id = shown(why), detail, event_id
        if why != self.why and not detail:
            detail = why
        super().__init__(f"{self.why}: {detail}" if detail else self.why)
