"""Tables that speak docs/protocol.md with paho, without the firmware: for probing the
hub, and the room of the screens' tests and the benches.

Each behaves as a board does where the screens can tell: it reads its retained
screen, acknowledges every conductor's bell once (from the broadcast or the
screen, whichever comes first) and keys results on demand, keeping the ids
`<board>.<boot>.<seq>`. It stands in for the firmware so that fifty of them
fit in one test process; the firmware's own behaviour is tested with it.
"""
from __future__ import annotations

import json
import queue
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from hardware import protocol as P


class ProtocolTable:
    def __init__(self, host: str, port: int, table: int, board: str | None = None, ack_bells: bool = True):
        self.table, self.board = table, board or f"sim-{table}"
        self.ack_bells = ack_bells   # False: a board that shows the bell but whose ack never arrives
        self.acks: queue.Queue = queue.Queue()
        self.screen: dict | None = None
        self.bells_seen: dict[str, str] = {}     # bell id -> meaning, as shown
        self.screens: list[dict] = []            # every screen received, oldest first
        self.cmds: list[dict] = []               # every broadcast received
        self._seq = 0
        self._lock = threading.Lock()
        self._screen_changed = threading.Condition(self._lock)
        self._subscribed = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{self.board}-{time.monotonic_ns()}")
        c.on_message = self._on_message
        c.on_subscribe = lambda *a: self._subscribed.set()
        c.on_connect = self._on_connect
        c.will_set(self._topic("status"), json.dumps({"v": 1, "state": "offline", "board": self.board}), 1, True)
        c.connect(host, port)
        c.loop_start()
        if not self._subscribed.wait(10):
            raise TimeoutError(f"table {table} could not subscribe")
        self.client = c

    def _topic(self, leaf: str) -> str:
        return P.table_topic(self.table, leaf)

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        client.subscribe([(self._topic("ack"), 1), (self._topic("screen"), 1), (P.ALL_CMD, 1)])
        client.publish(self._topic("status"),
                       json.dumps({"v": 1, "state": "online", "board": self.board, "boot": 1, "fw": "test"}), 1, True)

    def _on_message(self, client, userdata, m):
        msg = json.loads(m.payload)
        if m.topic.endswith("/" + P.ACK):
            self.acks.put(msg)
            return
        bell = msg.get("bell")
        if m.topic.endswith("/" + P.SCREEN):
            with self._lock:
                self.screen = msg
                self.screens.append(msg)
                self._screen_changed.notify_all()
        else:
            self.cmds.append(msg)
        if bell:
            self._show_bell(bell)

    def _show_bell(self, bell: dict) -> None:
        """A board acknowledges each bell id once, after showing it."""
        with self._lock:
            if bell["id"] in self.bells_seen:
                return
            self.bells_seen[bell["id"]] = bell["meaning"]
        if self.ack_bells:
            self.send("bell-ack", {"bell": bell["id"]})

    def next_id(self) -> str:
        with self._lock:
            self._seq += 1
            return f"{self.board}.1.{self._seq}"

    def send(self, kind: str, body: dict, event_id: str | None = None, **envelope) -> str:
        """Publish an event (a fresh id unless one is given; `envelope` overrides fields)."""
        event_id = event_id or self.next_id()
        msg = {"v": 1, "id": event_id, "table": self.table, "kind": kind, "body": body, **envelope}
        self.send_raw(json.dumps(msg).encode())
        return event_id

    def send_raw(self, payload: bytes) -> None:
        """Any payload at all on this table's event topic, as a broken or hostile board might."""
        self.client.publish(self._topic("event"), payload, qos=1)

    def heartbeat(self, rssi: int = -60, battery: int | None = None) -> None:
        self.client.publish(self._topic("heartbeat"), json.dumps(
            {"v": 1, "board": self.board, "up": 1, "outbox": 0, "rssi": rssi, "battery": battery}), 0)

    def ack_for(self, event_id: str, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.acks.get(timeout=max(0.01, deadline - time.monotonic()))
            if msg["id"] == event_id:
                return msg

    def no_ack(self, within: float = 1.0) -> bool:
        """True if no ack at all arrives within `within` seconds."""
        try:
            self.acks.get(timeout=within)
        except queue.Empty:
            return True
        return False

    def wait_bell(self, timeout: float = 10.0) -> dict[str, str]:
        deadline = time.monotonic() + timeout
        while not self.bells_seen and time.monotonic() < deadline:
            time.sleep(0.02)
        return dict(self.bells_seen)

    def wait_screen(self, test, timeout: float = 10.0) -> dict:
        """The first retained screen for which `test(screen)` holds."""
        with self._lock:
            if not self._screen_changed.wait_for(lambda: self.screen is not None and test(self.screen), timeout):
                raise TimeoutError(f"table {self.table}: screen never matched; last {self.screen}")
            return self.screen

    def key_form(self, values: dict | None = None, game: int | None = None) -> str:
        """Key the screen's form (for `game`, if given) as a player would: `values`, and
        for any field not in them the first value the field allows."""
        form = self.wait_screen(lambda s: s.get("form") is not None and
                                (game is None or s["form"].get("game") == game))["form"]
        keyed = {f["k"]: (values or {}).get(f["k"], f.get("min", 0)) for f in form["fields"]}
        kind = form.get("kind", "result")
        if kind == "seat-check":
            return self.send("seat-check", {"cards": keyed})
        return self.send("result", {"game": form["game"], "values": keyed})

    def drop(self) -> None:
        """The board dies without a goodbye: the broker publishes its last will (offline)."""
        self.client.loop_stop()
        self.client.socket().close()

    def close(self) -> None:
        self.client.publish(self._topic("status"), json.dumps({"v": 1, "state": "offline", "board": self.board}), 1, True)
        self.client.loop_stop()
        self.client.disconnect()
