"""The skeleton's path on real parts: a key pressed on a virtual board (the real
firmware on the MicroPython unix port) → a real broker → the hub → its journal →
the projected standings read over HTTP/SSE; and nothing lost or doubled when the
broker or the hub dies between the keypress and the acknowledgement."""
from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hardware.sim.board import VirtualBoard
from hardware.sim.party import key_in
from hub import conductor
from party.broker import free_port, wait_for_port
from party.hands import played_values
from hub.journal import open_reader, read_events
from hub.service import Hub
from party.keyed import hand_as_seen, seats_as_seen
from party.setup import create_party, guest_names, seat_guests, start_session
from web import create_app, frames, projection
from web.server import WebServer

pytestmark = pytest.mark.broker

TABLE = 3
WAIT = 30.0  # generous: CI runs this beside the rest of the suite on two cores


def set_up_party(hub: Hub) -> None:
    assert create_party(hub, tables=3, form="draw").ok
    assert seat_guests(hub, guest_names(12), seed=5).ok
    assert start_session(hub, 1).ok


def seat_check_seen(state, n: int) -> dict:
    """Table n's seat check as its guests key it: the cards they hold."""
    return seats_as_seen(state.session.tables[n].seats)


def result_values(state, n: int, game: int) -> dict:
    return played_values(state.setup, state.session.tables[n].seats, random.Random(game), lead=game == 1)


def seen(state, n: int, game: int, values: dict) -> dict:
    """Game `game`'s values as table n's guests read them on the board (the first asks who led)."""
    return hand_as_seen(state.setup, state.session.tables[n].seats, values, lead=game == 1)


def journaled(path, kind: str = "table.result") -> list[tuple[str, dict]]:
    return [(e.id, e.body) for e in journal_events(path) if e.kind == kind]


class Sniffer:
    """Counts what table 3's board publishes, as the broker sees it."""

    def __init__(self, broker):
        self.events: list[dict] = []
        c = mqtt.Client(CallbackAPIVersion.VERSION2)
        c.on_message = lambda cl, u, m: self.events.append(json.loads(m.payload))
        c.connect(broker.host, broker.port)
        c.subscribe(f"party/table/{TABLE}/event", 1)
        c.loop_start()
        self.client = c

    def sent(self, kind: str) -> list[dict]:
        return [e for e in self.events if e.get("kind") == kind]

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def board(broker, tmp_path):
    b = VirtualBoard(TABLE, broker.host, broker.port, data_dir=tmp_path / "board", resend_s=2).start()
    yield b
    b.stop()


def test_a_result_keyed_at_table_3_reaches_the_standings_stream_and_the_boards_display(broker, tmp_path, board):
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    web = WebServer(create_app(hub, SSE_PING_SECONDS=1.0)).start()
    try:
        set_up_party(hub)
        stream = urllib.request.urlopen(web.url + "stream", timeout=10)
        updates: queue.Queue = queue.Queue()

        def read():   # the view a screen draws: the whole, then each change applied to it
            kind, view = None, None
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind in ("standings", "change"):
                    data = json.loads(line[6:])
                    view = data if kind == "standings" else frames.applied(view, data)
                    updates.put(view)

        threading.Thread(target=read, daemon=True).start()
        board.wait_for("# SEAT CHECK", timeout=WAIT)
        assert key_in(board, 0, seat_check_seen(hub.state, TABLE))
        board.wait_for("# ENTER GAME 1", timeout=WAIT)
        assert key_in(board, 1, seen(hub.state, TABLE, 1, result_values(hub.state, TABLE, 1)))

        # The hub's ack, on the table's own display (a passing message: look at every frame).
        board.wait_for(lambda _: any("GAME 1 SAVED" in line for f in board.frames for line in f), timeout=WAIT)
        deadline, data = time.monotonic() + WAIT, None
        while data is None or next(t for t in data["tables"] if t["table"] == TABLE)["games"] != 1:
            try:
                data = updates.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"game 1 of table 3 not on the stream; last standings: {data}")
        assert len(journaled(hub.journal.path)) == 1
        # The standings are derived from the journal: what the screen shows equals a replay.
        replayed = conductor.replay(hub.journal.events())
        assert data == projection.view(conductor.standings(replayed), replayed, hidden=False)
    finally:
        web.stop()
        hub.stop()


