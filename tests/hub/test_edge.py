"""The hub's MQTT edge (hub/edge.py) reads a batch of packets with one `recv` and
writes a batch of replies with one `send`: no byte may be lost, doubled or
reordered on the way, whatever the kernel takes at once. (The hub's link through
a real broker, its restarts and cut links are the drills': tests/drills.)"""
import select
import socket

import pytest

from hub.edge import _Coalescing


def _pair():
    a, b = socket.socketpair()
    a.setblocking(False)
    return _Coalescing(a), b


def test_packets_read_at_once_are_served_in_the_small_pieces_paho_asks_for_in_order():
    sock, peer = _pair()
    packets = [bytes([0x30, len(body)]) + body for body in (b"first", b"second" * 20, b"third")]
    peer.sendall(b"".join(packets))
    select.select([sock], [], [], 1)
    got = []
    for packet in packets:  # as paho reads: the command, the length byte, then the rest
        head = sock.recv(1) + sock.recv(1)
        body = b""
        while len(body) < head[1]:
            body += sock.recv(head[1] - len(body))
        got.append(head + body)
    assert got == packets
    assert sock.pending() == 0   # all of it from what one recv took


def test_bytes_select_cannot_see_are_reported_pending():
    sock, peer = _pair()
    peer.sendall(b"\x30\x03abc\x30\x03def")
    select.select([sock], [], [], 1)
    assert sock.recv(1) == b"\x30"
    assert sock.pending() == 9
    assert select.select([sock], [], [], 0)[0] == []   # the kernel holds none of them now


def test_replies_wait_for_the_flush_and_a_peer_that_reads_slowly_gets_every_byte_in_order():
    sock, peer = _pair()
    replies = [bytes([i % 256]) * 1000 for i in range(3000)]   # 3 MB: more than the kernel takes at once
    for r in replies:
        assert sock.send(r) == len(r)
    peer.setblocking(False)
    assert select.select([peer], [], [], 0)[0] == []   # gathered, nothing sent before the flush
    sock.flush()
    assert sock.unsent()   # the kernel's buffer is full: the rest waits
    received = bytearray()
    while sock.unsent() or len(received) < 3_000_000:
        readable, writable, _ = select.select([peer], [sock] if sock.unsent() else [], [], 1)
        if writable:
            sock.flush()
        if readable:
            received += peer.recv(1 << 20)
    assert bytes(received) == b"".join(replies)


def test_the_console_is_answered_while_the_brokers_host_does_not_answer(tmp_path):
    """The writer's thread runs the link; a connect to a host that never answers waits
    out paho's connect_timeout on a thread of its own, not the writer's: the
    conductor's actions are judged and journaled meanwhile (docs/performance.md)."""
    from hub.conductor import events as k
    from hub.service import Hub
    from party.setup import create_party

    silent = socket.socket()   # a listener that never accepts, its queue full: SYNs go unanswered
    silent.bind(("127.0.0.1", 0))
    silent.listen(0)
    waiting = []
    for _ in range(8):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(silent.getsockname())
        waiting.append(s)
    probe = socket.socket()
    probe.settimeout(0.5)
    try:
        probe.connect(silent.getsockname())
        pytest.skip("this kernel answers a connect to a full listen queue")
    except (TimeoutError, socket.timeout):
        pass
    finally:
        probe.close()
    hub = Hub(tmp_path / "journal.sqlite3", *silent.getsockname())
    hub.mqtt.connect_timeout = 60.0   # longer than Hub.submit waits for a verdict (10 s)
    hub.start()
    try:
        verdict = create_party(hub, tables=4, form="draw")
        assert verdict.ok
        assert not hub.mqtt.is_connected()   # still dialling: the verdict did not wait for it
        assert [e.kind for e in hub.journal.events()][-1] == k.PARTY_CREATED
    finally:
        hub.stop()
        for s in waiting + [silent]:
            s.close()
