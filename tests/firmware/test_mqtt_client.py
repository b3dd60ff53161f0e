"""firmware/mqtt.py at the packet level, against a scripted broker: what
Mosquitto does not let a test arrange (a PUBACK that never comes)."""
import socket
import struct
import subprocess
import threading

import pytest

from hardware.sim.board import build, tool

DRIVER = """
import asyncio, sys
sys.path.append(%(code)r)
from mqtt import MQTTClient

class Board:
    def network_up(self): return True
    async def connect_network(self): pass

got = []
async def main():
    done = asyncio.Event()
    async def on_connect():
        await c.publish("party/table/3/event", b'{"id": "x"}', False, 1)
        print("published")
        done.set()
    def on_message(topic, payload, retained):
        print("message", topic, bytes(payload).decode(), retained)
    c = MQTTClient(Board(), "sim-3", "127.0.0.1", %(port)d, keepalive=7,
                   will=("party/table/3/status", '{"state": "offline"}', True, 1),
                   subs=[("party/table/3/ack", 1)], on_message=on_message, on_connect=on_connect,
                   log=lambda m: None, timeout_ms=500)
    asyncio.create_task(c.run())
    await done.wait()
    await asyncio.sleep_ms(300)
asyncio.run(main())
"""


def read_packet(conn):
    first = conn.recv(1)[0]
    n = shift = 0
    while True:
        b = conn.recv(1)[0]
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    body = b""
    while len(body) < n:
        body += conn.recv(n - len(body))
    return first, body


class ScriptedBroker:
    """Accepts one client, answers CONNECT and SUBSCRIBE, withholds the first PUBACK."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.port = self.sock.getsockname()[1]
        self.packets = []
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        publishes = 0
        while True:  # one client at a time, as often as it reconnects
            conn, _ = self.sock.accept()
            self.connections += 1
            publishes = self._session(conn, publishes)

    def _session(self, conn, publishes):
        conn.settimeout(10)
        with conn:
            while True:
                try:
                    first, body = read_packet(conn)
                except (OSError, IndexError):
                    return publishes
                self.packets.append((first, body))
                kind = first & 0xF0
                if kind == 0x10:
                    conn.sendall(b"\x20\x02\x00\x00")
                elif kind == 0x80:
                    conn.sendall(b"\x90\x03" + body[:2] + b"\x01")
                    # a QoS 1 message for the board: it must PUBACK it
                    topic = b"party/table/3/ack"
                    conn.sendall(bytes([0x32, 2 + len(topic) + 2 + 2]) + struct.pack("!H", len(topic))
                                 + topic + b"\x00\x4d" + b"{}")
                elif kind == 0x30:
                    publishes += 1
                    if publishes > 1:  # the first PUBACK is "lost"
                        pid = body[2 + struct.unpack("!H", body[:2])[0]:][:2]
                        conn.sendall(b"\x40\x02" + pid)


@pytest.fixture
def run_client():
    def run():
        broker = ScriptedBroker()
        script = DRIVER % {"code": str(build()), "port": broker.port}
        out = subprocess.run([tool("micropython"), "-c", script], capture_output=True, text=True,
                             timeout=20, env={"MICROPYPATH": ".frozen"})
        assert out.returncode == 0, out.stderr + out.stdout
        return broker.packets, out.stdout
    return run


def test_connect_carries_clean_session_will_and_keepalive(run_client):
    packets, _ = run_client()
    first, body = packets[0]
    assert first == 0x10 and body[:7] == b"\x00\x04MQTT\x04"
    flags = body[7]
    assert flags & 0x02  # clean session
    assert flags & 0x04 and (flags >> 3) & 3 == 1 and flags & 0x20  # will, QoS 1, retained
    assert struct.unpack("!H", body[8:10])[0] == 7
    assert b"party/table/3/status" in body and b'{"state": "offline"}' in body


def test_qos1_publish_is_resent_with_dup_until_acked_and_qos1_receive_is_acked(run_client):
    packets, stdout = run_client()
    pubs = [(f, b) for f, b in packets if f & 0xF0 == 0x30]
    assert len(pubs) == 2
    (f1, b1), (f2, b2) = pubs
    assert f1 == 0x32 and f2 == 0x3A  # QoS 1; the resend has DUP set
    assert b1 == b2  # same topic, same packet id, same payload
    assert "published" in stdout
    assert (0x40, b"\x00\x4d") in packets  # the board acked the broker's QoS 1 message
    assert "message party/table/3/ack {} False" in stdout
    assert [f for f, _ in packets].count(0x82) == 1  # subscribed once, on connect


WIFI_DRIVER = """
import asyncio, sys
sys.path.append(%(code)r)
from mqtt import MQTTClient

class Board:
    up = True
    joins = 0
    def network_up(self): return self.up
    async def connect_network(self):
        self.joins += 1
        self.up = True

async def main():
    board = Board()
    c = MQTTClient(board, "sim-3", "127.0.0.1", %(port)d, keepalive=7, subs=[("party/table/3/ack", 1)],
                   log=lambda m: print("log", m), timeout_ms=500)
    asyncio.create_task(c.run())
    while c.connects < 1:
        await asyncio.sleep_ms(20)
    board.up = False  # the WiFi drops: no TCP error, only the board knows
    while c.isconnected():
        await asyncio.sleep_ms(20)
    while c.connects < 2:
        await asyncio.sleep_ms(20)
    print("joins", board.joins, "connects", c.connects)
asyncio.run(main())
"""


def test_wifi_loss_drops_the_link_rejoins_the_network_and_reconnects():
    broker = ScriptedBroker()
    script = WIFI_DRIVER % {"code": str(build()), "port": broker.port}
    out = subprocess.run([tool("micropython"), "-c", script], capture_output=True, text=True,
                         timeout=20, env={"MICROPYPATH": ".frozen"})
    assert out.returncode == 0, out.stderr + out.stdout
    assert "log mqtt: link down: OSError('network down',)" in out.stdout
    assert "joins 1 connects 2" in out.stdout
    assert broker.connections == 2
    assert [f for f, _ in broker.packets].count(0x82) == 2  # resubscribed on the new connection
