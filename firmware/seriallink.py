# The link of a board without WiFi: the same interface as MQTTClient (run,
# isconnected, publish, beat) over USB serial, one JSON line per message,
# {"topic": ..., "payload": {...}} (docs/protocol.md, USB-serial boards).
# hub/serial_bridge.py carries the lines to and from the broker, subscribes
# to this board's topics for it and holds its last will.
#
# The bridge repeats the hub's status every few seconds, so silence means the
# bridge (or the cable) is gone: the link counts as down and the app shows HUB?.
# A bridge that started after us (hub rebooted, bridge restarted) missed our
# first line: it asks on WHO until it knows our table, and we answer each ask.
import asyncio
import json
import sys
from time import ticks_diff, ticks_ms

SILENT_MS = 30000
WHO = "party/serial/who"  # hub/protocol.py SERIAL_WHO


class SerialLink:
    def __init__(self, device, announce, subs=(), on_message=None, on_connect=None, log=print):
        self.announce = announce  # (topic, payload): the board's status online
        self.device = device  # "usb": the board's own USB serial; else a device path (unix port)
        self.topics = [t for t, _ in subs]
        self.on_message = on_message
        self.on_connect = on_connect
        self.log = log
        self.beat = ticks_ms()
        self._heard = None
        self._up = False

    def isconnected(self):
        return self._heard is not None and ticks_diff(ticks_ms(), self._heard) < SILENT_MS

    async def publish(self, topic, payload, retain=False, qos=0):
        # Written only while the bridge is heard: nobody reading a tty means a
        # full buffer and a write that would block the whole loop.
        if not self.isconnected():
            raise OSError("bridge silent")
        self._write(topic, payload)

    def _write(self, topic, payload):
        if not isinstance(payload, str):
            payload = payload.decode()
        self._out.write(('{"topic": "%s", "payload": %s}\n' % (topic, payload)).encode())

    async def run(self):
        if self.device == "usb":
            inp, self._out = sys.stdin.buffer, sys.stdout.buffer
        else:  # a device path (unix port), or a stream the HAL made of it (hal/qemu.py: a UART)
            inp = self._out = open(self.device, "r+b") if isinstance(self.device, str) else self.device
        asyncio.create_task(self._read(asyncio.StreamReader(inp)))
        # Announce ourselves at once: the bridge learns our table from this line
        # (and asks again on WHO if it came up after us).
        self._write(*self.announce)
        while True:
            self.beat = ticks_ms()
            up = self.isconnected()
            if up and not self._up:
                self.log("serial: bridge heard")
                try:
                    await self.on_connect()
                except OSError as e:
                    self.log("serial: %r" % (e,))
            self._up = up
            await asyncio.sleep_ms(500)

    async def _read(self, stream):
        while True:
            line = await stream.readline()
            if not line:
                await asyncio.sleep_ms(1000)  # device closed; the cable may come back
                continue
            try:
                m = json.loads(line)
                topic = m["topic"]
                payload = json.dumps(m["payload"])
            except (ValueError, KeyError, TypeError):
                continue  # noise on the line (a log, a half line after a replug)
            self._heard = ticks_ms()
            if topic == WHO:
                self._write(*self.announce)
            elif topic in self.topics:
                try:
                    self.on_message(topic, payload, False)
                except Exception as e:  # a bad message must not stop the reader
                    self.log("serial: handler: %r" % (e,))
