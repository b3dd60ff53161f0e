"""The hub's MQTT edge: paho's client, driven by the hub's writer thread.

paho's own loop (`loop_start`) runs a thread of its own: every event read there
was handed to the writer through a queue, every ack and screen the writer
published woke that thread through a socket pair, and the two threads passed the
GIL back and forth all through a batch; paho also reads a packet's fixed header a
byte at a time (three `recv`s and a `select` per event) and writes each packet
with a `send` of its own. That edge cost the hub a third of its CPU
(docs/performance.md). Here the writer's thread is the loop: it waits on the
broker's socket, reads every packet that has arrived, judges and journals them
as one batch, and writes the batch's replies — without a thread handoff, with one
`recv` for all the bytes the kernel holds and one `send` for all the replies.

What paho does stays paho's: the MQTT packets, the session, the keepalive, the
will, QoS 1's bookkeeping. Only its sockets are wrapped (`_Coalescing`), the TCP
connect is made on a thread of its own (a host that does not answer would hold
the writer for paho's `connect_timeout`), and its loop is this one (paho's
documented external-loop interface: `loop_read`, `loop_write`, `loop_misc`,
`want_write`, `on_socket_register_write`).
"""
from __future__ import annotations

import logging
import select
import socket
import threading
import time
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode

log = logging.getLogger("hub")

READ_SIZE = 65536  # one `recv` takes every packet the kernel holds, up to this
REPLY_QOS = 0   # the hub's acks, screens and bell (`Client.reply`; why: hub/service.py)


class _Coalescing:
    """A connected socket under paho: reads served from one `recv` of all that has
    arrived; writes gathered until `flush`, which sends them in one call.

    paho asks for a packet's bytes in small pieces (the command byte, the length
    byte by byte, the rest) and sends every packet by itself; a system call each."""

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self._in = b""
        self._at = 0
        self._out = bytearray()

    def recv(self, size: int) -> bytes:
        if self._at == len(self._in):
            data = self._sock.recv(max(size, READ_SIZE))   # BlockingIOError when nothing is there
            if len(data) <= size:
                return data
            self._in, self._at = data, 0
        piece = self._in[self._at:self._at + size]
        self._at += len(piece)
        return piece

    def pending(self) -> int:
        """Bytes read from the kernel that paho has not taken: `select` cannot see them."""
        return len(self._in) - self._at

    def publishes(self) -> list[tuple[bytes, bytes]]:
        """(topic, payload) of the PUBLISH packets at QoS 0 that lie whole at the front of
        what was read (one `recv` first where nothing is left), taken off it in order; the
        first packet that is anything else, or not all there yet, stays for paho. Only
        between two of paho's packets (`Link.poll`). A link that has ended reads nothing
        here: paho's own read finds it so."""
        if self._at == len(self._in):
            try:
                data = self._sock.recv(READ_SIZE)
            except OSError:   # nothing there, or the link's end
                return []
            self._in, self._at = data, 0
        buf, at, end, out = self._in, self._at, len(self._in), []
        while at < end and buf[at] & 0xF6 == 0x30:   # PUBLISH, QoS 0 (retained or not)
            i, length, shift = at + 1, 0, 0
            while i < end and shift < 28:   # the remaining length: 7 bits a byte, lowest first
                byte = buf[i]
                length |= (byte & 127) << shift
                shift, i = shift + 7, i + 1
                if byte < 128:
                    break
            else:
                break   # the length not all there (or past its 4 bytes: paho's to refuse)
            if i + length > end or length < 2:
                break
            topic_end = i + 2 + (buf[i] << 8 | buf[i + 1])
            if topic_end > i + length:
                break
            out.append((buf[i + 2:topic_end], buf[topic_end:i + length]))
            at = i + length
        self._at = at
        return out

    def send(self, data) -> int:
        self._out += data
        return len(data)

    def unsent(self) -> bool:
        return bool(self._out)

    def flush(self) -> None:
        """Send what was gathered, as much as the kernel takes now (the rest when the
        socket is writable again). An error is paho's to see: its next write fails."""
        while self._out:
            try:
                sent = self._sock.send(self._out)
            except BlockingIOError:
                return
            except OSError as exc:
                log.warning("writing to the broker failed: %s", exc)
                self._out.clear()
                return
            del self._out[:sent]

    def close(self) -> None:
        if self._out:   # paho's DISCONNECT is gathered here when paho closes the socket
            try:
                self._sock.setblocking(True)
                self._sock.settimeout(1.0)
                self._sock.sendall(self._out)
            except OSError:
                pass
        self._out.clear()
        self._sock.close()

    def fileno(self) -> int:
        return self._sock.fileno()

    def setblocking(self, flag: bool) -> None:
        self._sock.setblocking(flag)

    def setsockopt(self, *args) -> None:
        self._sock.setsockopt(*args)


