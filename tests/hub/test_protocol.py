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
    (envelope(v=2, id="\ud800"), "UPDATE FIRMWARE", False),   # an id no ack can carry, nor a journal
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


def test_an_ack_after_the_commit_names_the_journal_seq_and_its_seal():
    assert json.loads(protocol.ack("sim-3.5.17", seq=42, msg="SAVED", seal="ab" * 32)) == \
        {"v": 1, "id": "sim-3.5.17", "ok": True, "seq": 42, "msg": "SAVED", "seal": "ab" * 32}
    assert json.loads(protocol.ack("sim-3.5.17", why="ID REUSED")) == \
        {"v": 1, "id": "sim-3.5.17", "ok": False, "why": "ID REUSED"}


def test_a_screen_message_is_the_screen_with_version_and_seq_whatever_form_it_shares():
    """Tables seated alike at one game share their form (hub/conductor/screens.py) and the
    hub spells it once per round: each board still reads its own whole screen, and a form
    made anew (a new game's, or one with the id of a form gone) is spelled anew."""
    def screen(table, form):
        return {"table": table, "state": "playing", "lines": [f"TABLE {table}", "GAME 2 OF 4"], "bell": None,
                "form": form}
    shared = {"kind": "result", "game": 2, "title": "GAME 2", "fields": [{"k": "out", "label": "DOMINO BY"}]}
    forms = {}
    for table, form in ((1, shared), (2, shared), (3, None), (4, dict(shared, game=3, title="GAME 3")),
                        (5, {"kind": "confirm", "entry": "sim-5.1.9", "game": 2}), (6, dict(shared, game=4))):
        message = protocol.screen_message(42, table, screen(table, form), forms)
        assert message == protocol.encode({"v": 1, "seq": 42, "table": table, **screen(table, form)})
        assert json.loads(message) == {"v": 1, "seq": 42, **screen(table, form)}
    for game in range(5, 50):
        form = dict(shared, game=game)   # the last one dropped: CPython may give its id to this one
        expected = protocol.encode({"v": 1, "seq": 42, "table": 1, **screen(1, form)})
        assert protocol.screen_message(42, 1, screen(1, form), forms) == expected
        del form
