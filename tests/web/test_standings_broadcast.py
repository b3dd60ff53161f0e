"""The standings stream's one writer (web/standings_broadcast.py): every screen is sent each
view's message whole, and a screen that stops reading (a phone on a weak signal) holds up no
other screen, and when it reads again it is sent the latest standings, whole."""
from __future__ import annotations

import socket
import threading
import time

from web.standings_broadcast import Broadcast


class Views:
    """What the writer reads of the projection: a view made now and then (listeners told)."""

    def __init__(self):
        self.listeners, self.seq = [], 0

    def on_made(self, listener):
        self.listeners.append(listener)

    def made(self, seq: int) -> None:
        self.seq = seq
        for listener in self.listeners:
            listener()

    def message(self):
        body = b"x" * 1_000_000   # a view far larger than the sockets' buffers
        return (self.seq, False), self.seq, b"id: %d\nevent: standings\ndata: %s\n\n" % (self.seq, body)


class Hub:
    stopping = False


def read_message(sock: socket.socket, buffer: bytearray) -> bytes:
    """The next chunk of the stream's chunked body, checked for its framing."""
    while True:
        head, sep, rest = bytes(buffer).partition(b"\r\n")
        if sep:
            size = int(head, 16)
            if len(rest) >= size + 2:
                assert rest[size:size + 2] == b"\r\n", "a chunk not ended as framed"
                del buffer[:len(head) + 2 + size + 2]
                return rest[:size]
        data = sock.recv(1 << 16)
        assert data, "the stream ended"
        buffer += data


def standings_seq(message: bytes) -> int | None:
    return int(message.split(b"\n", 1)[0][4:]) if b"event: standings" in message else None


def test_a_screen_that_stops_reading_holds_up_no_other_and_then_gets_the_latest_whole():
    hub, views = Hub(), Views()
    writer = Broadcast(hub, views, views.message, lambda: b"event: boards\ndata: {}\n\n", ping=60, check=0.5)
    (fast, fast_end), (slow, slow_end) = socket.socketpair(), socket.socketpair()
    joined = [threading.Thread(target=writer.join, args=(end, None)) for end in (fast_end, slow_end)]
    for t in joined:
        t.start()
    fast.settimeout(10)
    buffer, seen = bytearray(), []
    for seq in range(1, 6):   # the slow screen reads nothing meanwhile
        views.made(seq)
        while seq not in seen:
            message = read_message(fast, buffer)
            if standings_seq(message) is not None:
                seen.append(standings_seq(message))
    assert seen[-1] == 5 and seen == sorted(seen)   # each view, in order (0 if it was still the latest at joining)

    slow.settimeout(10)
    buffer, late = bytearray(), []
    deadline = time.monotonic() + 10
    while 5 not in late and time.monotonic() < deadline:
        seq = standings_seq(read_message(slow, buffer))   # whole messages, never a torn one
        if seq is not None:
            late.append(seq)
    assert late[-1] == 5 and late == sorted(late)

    fast.close()
    slow.close()
    for t in joined:   # a screen gone frees its request's thread
        t.join(5)
        assert not t.is_alive()
    hub.stopping = True   # and the writer ends within a check
