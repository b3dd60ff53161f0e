"""A stand-in for the hub, for firmware tests and benches: it speaks the hub's
side of docs/protocol.md with paho-mqtt and nothing more (no rules, no
journal file), so the firmware can be drilled and measured on its own.
The real hub is hub/service.py."""
from __future__ import annotations

import hashlib
import json
import threading
import time

import paho.mqtt.client as mqtt

from hardware import protocol as P


def form(game: int) -> dict:
    """A result form like the scoring engine's: both sides' spots and who dominoed."""
    return {"game": game, "title": f"GAME {game}", "fields": [
        {"k": "A", "label": "A SPOTS", "min": 0, "max": 200},
        {"k": "B", "label": "B SPOTS", "min": 0, "max": 200},
        {"k": "W", "label": "DOMINO BY", "seat": True},
    ]}


FORM = form(2)


class HubDouble:
    """The hub's side of the protocol, as the real hub does it: records events
    once per id (its journal), acks each after recording, keeps its status and
    each table's screen retained, and republishes them on every connect (a
    broker restart without persistence forgets retained messages)."""

    def __init__(self, host: str, port: int):
        self.journal: dict[str, dict] = {}  # event id -> first event with that id
        self.received: list[dict] = []  # every event as it arrived, resends included
        self.arrived: dict[str, float] = {}  # event id -> time.monotonic() of its first arrival
        self.statuses: list[dict] = []
        self.heartbeats: list[dict] = []
        self.verdict = lambda ev: {"ok": True, "msg": f"GAME {ev['body'].get('game', '')} SAVED"
                                   if ev["kind"] == "result" else "OK"}
        self.hold = False  # True: record but do not ack (the hub is slow or its acks are lost)
        self.screens: dict[int, dict] = {}
        self.state = "online"
        self.status_fields: dict = {}  # what else its status says: its replica's `safe`, `restored`
        self._cond = threading.Condition()
        self._seq = 0
        self.acked_seq: dict[str, int] = {}  # event id -> the journal seq its ok ack gave
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-hub")
        c.will_set(P.HUB_STATUS, json.dumps({"v": 1, "state": "offline"}), 1, True)
        c.reconnect_delay_set(0.1, 0.5)
        c.on_connect = self._on_connect
        c.on_message = self._on_message
        self.client = c
        c.connect(host, port, keepalive=10)
        c.loop_start()
        self.wait(lambda: c.is_connected(), 5)

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        client.subscribe([(P.table_topic("+", P.EVENT), 1), (P.table_topic("+", P.STATUS), 1),
                          (P.table_topic("+", P.HEARTBEAT), 0)])
        client.publish(P.HUB_STATUS, json.dumps(self._status()), 1, True)
        for table, screen in self.screens.items():
            client.publish(P.table_topic(table, P.SCREEN), json.dumps(screen), 1, True)

    def _on_message(self, client, userdata, msg):
        payload = json.loads(msg.payload)
        with self._cond:
            if msg.topic.endswith("/" + P.STATUS):
                self.statuses.append(payload)
            elif msg.topic.endswith("/" + P.HEARTBEAT):
                self.heartbeats.append(payload)
            else:
                self.received.append(payload)
                self.arrived.setdefault(payload["id"], time.monotonic())
                self.journal.setdefault(payload["id"], payload)
                if not self.hold:
                    self.ack(payload)
            self._cond.notify_all()

    def ack(self, ev: dict, **verdict) -> None:
        verdict = verdict or self.verdict(ev)
        client_msg = {"v": 1, "id": ev["id"], **verdict}
        if verdict.get("ok"):  # a resend is acknowledged with its first seq, as the hub does
            if ev["id"] not in self.acked_seq:
                self._seq += 1
                self.acked_seq[ev["id"]] = self._seq
            client_msg["seq"] = self.acked_seq[ev["id"]]
            client_msg.setdefault("seal", hashlib.sha256(b"%d" % client_msg["seq"]).hexdigest())  # as a seal looks
        self.client.publish(P.table_topic(ev["table"], P.ACK), json.dumps(client_msg), 1)

    def seq_base(self, seq: int) -> None:
        """Number the next journaled event seq + 1 (a party under way)."""
        self._seq = seq

    def ack_all(self) -> None:
        for ev in list(self.journal.values()):
            self.ack(ev)

    def screen(self, table: int, **fields) -> None:
        s = {"v": 1, "seq": 1, "table": table, "state": "playing",
             "lines": [f"TABLE {table}", "SESSION 1", "GAME 2 OF 4"], "bell": None, "form": FORM}
        s.update(fields)
        self.screens[table] = s
        self.client.publish(P.table_topic(table, P.SCREEN), json.dumps(s), 1, True)

    def bell(self, bell_id: str, meaning: str) -> None:
        self.client.publish(P.ALL_CMD, json.dumps(
            {"v": 1, "cmd": "bell", "bell": {"id": bell_id, "meaning": meaning}}), 1)

    def _status(self) -> dict:
        return {"v": 1, "state": self.state, **(self.status_fields if self.state == "online" else {})}

    def set_status(self, state: str, **fields) -> None:
        """Publish the hub's status; `fields` (e.g. safe=, restored=) replace the extra ones."""
        self.state, self.status_fields = state, fields
        self.client.publish(P.HUB_STATUS, json.dumps(self._status()), 1, True)

    def events(self, kind: str | None = None) -> list[dict]:
        with self._cond:
            return [e for e in self.received if kind is None or e["kind"] == kind]

    def wait(self, test, timeout: float = 10.0):
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (result := test()):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"hub: condition not met in {timeout} s; received {self.received}")
                self._cond.wait(min(left, 0.1))
            return result

    def stop(self) -> None:
        self.client.disconnect()  # first: the loop thread then ends at once, not at its next 1 s poll
        self.client.loop_stop()
