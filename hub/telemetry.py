"""What the tables' boards say of themselves (status, heartbeat, and that they are heard
at all): shown on the console (web/telemetry.py), never journaled."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from . import protocol

log = logging.getLogger("hub")


@dataclass
class BoardSeen:
    """Telemetry from a table's board."""
    state: str = "unknown"
    board: str = ""
    boot: int | None = None
    seen_at: float = 0.0
    heartbeat: dict = field(default_factory=dict)


class Boards(dict):
    """table -> BoardSeen, as the MQTT thread hears them."""

    def heard(self, table: int, now: float) -> None:
        """Anything from a board is news that it is there: a result as much as a heartbeat."""
        seen = self.get(table) or self.setdefault(table, BoardSeen())  # no new BoardSeen per event
        seen.seen_at = now

    def online(self) -> dict[str, str]:
        """table (as a JSON key) -> board, of the boards that say they are online."""
        return {str(t): seen.board for t, seen in list(self.items()) if seen.state == "online"}

    def note(self, table: int, leaf: str, payload: bytes) -> None:
        """A board's retained status or its heartbeat."""
        try:
            msg = protocol.decode_object(payload)
        except ValueError as exc:
            log.warning("table %d: unreadable %s: %s", table, leaf, exc)
            return
        seen = self[table]
        if leaf == "status":
            seen.state = str(msg.get("state", "unknown"))
            seen.board = str(msg.get("board", seen.board))
            seen.boot = msg.get("boot", seen.boot)
        else:
            seen.heartbeat = msg
