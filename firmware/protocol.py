# The table protocol, version 1 (docs/protocol.md), as a board speaks it: plain
# constants, small enough for a board's heap (no classes, no regular expressions, and
# only names the board uses: each costs heap, about 70 bytes, as long as it runs).
# The hub declares the same values in hub/protocol.py (with the checks a hub makes),
# and tests/hub/test_protocol_agrees.py loads this file by its path and checks that
# the two, and the serial bridge, agree.
VERSION = 1

# Topics: a table's own under T_TABLE % table, plus the two every board reads.
T_TABLE = "party/table/%d/"
T_CMD = "party/all/cmd"
T_HUB = "party/hub/status"
EVENT, ACK, SCREEN, STATUS, HEARTBEAT = "event", "ack", "screen", "status", "heartbeat"

# The kinds of a table's event.
RESULT, CONFIRM, SEAT_CHECK = "result", "confirm", "seat-check"
BELL, BELL_ACK, CALL, NO_GAME, COUNT = "bell", "bell-ack", "call", "no-game", "count"
COUNT_UNDONE = "count-undone"

SEATS = "ABCD"
# A board id and a bell id: 1 to ID_MAX of ID_CHARS. An event id: board.boot.seq.
ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-"
ID_MAX = 24
