"""The envelope of docs/protocol.md: what the hub refuses before any game rule."""
import json

import pytest

from hub import protocol


def envelope(**over):
    msg = {"v": 1, "id": "sim-3.5.17", "table": 3, "kind": "result",
           "body": {"game": 2, "values": {"A": 15, "B": 0}}}
    msg.update(over)
    return json.dumps(msg).encode()


def test_a_result_becomes_a_proposal_from_its_table_and_board():
    p = protocol.parse_event(3, envelope())
    assert (p.id, p.source, p.kind) == ("sim-3.5.17", "table:3", "table.result")
    assert p.body == {"game": 2, "values": {"A": 15, "B": 0}, "table": 3, "board": "sim-3"}


@pytest.mark.parametrize("payload, why, names_id", [
    (b"\xff\xfe not json", "BAD MESSAGE", False),
    (b"[1, 2]", "BAD MESSAGE", False),
    (envelope(v=2), "UPDATE FIRMWARE", True),
    (envelope(id="Sim 3"), "BAD MESSAGE", False),
    (envelope(table=4), "WRONG TABLE", True),
    (envelope(kind="teleport"), "UNKNOWN KIND", True),
    (envelope(body={"game": "two", "values": {}}), "BAD MESSAGE", True),
    (envelope(body={"game": 2, "values": {"A": 1.5}}), "BAD MESSAGE", True),
    (envelope(kind="confirm", body={"entry": "x.1.1", "seat": "E"}), "BAD MESSAGE", True),
    (envelope(kind="bell", body={"loud": True}), "BAD MESSAGE", True),
    (envelope(kind="bell-ack", body={"bell": "BELL ONE"}), "BAD MESSAGE", True),
    (envelope(body={"game": 2, "values": {"A": 1}, "pad": "x" * 3000}), "TOO LONG", False),
])
def test_malformed_events_are_refused_with_a_reason_a_table_can_show(payload, why, names_id):
    with pytest.raises(protocol.Refusal) as refused:
        protocol.parse_event(3, payload)
    assert refused.value.why == why and len(why) <= 16
    # The board is told which entry was refused whenever the envelope names it.
    assert (refused.value.event_id == "sim-3.5.17") == names_id


def test_topics_use_only_the_protocols_alphabet():
    assert protocol.split_table_topic("party/table/12/event") == (12, "event")
    for topic in ("party/table/012/event", "party/table/x/event", "party/table/1/ack", "party/table/1000/event"):
        assert protocol.split_table_topic(topic) is None


def test_an_ack_after_the_commit_names_the_journal_seq():
    assert json.loads(protocol.ack("sim-3.5.17", seq=42, msg="SAVED")) == \
        {"v": 1, "id": "sim-3.5.17", "ok": True, "seq": 42, "msg": "SAVED"}
    assert json.loads(protocol.ack("sim-3.5.17", why="ID REUSED")) == \
        {"v": 1, "id": "sim-3.5.17", "ok": False, "why": "ID REUSED"}
