"""What the console tells the host after the hub has started again on its journal
(hub/runs.py): when it stopped and started, that nothing acknowledged was lost,
which boards have not come back, and what there is to redo."""
from __future__ import annotations

import time

from .telemetry import boards_view


# a board's state (web/telemetry.py) as the summary says it
_SAID = {"none": "not heard from since", "offline": "offline", "silent": "silent", "online": "online"}


def _clock(t: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(t))


def summary(hub, now: float, silent_after: float) -> dict | None:
    """None on the journal's first run."""
    before = hub.runs.previous
    if before is None:
        return None
    view = boards_view(hub.boards, [int(t) for t in before.boards], now, silent_after)
    stopped = before.stopped or before.alive
    return {
        "started": hub.runs.started,
        "started_at": _clock(hub.runs.started),
        "stopped_at": _clock(stopped),
        "in_order": before.stopped is not None,
        "away": round(hub.runs.started - stopped),
        # every entry is acknowledged only once committed (docs/journal.md): the journal
        # holding the stopped hub's last event is holding everything it acknowledged
        "seq": hub.seq, "seq_before": before.seq, "kept": hub.seq >= before.seq,
        "boards_before": len(before.boards),
        "not_back": [{"table": int(t), "board": board, "state": _SAID[view[t]["state"]]}
                     for t, board in sorted(before.boards.items(), key=lambda tb: int(tb[0]))
                     if view[t]["state"] != "online"],
        "redo": len(hub.staff_gap.waiting()),
    }
