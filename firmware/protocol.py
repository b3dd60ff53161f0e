# The table protocol, version 1 (docs/protocol.md), as a board speaks it: plain
# constants, small enough for a board's heap (no classes, no regular expressions).
# The hub declares the same values in hub/protocol.py (with the checks a hub makes),
# and tests/hub/test_protocol_agrees.py loads this file by its path and checks that
# the two, and the serial bridge, agree.
VERSION = 1
MAX_PAYLOAD = 2048  # bytes of an event's payload the hub reads

# Topics: a table's own under T_TABLE % table, plus the two every board reads.
T_TABLE = "party/table/%d/"
T_CMD = "party/all/cmd"
T_HUB = "party/hub/status"
EVENT, ACK, SCREEN, STATUS, HEARTBEAT = "event", "ack", "screen", "status", "heartbeat"
QOS = {EVENT: 1, STATUS: 1, HEARTBEAT: 0}  # what a board publishes, at which QoS

# The kinds of a table's event.
RESULT, CONFIRM, SEAT_CHECK = "result", "confirm", "seat-check"
BELL, BELL_ACK, CALL, NO_GAME, COUNT = "bell", "bell-ack", "call", "no-game", "count"
KINDS = (RESULT, CONFIRM, SEAT_CHECK, BELL, BELL_ACK, CALL, NO_GAME, COUNT)

SEATS = "ABCD"
# A board id and a bell id: 1 to ID_MAX of ID_CHARS. An event id: board.boot.seq.
ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-"
ID_MAX = 24

# An outbox entry (firmware/outbox.py): [id, kind, payload, ticks of its last send or None];
# a kept one (acknowledged, not yet in the hub's replica): [id, kind, payload, the journal
# seq the hub gave it, where that hub's journal was restored from or None].
E_ID, E_KIND, E_PAYLOAD, E_SENT = 0, 1, 2, 3
K_SEQ, K_RESTORED = 3, 4
