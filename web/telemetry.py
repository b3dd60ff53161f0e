"""What the screens say about each table's board, from the hub's telemetry (`hub.boards`).

Telemetry is never journaled: it is how the board is doing now. A board is
`online` while its retained status says so and it has been heard from lately;
`silent` when it says online but nothing at all (status, heartbeat, a result,
anything) arrived within `silent_after` seconds (twice its heartbeat) — powered off without its last will reaching the broker,
or out of WiFi range; `offline` when its last will or a clean stop said so;
`none` when no board has ever spoken for the table (a phone keypad, or paper).
"""
from __future__ import annotations

from typing import Iterable


def board_state(seen, now: float, silent_after: float) -> str:
    if seen is None:
        return "none"
    if seen.state == "offline":
        return "offline"
    if seen.state == "online" and now - seen.seen_at > silent_after:
        return "silent"
    return seen.state if seen.state in ("online", "offline") else "none"


def boards_view(boards: dict, tables: Iterable[int], now: float, silent_after: float) -> dict[str, dict]:
    """table (as a JSON key) -> {state, board, rssi, battery, outbox, age} for the screens.

    `age` is whole seconds since the board was last heard from.
    """
    view = {}
    for table in tables:
        seen = boards.get(table)
        beat = seen.heartbeat if seen else {}
        view[str(table)] = {
            "state": board_state(seen, now, silent_after),
            "board": seen.board if seen else "",
            "rssi": beat.get("rssi"),
            "battery": beat.get("battery"),
            "outbox": beat.get("outbox"),
            "age": int(now - seen.seen_at) if seen and seen.seen_at else None,
        }
    return view


def liveness(view: dict[str, dict]) -> dict[str, str]:
    """What the projector shows of the telemetry: each table's board state.

    Only a change of state is pushed to the projected screens; signal and
    battery change with every heartbeat and are the console's business.
    """
    return {t: v["state"] for t, v in view.items()}
