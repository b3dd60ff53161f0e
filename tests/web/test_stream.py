"""The standings stream's contract: id = journal seq, catch-up on Last-Event-ID, keep-alive pings,
the boards' telemetry pushed as it changes, and the hiding switch honoured in the data itself."""
from __future__ import annotations

import http.client
import json
import time
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest

from party.hands import draw_game

from .conftest import action_id_of, csrf_of, make_party

pytestmark = pytest.mark.broker


class SSE:
    """A raw SSE client: the messages as the server wrote them, comments included."""

    def __init__(self, url: str, last_event_id: int | None = None):
        u = urlsplit(url)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", "/stream", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200

    def next(self) -> dict:
        """The next message: {"id", "event", "data"} or {"comment"}."""
        msg: dict = {}
        while True:
            line = self.response.fp.readline().decode().rstrip("\n")
            if not line:
                if msg:
                    return msg
                continue
            if line.startswith(":"):
                return {"comment": line[1:].strip()}
            field, _, value = line.partition(": ")
            msg[field] = json.loads(value) if field == "data" else value

    def until(self, test, within: float = 5.0) -> dict:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            msg = self.next()
            if test(msg):
                return msg
        raise AssertionError("no such message in time")

    def close(self):
        self.conn.close()


def test_a_reconnecting_screen_gets_what_it_missed_at_once_and_nothing_it_has(hub, server):
    make_party(hub, 2)
    first = SSE(server.url)
    msg = first.until(lambda m: m.get("event") == "standings")
    assert int(msg["id"]) == hub.seq and msg["data"]["state"] == "playing"
    first.close()

    behind = SSE(server.url, last_event_id=hub.seq - 3)
    msg = behind.until(lambda m: m.get("event") == "standings", within=1.0)
    assert int(msg["id"]) == hub.seq
    behind.close()

    current = SSE(server.url, last_event_id=hub.seq)
    seen = [current.next() for _ in range(3)]   # retry, boards, then a keep-alive ping
    assert not any(m.get("event") == "standings" for m in seen)
    assert {"comment": "ping"} in seen
    current.close()


def test_board_telemetry_is_pushed_without_an_id(hub, server, room):
    make_party(hub, 2)
    tables = room(2)
    sse = SSE(server.url)
    sse.until(lambda m: m.get("event") == "boards" and m["data"] == {"1": "online", "2": "online"})
    tables[1].drop()
    msg = sse.until(lambda m: m.get("event") == "boards" and m["data"]["2"] == "offline")
    assert "id" not in msg and msg["data"]["1"] == "online"
    sse.close()


def test_the_last_sessions_standings_can_be_hidden_from_the_room(hub, server, console, room):
    make_party(hub, 2, sessions=1)
    t = room(1)[0]
    assert t.ack_for(t.key_form(draw_game(1, 1), game=1))["ok"]
    sse = SSE(server.url)
    shown = sse.until(lambda m: m.get("event") == "standings")
    assert shown["data"]["leaders"] and not shown["data"]["hidden"]

    html = console.get("/console/").get_data(as_text=True)
    console.post("/console/act/display", data={"csrf_token": csrf_of(html), "standings": "hidden",
                                               "action_id": action_id_of(html, "display")})
    hidden = sse.until(lambda m: m.get("event") == "standings")
    assert int(hidden["id"]) == int(shown["id"]) + 1 and hidden["data"]["hidden"]   # the switch is journaled
    assert hidden["data"]["leaders"] == []
    assert all(s["score"] is None for row in hidden["data"]["tables"] for s in row["seats"])
    # not merely undrawn: the snapshot any phone can fetch has no standings either
    snapshot = json.load(urlopen(server.url + "standings.json"))
    assert snapshot["standings"]["leaders"] == []
    sse.close()


def test_many_screens_cost_one_computation_of_the_standings_per_change(hub, server, room, monkeypatch):
    """Projectors and guests' phones alike: the view is made once per journal position by
    the projection's follower and only written by each stream (web/projection.py)."""
    from web import projection
    made = []
    real_view = projection.view
    monkeypatch.setattr(projection, "view", lambda *a: made.append(hub.seq) or real_view(*a))
    make_party(hub, 2)
    screens = [SSE(server.url) for _ in range(6)]
    for sse in screens:
        sse.until(lambda m: m.get("event") == "standings" and int(m["id"]) == hub.seq)
    t = room(1)[0]
    before = len(made)
    ack = t.ack_for(t.key_form(draw_game(1, 1), game=1))
    assert ack["ok"]
    for sse in screens:
        msg = sse.until(lambda m: m.get("event") == "standings" and int(m["id"]) >= ack["seq"])
        assert next(r for r in msg["data"]["tables"] if r["table"] == 1)["games"] == 1
        sse.close()
    assert len(made) - before == 1, made[before:]


def test_a_rush_arriving_table_after_table_is_shown_in_one_view_and_a_lone_entry_promptly(hub, room):
    """After the bell the tables' results reach the hub a few ms apart: the first found the
    writer idle and its view was made at once, then made again for the rest (issue 21: a
    rush's views cost more than its batches). The follower gives a writer that has caught up
    `quiet` seconds for inputs on their way before it makes the view; a lone entry waits only
    that, not the settle."""
    from web import projection
    made = []
    real_view = projection.view
    make_party(hub, 2)
    screen = projection.Projection(hub, settle=6.0, quiet=1.0)   # a loaded machine's margins
    def shown(seq: int) -> None:
        deadline = time.monotonic() + 10
        while screen.latest()[0] < seq:
            assert time.monotonic() < deadline, f"seq {seq} not shown within 10 s"
            time.sleep(0.005)
    shown(hub.seq)   # the follower starts, makes the party's view (after its own quiet)
    deadline = time.monotonic() + 10
    while hub.seq not in [seq for seq, _, _ in hub.tail.views]:
        assert time.monotonic() < deadline, "the follower made no view of the party"
        time.sleep(0.01)
    t1, t2 = room(2)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(projection, "view", lambda *a: made.append(hub.seq) or real_view(*a))
        first = t1.ack_for(t1.key_form(draw_game(1, 1), game=1))
        second = t2.ack_for(t2.key_form(draw_game(2, 1), game=1))   # the next table, at once
        assert first["ok"] and second["ok"]
        shown(second["seq"])
        assert made == [second["seq"]], "the first table's entry was shown on its own"
        alone = t1.ack_for(t1.key_form(draw_game(1, 2), game=2))
        acked = time.monotonic()
        shown(alone["seq"])
        assert time.monotonic() - acked < 4.0, "a lone entry's view waited for the settle, not the quiet"
        assert made == [second["seq"], alone["seq"]]
