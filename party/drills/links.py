"""The network a drill breaks: a TCP link between one board and the broker that can be
cut, and the production broker (Mosquitto with `party provision`'s password file and ACL)."""
from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from hub import protocol

from party.broker import Mosquitto, best_available, free_port
from party.provision import mosquitto_lines, password_tool, provision


class Link:
    """A TCP relay between one board and the broker: `cut()` drops its connections
    and refuses new ones, as a board out of WiFi range; `heal()` lets it back."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.host, self.port = "127.0.0.1", free_port()
        self._cut = threading.Event()
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._server = socket.create_server((self.host, self.port))
        threading.Thread(target=self._accept, daemon=True, name="link-accept").start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if self._cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                s.settimeout(None)
            with self._lock:
                self._socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True, name="link-pipe").start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                if self._cut.is_set():
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            _close(s)

    def cut(self) -> None:
        self._cut.set()
        with self._lock:
            socks, self._socks = self._socks, []
        for s in socks:
            _close(s)

    def heal(self) -> None:
        self._cut.clear()

    def close(self) -> None:
        self.cut()
        self._server.close()


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()


def provisioned_broker(tables: int, work: Path):
    """(broker, provisioned directory): Mosquitto with the password file and ACL of
    `party provision`; or the test broker and None where mosquitto is not installed."""
    if password_tool() is None or not Mosquitto.available():
        return best_available().start(), None
    out = work / "provisioned"
    provision(tables, out)
    # Started as root, mosquitto drops to a user who cannot read the owner-only files.
    as_root = "user root\n" if os.geteuid() == 0 else ""
    return Mosquitto(conf_extra=mosquitto_lines(out) + as_root).start(), out


class Traffic:
    """The tables' events and the hub's acks as they pass the broker, timed: when the
    first ack came after a moment, which acknowledged entries the boards sent again."""

    def __init__(self, broker):
        # (monotonic, "event"/"ack", event id, ok, the ack's seq or why)
        self.seen: list[tuple[float, str, str, bool, object]] = []
        self._lock = threading.Lock()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="drill-traffic")
        c.on_connect = lambda client, *a: client.subscribe([(protocol.table_topic("+", "event"), 1),
                                                                    (protocol.table_topic("+", "ack"), 1)])
        c.on_message = self._on_message
        c.connect(broker.host, broker.port)
        c.loop_start()
        self.client = c

    def _on_message(self, client, userdata, msg) -> None:
        try:
            m = json.loads(msg.payload)
            ok = m.get("ok") is True
            entry = (time.monotonic(), msg.topic.rsplit("/", 1)[1], str(m["id"]), ok, m.get("seq") if ok else m.get("why"))
        except (ValueError, KeyError, TypeError):
            return
        with self._lock:
            self.seen.append(entry)

    def acked_before(self, t: float) -> set[str]:
        with self._lock:
            return {i for at, leaf, i, ok, _ in self.seen if leaf == "ack" and ok and at < t}

    def acked_seqs(self, since: float, until: float) -> dict[str, int]:
        """{id: seq} of the entries acknowledged between two moments (by the hub of that time)."""
        with self._lock:
            return {i: seq for at, leaf, i, ok, seq in self.seen if leaf == "ack" and ok and since <= at < until}

    def verdicts(self) -> dict[str, set]:
        """Each id's verdicts as the boards heard them: (True, seq) or (False, why)."""
        out: dict[str, set] = {}
        with self._lock:
            for _, leaf, i, ok, said in self.seen:
                if leaf == "ack":
                    out.setdefault(i, set()).add((ok, said))
        return out

    def first_ack_after(self, t: float) -> float | None:
        with self._lock:
            return next((at for at, leaf, _, _, _ in self.seen if leaf == "ack" and at > t), None)

    def sent_after(self, t: float, ids: set[str]) -> set[str]:
        with self._lock:
            return {i for at, leaf, i, _, _ in self.seen if leaf == "event" and at > t and i in ids}

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
