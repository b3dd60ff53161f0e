"""A small asyncio MQTT 3.1.1 client for the benches: hundreds of tables in one process.

paho runs a thread per client; two hundred of them in one process spend the
benchmark's time fighting over the GIL, and the figures would be the load
generator's, not the hub's. This client is one coroutine per connection on one
event loop: CONNECT (clean session, optional will), SUBSCRIBE, PUBLISH at QoS 0
or 1 (a future resolved by the broker's PUBACK), and incoming PUBLISH (QoS 1
answered with PUBACK) handed to a callback. TCP_NODELAY as every client of
docs/protocol.md sets it. No keep-alive (a bench run is short), no QoS 2.
"""
from __future__ import annotations

import asyncio
import socket
import struct
from typing import Callable

CONNECT, CONNACK, PUBLISH, PUBACK, SUBSCRIBE, SUBACK, DISCONNECT = 1, 2, 3, 4, 8, 9, 14


def _length(n: int) -> bytes:
    out = bytearray()
    while True:
        n, digit = n >> 7, n & 0x7F
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _string(s: str | bytes) -> bytes:
    b = s.encode() if isinstance(s, str) else s
    return struct.pack("!H", len(b)) + b


def _packet(kind: int, flags: int, body: bytes) -> bytes:
    return bytes([(kind << 4) | flags]) + _length(len(body)) + body


def publish_packet(topic: str, payload: bytes, qos: int, retain: bool, pid: int) -> bytes:
    body = _string(topic) + (struct.pack("!H", pid) if qos else b"") + payload
    return _packet(PUBLISH, (qos << 1) | int(retain), body)


class LiteClient:
    """One MQTT connection. `on_message(topic, payload)` runs on the event loop."""

    def __init__(self, client_id: str, on_message: Callable[[str, bytes], None] | None = None):
        self.client_id, self.on_message = client_id, on_message
        self._pid = 0
        self._waiting: dict[int, asyncio.Future] = {}
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task | None = None

    async def connect(self, host: str, port: int, will: tuple[str, bytes, int, bool] | None = None) -> None:
        reader, self._writer = await asyncio.open_connection(host, port)
        self._writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        flags, payload = 0x02, _string(self.client_id)  # clean session
        if will:
            topic, message, qos, retain = will
            flags |= 0x04 | (qos << 3) | (0x20 if retain else 0)
            payload += _string(topic) + _string(message)
        self._writer.write(_packet(CONNECT, 0, _string("MQTT") + bytes([4, flags]) + struct.pack("!H", 0) + payload))
        connack = asyncio.get_running_loop().create_future()
        self._waiting[-1] = connack
        self._reader_task = asyncio.create_task(self._read(reader))
        code = await asyncio.wait_for(connack, 10)
        if code:
            raise ConnectionError(f"broker refused {self.client_id}: return code {code}")

    def _next_pid(self) -> int:
        self._pid = self._pid % 65535 + 1
        return self._pid

    async def subscribe(self, topics: list[tuple[str, int]]) -> None:
        pid = self._next_pid()
        done = asyncio.get_running_loop().create_future()
        self._waiting[pid] = done
        body = struct.pack("!H", pid) + b"".join(_string(t) + bytes([q]) for t, q in topics)
        self._writer.write(_packet(SUBSCRIBE, 2, body))
        await asyncio.wait_for(done, 10)

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> asyncio.Future | None:
        """Send now; at QoS 1 the future resolves at the broker's PUBACK."""
        if qos == 0:
            self._writer.write(publish_packet(topic, payload, 0, retain, 0))
            return None
        pid = self._next_pid()
        done = asyncio.get_running_loop().create_future()
        self._waiting[pid] = done
        self._writer.write(publish_packet(topic, payload, qos, retain, pid))
        return done

    async def close(self) -> None:
        if self._writer is None:
            return
        try:
            self._writer.write(_packet(DISCONNECT, 0, b""))
            await self._writer.drain()
        except ConnectionError:
            pass
        self._writer.close()
        if self._reader_task:
            self._reader_task.cancel()
        self._writer = None

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                head = await reader.readexactly(2)
                kind, flags = head[0] >> 4, head[0] & 0x0F
                n, shift, byte = 0, 0, head[1]
                while True:
                    n |= (byte & 0x7F) << shift
                    if not byte & 0x80:
                        break
                    shift += 7
                    byte = (await reader.readexactly(1))[0]
                body = await reader.readexactly(n) if n else b""
                self._handle(kind, flags, body)
        except (asyncio.IncompleteReadError, ConnectionError):
            for f in self._waiting.values():
                if not f.done():
                    f.set_exception(ConnectionError("connection closed"))
        except asyncio.CancelledError:
            pass

    def _handle(self, kind: int, flags: int, body: bytes) -> None:
        if kind == PUBLISH:
            (tlen,) = struct.unpack_from("!H", body)
            topic = body[2:2 + tlen].decode()
            qos, at = (flags >> 1) & 3, 2 + tlen
            if qos:
                self._writer.write(_packet(PUBACK, 0, body[at:at + 2]))
                at += 2
            if self.on_message:
                self.on_message(topic, body[at:])
        elif kind in (PUBACK, SUBACK):
            f = self._waiting.pop(struct.unpack_from("!H", body)[0], None)
            if f and not f.done():
                f.set_result(None)
        elif kind == CONNACK:
            self._waiting.pop(-1).set_result(body[1])
