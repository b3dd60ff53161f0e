"""The board and the hub speak one protocol (docs/protocol.md): firmware/protocol.py (the
board's, MicroPython-sized) declares the values hub/protocol.py declares, and the serial
bridge takes the hub's. Loaded by its path, as a plain module: it is the file a board runs."""
import importlib.util
import re
import string
from pathlib import Path

from hub import protocol, serial_bridge

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "protocol.py"


def board():
    spec = importlib.util.spec_from_file_location("firmware_protocol", FIRMWARE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_version_topics_and_sizes_agree():
    fw = board()
    assert fw.VERSION == protocol.VERSION
    assert (fw.T_CMD, fw.T_HUB) == (protocol.ALL_CMD, protocol.HUB_STATUS)
    for leaf in (fw.EVENT, fw.ACK, fw.SCREEN, fw.STATUS, fw.HEARTBEAT):
        assert fw.T_TABLE % 7 + leaf == protocol.table_topic(7, leaf)
    assert (protocol.ACK_TOPIC[7], protocol.SCREEN_TOPIC[7]) == (fw.T_TABLE % 7 + fw.ACK, fw.T_TABLE % 7 + fw.SCREEN)
    published = (fw.EVENT, fw.STATUS, fw.HEARTBEAT)
    for leaf in published:    # what a board publishes is what the hub reads
        assert protocol.split_table_topic(fw.T_TABLE % 7 + leaf) == (7, leaf)
    assert sorted(t.rsplit("/", 1)[1] for t in protocol.TABLE_INPUTS) == sorted(published)


def test_kinds_seats_and_the_id_alphabet_agree():
    fw = board()
    kinds = (fw.RESULT, fw.CONFIRM, fw.SEAT_CHECK, fw.BELL, fw.BELL_ACK, fw.CALL, fw.NO_GAME, fw.COUNT,
             fw.COUNT_UNDONE)
    assert kinds == protocol.TABLE_KINDS
    assert tuple(fw.SEATS) == protocol.SEATS
    assert fw.ID_MAX == protocol.ID_MAX
    bell = re.compile(protocol._BELL_ID.pattern)
    for c in string.printable:     # the board's alphabet is exactly the hub's
        assert bool(bell.match(c)) == (c in fw.ID_CHARS), c
    longest = fw.ID_CHARS[0] * fw.ID_MAX
    assert bell.match(longest) and not bell.match(longest + fw.ID_CHARS[0])
    assert protocol._EVENT_ID.match(f"{longest}.3.17")


def test_the_serial_bridge_takes_the_hubs_values():
    assert serial_bridge.MAX_PAYLOAD is protocol.MAX_PAYLOAD
    assert serial_bridge.HUB_STATUS is protocol.HUB_STATUS
    assert serial_bridge.BOARD_QOS is protocol.BOARD_QOS
    assert serial_bridge.split_table_topic is protocol.split_table_topic
