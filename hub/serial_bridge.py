"""The bridge for table boards without WiFi: USB serial <-> MQTT.

    python -m hub.serial_bridge --port /dev/ttyACM0 --broker 127.0.0.1:1883

A board writes the protocol's envelopes as JSON lines {"topic": ..., "payload": {...}}
(docs/protocol.md, USB-serial boards; firmware/seriallink.py). The bridge learns
the board's table from its first line (its status `online`; a board that was up
before the bridge, or while the cable was out, is asked on `party/serial/who` until
it writes its status), then connects to
the broker as that board would: last will `offline` on the table's status,
TCP_NODELAY, subscriptions to the table's ack and screen, `party/all/cmd` and
`party/hub/status`, renewed on every connect. What arrives there is written
back to the board as JSON lines. The hub's status is repeated to the board
every few seconds, and `offline` is written when the broker is lost, so the
board can tell a silent bridge from a quiet hub and show HUB?.

A board publishes only its own table's event, status and heartbeat; any other
line is refused with a logged reason and nothing is published.
"""
from __future__ import annotations

import argparse
import json
import logging
import socket
import threading
import time

import paho.mqtt.client as mqtt
import serial

from .protocol import (ALL_CMD, BOARD_QOS, HUB_STATUS, MAX_PAYLOAD, SERIAL_WHO, VERSION, split_table_topic,
                       table_topic)

log = logging.getLogger(__name__)

HUB_OFFLINE = {"v": VERSION, "state": "offline"}


