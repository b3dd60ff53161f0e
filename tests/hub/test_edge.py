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


def _connected_client():
    """The hub's client on one end of a socket pair (its CONNECT read off the other)."""
    from hub.edge import Client
    from paho.mqtt.enums import CallbackAPIVersion

    ours, broker = socket.socketpair()
    client = Client(CallbackAPIVersion.VERSION2, client_id="hub")
    client.connect_async("127.0.0.1", 1)   # where it would dial: it takes the pair's end instead
    client.dialled = ours
    client.reconnect()
    client.loop_write()
    client.socket().flush()
    broker.recv(1 << 16)   # the CONNECT
    return client, broker


def _sent(client, broker) -> bytes:
    sock, got = client.socket(), bytearray()
    broker.setblocking(False)
    while True:
        sock.flush()
        try:
            got += broker.recv(1 << 22)
        except BlockingIOError:
            if not sock.unsent():
                return bytes(got)


@pytest.mark.parametrize("size", [0, 1, 105, 106, 16361, 16362, 2_097_129, 2_097_130])
@pytest.mark.parametrize("retain", [False, True])
def test_a_reply_is_the_packet_paho_publishes_at_qos_0(size, retain):
    """The hub's acks, screens and bell skip paho's publish (its record per message):
    a board must get the same bytes, at each width of the packet's remaining length (a
    1-4 byte field: the sizes either side of 128, 128² and 128³ with this topic)."""
    client, broker = _connected_client()
    topic, payload = "party/table/7/screen", bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    client.publish(topic, payload, qos=0, retain=retain)
    client.loop_write()
    by_paho = _sent(client, broker)
    client.reply(topic, payload, retain=retain)
    assert _sent(client, broker) == by_paho


def test_a_reply_goes_after_what_paho_queued_before_it():
    client, broker = _connected_client()
    client.publish("party/hub/status", b"online", qos=1, retain=True)   # queued by paho, not yet written
    client.reply("party/table/1/ack", b"saved")
    sent = _sent(client, broker)
    assert sent.index(b"online") < sent.index(b"saved")


def test_every_message_reaches_the_hub_once_and_in_order_however_its_bytes_arrive():
    """The link takes whole QoS 0 publishes off what it read without paho, and leaves paho
    every other packet and a publish not all there yet: cut anywhere, retained or not,
    with packets paho must read between them (the CONNACK, a PINGRESP, a QoS 1 publish
    it acknowledges), the hub hears what the broker sent, in its order."""
    import itertools
    import random

    from hub.edge import Link, publish_packet

    # payloads that look like packets: a read that began mid-packet must not be taken for one
    sent = [(f"party/table/{i}/{'event' if i % 4 else 'heartbeat'}", (b"\x30\x03\x00\x01z" * 80)[:i * 37 % 300])
            for i in range(1, 61)]
    packets = [publish_packet(topic.encode(), payload, i % 3 == 0) for i, (topic, payload) in enumerate(sent)]
    qos1 = (b"party/table/99/status", b'{"state": "online"}')
    qos1_packet = bytes((0x32, 2 + len(qos1[0]) + 2 + len(qos1[1]), 0, len(qos1[0]))) + qos1[0] + b"\x00\x07" + qos1[1]
    stream = (b"\x20\x02\x00\x00" + b"".join(packets[:20]) + b"\xd0\x00" + b"".join(packets[20:40])
              + qos1_packet + b"".join(packets[40:]))
    expected = sent[:40] + [(qos1[0].decode(), qos1[1])] + sent[40:]
    rng = random.Random(7)
    for cuts in ([1], [2, 3, 5, 7], [rng.randrange(1, 400) for _ in range(100)], [len(stream)]):
        client, broker = _connected_client()
        heard = []
        link = Link(client, lambda topic, payload: heard.append((topic, payload)))
        at = 0
        for cut in itertools.cycle(cuts):
            if at >= len(stream):
                break
            broker.sendall(stream[at:at + cut])
            at += cut
            link.poll(1.0)
        while client.socket().pending() or select.select([client.socket()], [], [], 0.05)[0]:
            link.poll(0.0)
        assert heard == expected, f"cut in pieces of {cuts[:4]}..."
        assert b"\x40\x02\x00\x07" in _sent(client, broker)   # paho's PUBACK of the QoS 1 publish