def test_a_screen_that_reconnects_catches_up_from_its_last_event_id(broker, tmp_path):
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    web = WebServer(create_app(hub, SSE_PING_SECONDS=0.5)).start()
    try:
        assert create_party(hub, tables=3, form="draw").ok
        seen = hub.seq

        def messages(last_id: int | None, until: str) -> list[str]:
            """The stream's id and ping lines, from its first to `until`."""
            req = urllib.request.Request(web.url + "stream")
            if last_id is not None:
                req.add_header("Last-Event-ID", str(last_id))
            seen_lines = []
            with urllib.request.urlopen(req, timeout=5) as resp:
                for raw in resp:
                    line = raw.decode().rstrip("\n")
                    if line.startswith(("id:", ": ping")):
                        seen_lines.append(line)
                        if line == until:
                            return seen_lines
            raise AssertionError(f"stream ended after {seen_lines}")

        # Up to date: only keep-alive pings. Behind (the party moved on): the standings at
        # once, then each newer view until the latest (the projection's follower may still
        # be making it when the screen connects: its first may be a view between the two).
        assert messages(seen, until=": ping") == [": ping"]
        assert seat_guests(hub, guest_names(12), seed=5).ok
        got = messages(seen, until=f"id: {hub.seq}")
        assert got[0].startswith("id:") and int(got[0][3:]) > seen
    finally:
        web.stop()
        hub.stop()


def test_broker_restart_between_keypress_and_ack_loses_and_doubles_nothing(broker, tmp_path, board):
    journal = tmp_path / "journal.sqlite3"
    hub = Hub(journal, broker.host, broker.port).start()
    set_up_party(hub)
    board.wait_for("# SEAT CHECK", timeout=WAIT)
    assert key_in(board, 0, seat_check_seen(hub.state, TABLE))
    board.wait_for("# ENTER GAME 1", timeout=WAIT)
    values = result_values(hub.state, TABLE, 1)
    meant = seen(hub.state, TABLE, 1, values)
    hub.stop()  # no hub to acknowledge: the entry waits in the board's outbox
    board.wait_for("HUB?", timeout=WAIT)
    assert key_in(board, 1, meant)
    board.wait_for("PEND 1", timeout=WAIT)
    broker.stop()  # the broker dies with the entry unacknowledged…
    time.sleep(1)
    broker.start()  # …and comes back on the same port, remembering nothing
    hub = Hub(journal, broker.host, broker.port).start()
    try:
        board.wait_for(lambda lines: "PEND" not in lines[-1] and "HUB?" not in lines[-1], timeout=WAIT)
        results = journaled(journal)
        assert len(results) == 1 and results[0][1]["values"] == values
    finally:
        hub.stop()


def _hub_process(journal, broker) -> subprocess.Popen:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "party.cli", "run", "--journal", str(journal),
         "--broker", f"{broker.host}:{broker.port}", "--http", f"127.0.0.1:{port}"],
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    wait_for_port("127.0.0.1", port, timeout=20)
    proc.http_port = port
    return proc


def test_hub_killed_and_restarted_loses_and_doubles_nothing(broker, tmp_path, board):
    journal = tmp_path / "journal.sqlite3"
    hub = Hub(journal, broker.host, broker.port).start()
    set_up_party(hub)
    state = hub.state
    hub.stop()
    sniffer = Sniffer(broker)
    proc = _hub_process(journal, broker)
    try:
        board.wait_for("# SEAT CHECK", timeout=WAIT)
        assert key_in(board, 0, seat_check_seen(state, TABLE))
        board.wait_for("# ENTER GAME 1", timeout=WAIT)
        state = conductor.replay(journal_events(journal))
        values = result_values(state, TABLE, 1)
        proc.send_signal(signal.SIGKILL)  # the hub dies: no orderly goodbye
        proc.wait()
        assert key_in(board, 1, seen(state, TABLE, 1, values))
        board.wait_for("PEND 1", timeout=WAIT)
        proc = _hub_process(journal, broker)
        board.wait_for(lambda lines: "PEND" not in lines[-1], timeout=WAIT)
        # Killed again after the ack: the restarted hub replays to the same party.
        before = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{proc.http_port}/standings.json").read())
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc = _hub_process(journal, broker)
        after = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{proc.http_port}/standings.json").read())
        # The party is the journal's; a board's liveness is telemetry the new hub has not heard yet.
        assert (after["seq"], after["standings"]) == (before["seq"], before["standings"])
        results = journaled(journal)
        assert [body["values"] for _, body in results] == [values]
        assert len(sniffer.sent("result")) >= 2  # the board did resend it; the journal kept one
    finally:
        proc.kill()
        proc.wait()
        sniffer.close()


def journal_events(path):
    with contextlib.closing(open_reader(path)) as db:
        return list(read_events(db))