class SerialBridge:
    def __init__(self, port: str, host: str, mqtt_port: int, baudrate: int = 115200,
                 repeat_s: float = 5.0):
        self.port, self.host, self.mqtt_port = port, host, mqtt_port
        self.baudrate = baudrate
        self.repeat_s = repeat_s
        self.table: int | None = None
        self.board: str | None = None
        self.hub_status: dict = HUB_OFFLINE
        self.client: mqtt.Client | None = None
        self._serial: serial.Serial | None = None
        self._answered = False
        self._wlock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # --- life cycle ---------------------------------------------------------
    def start(self) -> "SerialBridge":
        self._open()
        for target in (self._read_serial, self._repeat):
            t = threading.Thread(target=target, daemon=True, name=f"serial-bridge-{target.__name__}")
            t.start()
            self._threads.append(t)
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(2)
        if self.client:
            self._board_gone()  # a clean disconnect sends no will: say offline ourselves
            self.client.disconnect()
            self.client.loop_stop()
        if self._serial:
            self._serial.close()

    def _open(self) -> None:
        # A write waits at most 1 s: a board that reads nothing must not stall the bridge.
        self._serial = serial.serial_for_url(self.port, self.baudrate, timeout=0.5, write_timeout=1)
        self._answered = False  # ask who is there until the board says

    def _reopen(self) -> None:
        # The cable was pulled: the device comes back under its path when it is
        # plugged in again. Try each second, for as long as it takes.
        self._serial.close()
        while not self._stop.wait(1):
            try:
                self._open()
            except (serial.SerialException, OSError):
                continue
            log.info("serial %s: open again", self.port)
            return

    # --- board -> broker ----------------------------------------------------
    def _read_serial(self) -> None:
        while not self._stop.is_set():
            try:
                raw = self._serial.readline()
            except (serial.SerialException, OSError) as e:
                log.warning("serial %s: %s; the board is gone, waiting for it", self.port, e)
                self._board_gone()
                self._reopen()
                continue
            if raw:
                self.handle_line(raw)

    def handle_line(self, raw: bytes) -> None:
        try:
            msg = json.loads(raw)
            topic, payload = msg["topic"], msg["payload"]
        except (ValueError, KeyError, TypeError):
            log.info("serial %s: not a message line, ignored: %r", self.port, raw[:80])
            return  # the board's own log lines share the wire
        where = split_table_topic(topic) if isinstance(topic, str) else None
        body = json.dumps(payload)
        if not where or not isinstance(payload, dict):
            log.warning("serial %s: refused: topic %r is not a board's", self.port, topic)
            return
        if len(body.encode()) > MAX_PAYLOAD:
            log.warning("serial %s: refused: payload over %d bytes", self.port, MAX_PAYLOAD)
            return
        table, kind = where
        if self.table is None:
            self.table, self.board = table, payload.get("board") or f"serial-{table}"
            self._connect()
        elif table != self.table:
            log.warning("serial %s: refused: table %d on the port of table %d", self.port, table, self.table)
            return
        elif kind == "status" and not self._answered:
            # Back after the cable was out: what was written meanwhile is lost, so
            # subscribe again for the retained screen and hub status.
            self._subscribe(self.client)
        if kind == "status":
            # Only its status answers the ask: a resend or a heartbeat may come first,
            # and the hub would not hear the table online again.
            self._answered = True
        self.client.publish(topic, body, BOARD_QOS[kind], retain=kind == "status")

    # --- broker -> board ----------------------------------------------------
    def _connect(self) -> None:
        t = self.table
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bridge-{self.board}")
        c.will_set(table_topic(t, "status"),
                   json.dumps({"v": VERSION, "state": "offline", "board": self.board}), 1, True)
        c.reconnect_delay_set(0.2, 5)
        c.on_socket_open = lambda client, userdata, sock: sock.setsockopt(
            socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        self.client = c
        c.connect_async(self.host, self.mqtt_port, keepalive=20)
        c.loop_start()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self._subscribe(client)

    def _subscribe(self, client: mqtt.Client) -> None:
        t = self.table
        client.subscribe([(table_topic(t, "ack"), 1), (table_topic(t, "screen"), 1),
                          (ALL_CMD, 1), (HUB_STATUS, 1)])

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.hub_status = HUB_OFFLINE  # without the broker the hub is out of reach
        self._write(HUB_STATUS, HUB_OFFLINE)

    def _on_message(self, client, userdata, msg):
        try:
            payload = json.loads(msg.payload)
        except ValueError:
            log.warning("mqtt %s: not JSON, not forwarded to the board", msg.topic)
            return
        if msg.topic == HUB_STATUS and isinstance(payload, dict):
            self.hub_status = payload
        self._write(msg.topic, payload)

    def _repeat(self) -> None:
        # The board counts the bridge gone after 30 s of silence; the hub's status
        # keeps it informed. Until the board writes its status on this opening of the
        # port, ask it who it is: it wrote it once at its start, perhaps before this
        # bridge was running or while the cable was out.
        while True:
            if not self._answered:
                self._write(SERIAL_WHO, {"v": VERSION})
            if self.table is not None:
                self._write(HUB_STATUS, self.hub_status)
            if self._stop.wait(self.repeat_s):
                return

    def _write(self, topic: str, payload) -> None:
        line = json.dumps({"topic": topic, "payload": payload}) + "\n"
        with self._wlock:
            try:
                self._serial.write(line.encode())
            except (serial.SerialException, OSError) as e:
                log.warning("serial %s: write failed: %s", self.port, e)

    def _board_gone(self) -> None:
        if self.client and self.table is not None:
            info = self.client.publish(table_topic(self.table, "status"),
                                       json.dumps({"v": VERSION, "state": "offline", "board": self.board}), 1, True)
            if self.client.is_connected():
                info.wait_for_publish(2)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="bridge a USB-serial table board to the MQTT broker")
    p.add_argument("--port", required=True, help="serial device, e.g. /dev/ttyACM0")
    p.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT")
    p.add_argument("--baud", type=int, default=115200)
    a = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    host, _, port = a.broker.rpartition(":")
    bridge = SerialBridge(a.port, host or "127.0.0.1", int(port), a.baud).start()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        bridge.stop()


if __name__ == "__main__":
    main()
