# A compact asyncio MQTT 3.1.1 client for the table board, in the manner of
# Peter Hinch's mqtt_as: the link may drop at any time (WiFi, broker restart),
# so `run()` owns the connection and reconnects with backoff forever; the rest
# of the app only asks `isconnected()` and calls `publish()`, which raises
# OSError when the link is down (the outbox resends later, so nothing waits).
#
# Clean session on every connect: the broker keeps nothing for us; we
# resubscribe each time and read retained state instead.
import asyncio
import gc
import socket
import struct
from random import getrandbits
from time import ticks_diff, ticks_ms

from micropython import const

_MAX_PACKET = const(4096)  # protocol payloads are <= 2048 bytes; anything bigger is skipped
_BACKOFF_MAX_MS = const(5000)  # the longest wait between two connection attempts
_TRIES = const(3)  # sends of a QoS 1 packet before the link counts as dead
_ACK_POLL_MS = const(5)  # how often a sender looks for its ack, or for its turn to write (an Event
#                       or a Lock would each import an asyncio module: 1 KB and 0.6 KB of heap)


def _str(buf, s):
    if isinstance(s, str):
        s = s.encode()
    buf.extend(struct.pack("!H", len(s)))
    buf.extend(s)


def _packet(first, body):
    # Fixed header: type/flags byte, then the remaining length in 7-bit groups.
    out = bytearray((first,))
    n = len(body)
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            break
    out.extend(body)
    return out


