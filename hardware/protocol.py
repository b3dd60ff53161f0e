"""The table protocol's topics and seats as a board has them (firmware/protocol.py), for the
simulated tables and the hub's double: read from the firmware's file, never imported (the
firmware runs on the boards, not in this process; hardware/firmware_build.protocol_values),
so a topic is spelled in one place for the boards and everything playing one."""
from __future__ import annotations

from .firmware_build import FIRMWARE, PROTOCOL, protocol_values

_P = protocol_values(FIRMWARE / PROTOCOL)

ALL_CMD, HUB_STATUS = _P["T_CMD"], _P["T_HUB"]
EVENT, ACK, SCREEN, STATUS, HEARTBEAT = (_P[k] for k in ("EVENT", "ACK", "SCREEN", "STATUS", "HEARTBEAT"))
SEATS = _P["SEATS"]   # "ABCD": the seat letters a board's keypad has


def table_topic(table: int | str, leaf: str) -> str:
    """The topic of `table`'s `leaf` (as hub/protocol.table_topic); `table` "+" for every table's."""
    return _P["T_TABLE"].replace("%d", str(table)) + leaf