class Client(mqtt.Client):
    """paho's client with its sockets wrapped for one `recv` and one `send` per batch,
    and connected beforehand by `Link`'s dialling thread (`dialled`)."""

    dialled: socket.socket | OSError | None = None

    def _create_socket(self):
        dialled, self.dialled = self.dialled, None
        if dialled is None:
            dialled = super()._create_socket()
        if isinstance(dialled, OSError):
            raise dialled
        return _Coalescing(dialled)

    def dial(self) -> socket.socket:
        """A TCP connection to the broker (blocks up to `connect_timeout`): paho's own."""
        return super()._create_socket()

    def reply(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Publish at REPLY_QOS, 0, from the loop's own thread (the hub's acks, screens and
        bell): the PUBLISH packet paho makes, put straight into the batch's buffer. paho's
        `publish` made a message record with a lock and a condition for each, queued it,
        and took it off its queue again at the flush: 2.5 us of the writer's time per
        publish, two publishes per result. Not connected, it is dropped, as paho drops a
        QoS 0 publish then: a board resends an event until it is acknowledged, and the
        hub republishes every screen after a reconnect.

        paho's `socket()` and `want_write()` read here as they read them (`_sock`, and
        `_out_packet` not empty): two calls less a reply, and every result has two."""
        sock = self._sock
        if sock is None:
            return
        if self._out_packet:
            self.loop_write()   # what paho queued before it goes before it
        sock.send(publish_packet(topic.encode(), payload, retain))


def publish_packet(topic: bytes, payload: bytes, retain: bool) -> bytes:
    """An MQTT 3.1.1 PUBLISH at QoS 0 (the hub's client speaks 3.1.1): the command
    byte, the remaining length (7 bits a byte, lowest first), the topic with its
    length, the payload."""
    remaining = 2 + len(topic) + len(payload)
    head = bytearray((0x31 if retain else 0x30,))
    while remaining > 127:
        head.append(remaining & 127 | 128)
        remaining >>= 7
    head.append(remaining)
    return b"".join((head, len(topic).to_bytes(2, "big"), topic, payload))


class Link:
    """paho's network loop, run by the thread that calls `poll` (the hub's writer).

    `heard(topic, payload)` is called for each message the broker sends, in order. A
    PUBLISH at QoS 0 (every one the hub subscribes to) that lies whole in what was read is
    taken by `_Coalescing.publishes` without paho: paho read it field by field and made a
    message record for each, about 110 k instructions of the 125 k the edge spent on each
    table's result in a rush (docs/performance.md section 3, "Session 17"); paho reads
    every other packet, and one not all there yet.

    Other threads may publish (the replica's status, the hub's stop): paho queues
    their packets and calls `on_socket_register_write`, which wakes the loop's
    `select` (a socket pair), once until the loop has written them."""

    MIN_DELAY, MAX_DELAY = 1.0, 4.0   # seconds between attempts to reach the broker, doubling

    def __init__(self, client: Client, heard: Callable[[str, bytes], None]):
        self.client = client
        self._heard = heard
        client.on_message = lambda client, userdata, message: heard(message.topic, message.payload)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._owner: int | None = None
        self._retry_at = 0.0
        self._delay = self.MIN_DELAY
        self._dialling: threading.Thread | None = None
        client.on_socket_register_write = self._queued

    def wake(self) -> None:
        """Cut the loop's `select` short (another thread queued something for it)."""
        try:
            self._wake_w.send(b"w")
        except BlockingIOError:
            pass   # the pair is full of wake-ups: the loop will wake
        except OSError:
            pass   # closed: the loop has ended

    def _queued(self, client, userdata, sock) -> None:
        if threading.get_ident() != self._owner:
            self.wake()

    def connected(self) -> None:
        """The broker took the connection: the next loss is retried after the shortest delay."""
        self._delay = self.MIN_DELAY

    def poll(self, timeout: float) -> None:
        """Wait up to `timeout` for the broker or a wake-up; read every packet that
        arrived (paho calls the hub's `on_message` for each); write what is queued;
        keep the connection alive; reconnect when it is lost."""
        self._owner = threading.get_ident()
        c = self.client
        sock = c.socket()
        if sock is None:
            self._reconnect(timeout)
            return
        if sock.pending():
            timeout = 0.0
        writing = [sock] if c.want_write() or sock.unsent() else []
        try:
            readable, writable, _ = select.select([sock, self._wake_r], writing, [], timeout)
        except (OSError, ValueError):   # closed under us by another thread's disconnect
            return
        if self._wake_r in readable:
            try:
                self._wake_r.recv(4096)
            except BlockingIOError:
                pass
        if sock in readable or sock.pending():
            heard = self._heard
            while True:
                if c._in_packet["command"] == 0:   # paho is between packets: the whole publishes are ours
                    taken = sock.publishes()
                    if taken:
                        c._last_bytes_received = time.monotonic()   # paho's keepalive: the broker is there
                        for topic, payload in taken:
                            try:
                                topic = topic.decode()
                            except UnicodeDecodeError:
                                log.warning("a message on a topic that is not UTF-8 ignored: %r", topic)
                                continue
                            heard(topic, payload)
                        if not sock.pending():
                            break   # all of it taken: nothing for paho
                if c.loop_read() != MQTTErrorCode.MQTT_ERR_SUCCESS or c.socket() is not sock \
                        or not sock.pending():
                    break
            if c.socket() is not sock:
                return   # lost: paho closed it and said so (on_disconnect)
        self.flush()
        if c.socket() is sock:
            c.loop_misc()   # the keepalive's ping, and a dead link found

    def flush(self) -> None:
        """Write what paho has queued (the batch's replies so far)."""
        c = self.client
        sock = c.socket()
        if sock is None:
            return
        if c.want_write():
            c.loop_write()
        if c.socket() is sock:
            sock.flush()

    def _reconnect(self, timeout: float) -> None:
        """Dial the broker on a thread of its own when the delay is up (a host that does
        not answer holds a connect for `connect_timeout`, 5 s: the writer meanwhile
        judges the console's actions), then let paho take the connection."""
        now = time.monotonic()
        if self._dialling is None and now >= self._retry_at:
            self._dialling = threading.Thread(target=self._dial, name="hub-dial", daemon=True)
            self._dialling.start()
        if self._dialling is None or self._dialling.is_alive():
            wait = timeout if self._dialling else min(timeout, self._retry_at - now)
            try:
                if select.select([self._wake_r], [], [], wait)[0]:
                    self._wake_r.recv(4096)
            except BlockingIOError:
                pass
            return
        self._dialling = None
        try:
            self.client.reconnect()   # on the dialled socket; connect_async's first connection too
        except OSError as exc:
            log.debug("broker not reached: %s", exc)
            self._retry_at = time.monotonic() + self._delay
            self._delay = min(self._delay * 2, self.MAX_DELAY)
            return
        self._retry_at = time.monotonic() + self._delay   # if this one is lost at once, not a storm
        self.flush()

    def _dial(self) -> None:
        try:
            self.client.dialled = self.client.dial()
        except OSError as exc:
            self.client.dialled = exc
        self.wake()

    def close(self) -> None:
        """Disconnect cleanly (no will) and close the wake-up pair; on the loop's thread."""
        self.client.disconnect()
        self.flush()
        self._wake_r.close()
        self._wake_w.close()
