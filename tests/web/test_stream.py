"""The standings stream's contract: id = journal seq, catch-up on Last-Event-ID, keep-alive pings,
the boards' telemetry pushed as it changes, and the hiding switch honoured in the data itself;
after the whole view, what changed since the view a screen holds (session 15: `change` frames,
web/frames.py), which lands on that view however many views the stream skipped."""
from __future__ import annotations

import http.client
import json
import threading
import time
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest

from party.hands import draw_game
from web.frames import applied

from .conftest import action_id_of, csrf_of, make_party

pytestmark = pytest.mark.broker


class SSE:
    """A raw SSE client: the messages as the server wrote them, comments included; and the view
    a screen draws from its frames (`frame`), as the projector's page applies them."""

    def __init__(self, url: str, last_event_id: int | None = None, holding: dict | None = None):
        """`holding`: the view of `last_event_id` this screen already has (a reconnect)."""
        self.url, self.seq, self.view = url, last_event_id, holding
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
            if field == "data":
                msg["bytes"] = len(value)

    def until(self, test, within: float = 5.0) -> dict:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            msg = self.next()
            if test(msg):
                return msg
        raise AssertionError("no such message in time")

    def frame(self, within: float = 5.0) -> dict:
        """The next frame, whole or a change, drawn: a change must be on the view held."""
        msg = self.until(lambda m: m.get("event") in ("standings", "change"), within)
        if msg["event"] == "change":
            assert self.view is not None and msg["data"]["base"] == self.seq, (msg["data"]["base"], self.seq)
            self.view = applied(self.view, msg["data"])
        else:
            self.view = msg["data"]
        self.seq = int(msg["id"])
        return msg

    def shows(self, seq: int, within: float = 5.0) -> None:
        """Frames drawn until this screen shows the view of `seq` or a later one."""
        deadline = time.monotonic() + within
        while self.seq is None or self.seq < seq:
            self.frame(max(0.1, deadline - time.monotonic()))

    def close(self):
        self.conn.close()


def fresh(server) -> tuple[int, dict]:
    """What a screen loading the page now is given: (seq, view)."""
    snapshot = json.load(urlopen(server.url + "standings.json"))
    return snapshot["seq"], snapshot["standings"]


def same_as_fresh(sse: SSE, server) -> None:
    """The view a screen drew from its frames is the one a screen loading now is given."""
    seq, view = fresh(server)
    assert seq == sse.seq
    assert sse.view == view


def shown_by_the_hub(hub, seq: int) -> None:
    """Until the projection has made a view of `seq` or later."""
    deadline = time.monotonic() + 10
    while not any(s >= seq for s, _, _ in list(hub.tail.views)):
        assert time.monotonic() < deadline, f"no view of seq {seq} within 10 s"
        time.sleep(0.01)


def test_a_reconnecting_screen_gets_what_it_missed_at_once_and_nothing_it_has(hub, server, room):
    make_party(hub, 2)
    first = SSE(server.url)
    msg = first.frame()
    assert msg["event"] == "standings" and int(msg["id"]) == hub.seq and msg["data"]["state"] == "playing"
    first.close()
    t = room(1)[0]
    ack = t.ack_for(t.key_form(draw_game(1, 1), game=1))
    assert ack["ok"]
    shown_by_the_hub(hub, ack["seq"])

    # its view still kept: what changed since, drawn on the view it holds
    behind = SSE(server.url, last_event_id=first.seq, holding=first.view)
    msg = behind.frame(within=1.0)
    assert msg["event"] == "change" and msg["data"]["base"] == first.seq and int(msg["id"]) == ack["seq"]
    same_as_fresh(behind, server)
    behind.close()

    # a seq whose view is not kept (never made, or long gone): the whole view
    gone = SSE(server.url, last_event_id=3)
    msg = gone.frame(within=1.0)
    assert msg["event"] == "standings" and int(msg["id"]) == hub.seq
    gone.close()

    current = SSE(server.url, last_event_id=hub.seq)
    seen = [current.next() for _ in range(3)]   # retry, boards, then a keep-alive ping
    assert not any(m.get("event") in ("standings", "change") for m in seen)
    assert {"comment": "ping"} in seen
    current.close()


def test_one_entry_is_sent_as_what_changed_a_small_part_of_the_view(hub, server, room):
    """At 50 tables the view is about 25 KB; an entry changes a table and its four players."""
    make_party(hub, 50)
    sse = SSE(server.url)
    whole = sse.frame()
    assert whole["event"] == "standings"
    t = room(1)[0]
    for game in (1, 2):
        ack = t.ack_for(t.key_form(draw_game(1, game), game=game))
        assert ack["ok"]
        sse.shows(ack["seq"])
        same_as_fresh(sse, server)
    # game 1 lifted four players over the 196 at nought; game 2 reorders those four at most
    frames = []
    ack = t.ack_for(t.key_form(draw_game(1, 3), game=3))
    while sse.seq < ack["seq"]:
        frames.append(sse.frame())
    assert all(f["event"] == "change" for f in frames), [f["event"] for f in frames]
    assert frames[-1]["bytes"] * 10 < whole["bytes"], (frames[-1]["bytes"], whole["bytes"])
    same_as_fresh(sse, server)
    sse.close()


def test_a_stream_that_skipped_views_sends_what_changed_since_the_one_it_sent(hub, server, room, monkeypatch):
    """A stream still writing to a slow screen while the hub makes views sends, when it is
    free, the change from the view it sent last; past the views kept, the whole view."""
    from web.projection import KEPT
    make_party(hub, 5)   # no table keys its fourth game: no bell
    passes, framed = threading.Semaphore(0), hub.tail.framed

    def slow(seq, written, stream):   # the stream, having written a frame, held up until let pass
        framed(seq, written, stream)
        passes.acquire(timeout=30)
    monkeypatch.setattr(hub.tail, "framed", slow)
    tables = room(5)
    keyed = {t.table: 0 for t in tables}

    def entries(n: int) -> int:
        """`n` entries round the tables, each shown by the hub in a view of its own."""
        for i in range(n):
            t = tables[i % 5]
            keyed[t.table] += 1
            ack = t.ack_for(t.key_form(draw_game(t.table, keyed[t.table]), game=keyed[t.table]))
            assert ack["ok"], ack
            shown_by_the_hub(hub, ack["seq"])
        return ack["seq"]

    try:
        sse = SSE(server.url)
        sent = int(sse.frame()["id"])   # the whole view; the stream is held up after it
        last = entries(3)
        passes.release()
        msg = sse.frame()
        assert msg["event"] == "change" and msg["data"]["base"] == sent and int(msg["id"]) == last
        assert len({s for s, _, _ in hub.tail.views if sent < s <= last}) >= 3   # two views skipped
        same_as_fresh(sse, server)

        last = entries(KEPT + 1)   # the view it sent last is no longer kept
        passes.release()
        msg = sse.frame()
        assert msg["event"] == "standings" and int(msg["id"]) == last
        same_as_fresh(sse, server)
        sse.close()
    finally:
        passes.release(100)


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
    hidden = sse.until(lambda m: "id" in m)   # the whole view, not a change of the shown one
    assert hidden["event"] == "standings"
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
        sse.shows(hub.seq)
    t = room(1)[0]
    before = len(made)
    ack = t.ack_for(t.key_form(draw_game(1, 1), game=1))
    assert ack["ok"]
    for sse in screens:
        sse.shows(ack["seq"])
        assert next(r for r in sse.view["tables"] if r["table"] == 1)["games"] == 1
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
