"""A hub on the test's own broker, and tables that speak the protocol with paho."""
import json
import queue
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hub.service import Hub
from hub.setup import create_party


class ProtocolTable:
    """A table's side of docs/protocol.md, without firmware: for probing the hub."""

    def __init__(self, broker, table: int, board: str | None = None):
        self.table, self.board = table, board or f"probe-{table}"
        self.acks: queue.Queue = queue.Queue()
        self.screens: list[dict] = []
        self.cmds: list[dict] = []
        self._seq = 0
        self._subscribed = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{self.board}-{time.monotonic_ns()}")
        c.on_message = self._on_message
        c.on_subscribe = lambda *a: self._subscribed.set()
        c.connect(broker.host, broker.port)
        c.subscribe([(f"party/table/{table}/ack", 1), (f"party/table/{table}/screen", 1), ("party/all/cmd", 1)])
        c.loop_start()
        assert self._subscribed.wait(5)
        self.client = c

    def _on_message(self, client, userdata, m):
        msg = json.loads(m.payload)
        if m.topic.endswith("/ack"):
            self.acks.put(msg)
        elif m.topic.endswith("/screen"):
            self.screens.append(msg)
        else:
            self.cmds.append(msg)

    def next_id(self) -> str:
        self._seq += 1
        return f"{self.board}.1.{self._seq}"

    def send_raw(self, payload: bytes, table: int | None = None) -> None:
        self.client.publish(f"party/table/{table or self.table}/event", payload, qos=1).wait_for_publish(5)

    def send(self, kind: str, body: dict, event_id: str | None = None, **envelope) -> str:
        event_id = event_id or self.next_id()
        msg = {"v": 1, "id": event_id, "table": self.table, "kind": kind, "body": body, **envelope}
        self.send_raw(json.dumps(msg).encode())
        return event_id

    def ack_for(self, event_id: str, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.acks.get(timeout=max(0.01, deadline - time.monotonic()))
            if msg["id"] == event_id:
                return msg

    def no_ack(self, within: float = 1.0) -> bool:
        try:
            self.acks.get(timeout=within)
        except queue.Empty:
            return True
        return False

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def make_hub(broker, tmp_path):
    """Start a hub on the test's broker; the same journal file survives restarts."""
    hubs = []

    def start(tables: int = 4, form: str = "draw") -> Hub:
        hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
        if hub.seq == 0:
            assert create_party(hub, tables=tables, form=form).ok
        hubs.append(hub)
        return hub

    yield start
    for hub in hubs:
        hub.stop()


@pytest.fixture
def table(broker):
    tables = []

    def connect(n: int, board: str | None = None) -> ProtocolTable:
        t = ProtocolTable(broker, n, board)
        tables.append(t)
        return t

    yield connect
    for t in tables:
        t.close()