class MQTTClient:
    def __init__(self, board, client_id, server, port=1883, user=None, password=None,
                 keepalive=20, will=None, subs=(), on_message=None, on_connect=None,
                 log=print, timeout_ms=5000):
        self.board = board
        self.client_id = client_id
        self.server, self.port = server, port
        self.user, self.password = user, password
        self.keepalive = keepalive
        self.will = will  # (topic, payload, retain, qos)
        self.subs = subs  # [(topic, qos)], subscribed again on every connect
        self.on_message = on_message  # f(topic: str, payload: memoryview of the packet, retained: bool)
        self.on_connect = on_connect  # async f(), after CONNACK, before subscribing: it may
        # publish, and a retained message never arrives before it
        self.log = log
        self.timeout_ms = timeout_ms
        self.beat = ticks_ms()  # for the app's watchdog check: run() is alive
        self.connects = 0
        self._addr = None
        self._up = False
        self._sock = None
        self._stream = None
        self._pid = 0
        self._waiting = {}  # packet id -> True once its PUBACK or SUBACK came
        self._writing = False  # one task writes and drains at a time
        self._last_rx = self._last_tx = ticks_ms()

    def isconnected(self):
        return self._up  # CONNACK received and every subscription acknowledged

    async def run(self):
        delay = 500
        while True:
            self.beat = ticks_ms()
            try:
                if not self.board.network_up():
                    await self.board.connect_network()
                await self._connect()
                delay = 500
                self.connects += 1
                self.log("mqtt: connected (%d)" % self.connects)
                # Serve: keepalive pings at a quarter of the keepalive; no packet from
                # the broker for a whole keepalive means the link is dead even if TCP
                # has not noticed (WiFi gone without a FIN or RST). A plain sleep,
                # where waiting on an event with a timeout would hold a second task
                # in the heap: a link the reader closed is seen within 1 s.
                ka = self.keepalive * 1000
                while True:
                    self.beat = ticks_ms()
                    await asyncio.sleep_ms(1000)
                    if self._stream is None:
                        break  # the reader saw the link go
                    if not self.board.network_up():
                        raise OSError("network down")
                    now = ticks_ms()
                    if ticks_diff(now, self._last_rx) > ka:
                        raise OSError("no reply to ping")
                    if ticks_diff(now, self._last_tx) > ka // 4:
                        await self._send(b"\xc0\x00")
            except Exception as e:  # whatever broke, the cure is a new connection
                self.log("mqtt: link down: %r" % (e,))
            self._close()
            # Jitter spreads the reconnects of 200 tables after a broker restart.
            wait = delay + getrandbits(10) * delay // 2048
            delay = min(delay * 2, _BACKOFF_MAX_MS)
            while wait > 0:  # sleep in slices so the watchdog sees us alive
                self.beat = ticks_ms()
                await asyncio.sleep_ms(min(wait, 1000))
                wait -= 1000

    async def _connect(self):
        if self._addr is None:
            # getaddrinfo blocks the whole loop while DNS answers (or not): do it
            # once, not on every reconnect, so an outage cannot starve the
            # watchdog. With an IP address in the config it never waits at all.
            self._addr = socket.getaddrinfo(self.server, self.port)[0][-1]
        ai = self._addr
        s = socket.socket()
        self._sock = s
        # TCP_NODELAY (IPPROTO_TCP=6, TCP_NODELAY=1; the constants are missing on
        # some ports): without it a small publish waits ~44 ms for Nagle.
        s.setsockopt(6, 1, 1)
        s.setblocking(False)
        try:
            s.connect(ai)
        except OSError as e:
            if e.errno not in (115, 119):  # EINPROGRESS (Linux, lwIP): under way
                raise
        self._stream = asyncio.StreamReader(s)
        flags = 0x02  # clean session
        body = bytearray(b"\x00\x04MQTT\x04\x00")
        body.extend(struct.pack("!H", self.keepalive))
        _str(body, self.client_id)
        if self.will:
            topic, msg, retain, qos = self.will
            flags |= 0x04 | qos << 3 | (0x20 if retain else 0)
            _str(body, topic)
            _str(body, msg)
        if self.user:
            flags |= 0x80
            _str(body, self.user)
            if self.password:
                flags |= 0x40
                _str(body, self.password)
        body[7] = flags
        await self._send(_packet(0x10, body))  # drains once the TCP connect succeeds
        pkt: tuple = await asyncio.wait_for_ms(self._read_packet(), self.timeout_ms)
        if pkt[0] != 0x20 or len(pkt[1]) != 2 or pkt[1][1] != 0:
            raise OSError("CONNACK %r" % (pkt,))
        self._last_rx = ticks_ms()
        self._reader = asyncio.create_task(self._read_loop())
        if self.on_connect:
            await self.on_connect()
        for topic, qos in self.subs:
            self._pid = pid = self._pid % 65535 + 1
            body = bytearray(struct.pack("!H", pid))
            _str(body, topic)
            body.append(qos)
            await self._send_and_wait(0x82, body, pid)
        self._up = True

    def _close(self):
        if self._sock:
            try:
                self._sock.close()
            except OSError:
                pass
        self._sock = self._stream = None
        self._up = False
        r = getattr(self, "_reader", None)
        if r and r is not asyncio.current_task():
            r.cancel()
        self._reader = None
        self._waiting.clear()  # waiters see the link is gone

    async def _send(self, data):
        st = self._stream
        if st is None:
            raise OSError("not connected")
        while self._writing:  # rare, and brief: asyncio's Lock would import its module
            await asyncio.sleep_ms(_ACK_POLL_MS)
        if self._stream is not st:
            raise OSError("link lost")
        self._writing = True
        try:
            st.write(data)
            try:
                await asyncio.wait_for_ms(st.drain(), self.timeout_ms)
            except asyncio.TimeoutError:
                # The peer stopped reading (link dead): the app sees only OSError.
                self._close()
                raise OSError("send timed out")
        finally:
            self._writing = False
        self.beat = self._last_tx = ticks_ms()

    async def _send_and_wait(self, first, body, pid):
        # QoS 1 (and SUBSCRIBE): resend with DUP until the broker acknowledges;
        # no answer after _TRIES sends means the link is dead.
        w = self._waiting
        w[pid] = False
        try:
            for _ in range(_TRIES):
                await self._send(_packet(first, body))
                t0 = ticks_ms()
                while not w.get(pid) and self._stream and ticks_diff(ticks_ms(), t0) < self.timeout_ms:
                    await asyncio.sleep_ms(_ACK_POLL_MS)
                if self._stream is None:
                    raise OSError("link lost")
                if w.get(pid):
                    return
                first |= 0x08 if first & 0xF0 == 0x30 else 0  # DUP on a resent PUBLISH
        finally:
            w.pop(pid, None)
        self._close()
        raise OSError("no ack from broker")

    async def publish(self, topic, payload, retain=False, qos=0):
        if isinstance(payload, str):
            payload = payload.encode()
        body = bytearray()
        _str(body, topic)
        first = 0x30 | qos << 1 | (1 if retain else 0)
        if qos:
            self._pid = pid = self._pid % 65535 + 1
            body.extend(struct.pack("!H", pid))
            body.extend(payload)
            await self._send_and_wait(first, body, pid)
        else:
            body.extend(payload)
            await self._send(_packet(first, body))

    async def _read_packet(self):
        st = self._stream
        first = (await st.readexactly(1))[0]
        n = sh = 0
        while True:
            b = (await st.readexactly(1))[0]
            n |= (b & 0x7F) << sh
            sh += 7
            if not b & 0x80:
                break
        if n > _MAX_PACKET:
            # Skip it in small reads rather than let one bad message exhaust the heap.
            while n:
                n -= len(await st.readexactly(min(n, 256)))
            return 0, b""
        if n > 256:
            # A retained screen needs ~800 contiguous bytes: free the garbage first,
            # or a fragmented heap refuses them (seen under a 64 KB cap).
            gc.collect()
        return first, (await st.readexactly(n)) if n else b""

    async def _read_loop(self):
        try:
            while True:
                first, body = await self._read_packet()
                self._last_rx = ticks_ms()
                t = first & 0xF0
                if t == 0x30:  # PUBLISH
                    qos = first >> 1 & 3
                    tl = struct.unpack_from("!H", body)[0]
                    topic = str(body[2:2 + tl], "utf-8")
                    i = 2 + tl
                    if qos:
                        # PUBACK at once, without waiting for the write lock: 4 bytes fit the
                        # socket buffer, and the reader must never block behind a writer.
                        self._stream.write(b"\x40\x02" + body[i:i + 2])
                        i += 2
                    for retry in (True, False) if self.on_message else ():
                        try:
                            # a view, not a copy: json.loads reads it in place
                            self.on_message(topic, memoryview(body)[i:], bool(first & 1))
                        except MemoryError as e:
                            # A passing spike; dropped, a retained screen would leave the board on
                            # the last form until the table's screen changed again: collect, retry once.
                            gc.collect()
                            if retry:
                                continue
                            self.log("mqtt: handler: %r" % (e,))
                        except Exception as e:  # a bad message must not take the link down
                            self.log("mqtt: handler: %r" % (e,))
                        break
                elif t == 0x40 or t == 0x90:  # PUBACK, SUBACK
                    pid = struct.unpack_from("!H", body)[0]
                    if pid in self._waiting:
                        self._waiting[pid] = True
                # PINGRESP needs nothing: any packet proves the link alive.
                body = None  # not held while the next packet is awaited: it may be a whole screen
        except (OSError, EOFError, MemoryError) as e:
            # A packet the heap could not hold is lost mid-stream: drop the link at
            # once, and the reconnect brings the retained screen again.
            self.log("mqtt: read: %r" % (e,))
        self._reader = None
        self._close()
