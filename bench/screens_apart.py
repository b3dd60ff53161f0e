"""The room's projectors in a process of their own, as a real projector is a browser in its
own process (on its own machine): the bench's tables and its screens no longer share one
interpreter lock.

bench/screens_bench.py's `Screen` threads read /stream in the bench's process with
`http.client`, whose 8 KB-buffered `readline` takes a 100 KB standings message in about
thirteen reads, each waiting for the lock back from the tables' event loop; what they
measured of a frame's way to the screen was partly the bench's own turns. Here one thread
of a child process reads every screen's socket as soon as it is readable, in large reads,
undoes the HTTP/1.1 chunking as a browser does, and notes the moment the last byte of each
whole frame arrived (`time.monotonic()`, one clock for every process): a `standings`
message (the whole view) or a `change` (what changed since the view the stream sent before,
session 15). Each screen then draws its view from its frames as the page does, once the
run is over (the reading stays as lean as a browser's): a change not on the view held is
counted, as is a screen whose last view is not the hub's. Its collector is off: nothing it
keeps is cyclic.
"""
from __future__ import annotations

import gc
import hashlib
import json
import multiprocessing as mp
import selectors
import socket
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from web.frames import applied  # noqa: E402

READ = 1 << 20   # a whole 100 KB view in one read where the kernel has it
KINDS = ("standings", "change")


class Drawn(NamedTuple):
    """What one screen was sent, and the view it drew from it."""
    frames: dict[str, int]      # kind -> how many
    sent: dict[str, int]        # kind -> bytes of their data
    off_base: int               # changes not on the view the screen held (drawn wrong, were it a page)
    seq: int | None             # the view drawn last
    digest: str                 # of that view, as `digest` says


def digest(view) -> str:
    """Two views, however their keys were ordered on the way, the same where they say the same."""
    return hashlib.sha256(json.dumps(view, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Arrivals:
    """One screen's frames: (monotonic time, seq) as they arrived; `arrived` keeps each one's
    data to be drawn after the run (`drawn`)."""

    def __init__(self, arrivals: list[tuple[float, int]] | None = None, drawn: Drawn | None = None):
        self.arrivals = arrivals if arrivals is not None else []
        self.frames: list[tuple[str, int, bytes]] = []
        self._drawn = drawn

    def arrived(self, now: float, kind: str, seq: int, data: bytes) -> None:
        self.arrivals.append((now, seq))
        self.frames.append((kind, seq, data))

    def first_at_or_after(self, seq: int) -> float | None:
        return next((t for t, s in self.arrivals if s >= seq), None)

    def drawn(self) -> Drawn:
        """The view drawn from every frame, as web/static/standings.js draws it."""
        if self._drawn is None:
            frames, sent, off, view, held = dict.fromkeys(KINDS, 0), dict.fromkeys(KINDS, 0), 0, None, None
            for kind, seq, data in self.frames:
                frames[kind] += 1
                sent[kind] += len(data)
                told = json.loads(data)
                if kind == "standings":
                    view, held = told, seq
                elif view is not None and told["base"] == held:
                    view, held = applied(view, told), seq
                else:   # the page would start again from a whole view: nothing drawn till then
                    off, view, held = off + 1, None, None
            self._drawn, self.frames = Drawn(frames, sent, off, held, digest(view)), []
        return self._drawn


class Screens:
    """`n` SSE screens of the hub's web app at `port`, read in a child process."""

    def __init__(self, port: int, n: int):
        ctx = mp.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_read, args=(port, n, child), daemon=True)
        self.proc.start()
        if not self._conn.poll(30) or self._conn.recv() != "connected":
            raise SystemExit("the screens did not connect to the hub's /stream")

    def stop(self) -> tuple[list[Arrivals], float]:
        """Every screen's arrivals and what it drew, once the child stopped reading, and its CPU
        seconds since all screens were connected (its start-up and the drawing left out)."""
        self._conn.send("stop")
        screens, cpu = self._conn.recv()
        self.proc.join(10)
        return [Arrivals(a, drawn) for a, drawn in screens], cpu


class _Stream:
    """One /stream connection: HTTP/1.1 chunks in, SSE messages out."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        self.raw, self.sse, self.head = bytearray(), bytearray(), True
        self.screen = Arrivals()

    def read(self) -> bool:
        """What the socket has; False once it closed."""
        data = self.sock.recv(READ)
        if not data:
            return False
        now = time.monotonic()
        self.raw += data
        if self.head:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return True
            del self.raw[:end + 4]
            self.head = False
        self._chunks(now)
        return True

    def _chunks(self, now: float) -> None:
        while (line := self.raw.find(b"\r\n")) >= 0:
            size = int(self.raw[:line], 16)
            if len(self.raw) < line + 2 + size + 2:
                return
            self.sse += self.raw[line + 2:line + 2 + size]
            del self.raw[:line + 2 + size + 2]
            self._messages(now)

    def _messages(self, now: float) -> None:
        while (end := self._blank_line()) >= 0:
            seq, kind = None, None
            for line in bytes(self.sse[:min(end, 200)]).split(b"\n")[:3]:   # the data line comes last
                if line.startswith(b"id: "):
                    seq = int(line[4:])
                elif line.startswith(b"event: "):
                    kind = line[7:].decode()
            if kind in KINDS and seq is not None:
                at = self.sse.find(b"data: ", 0, end) + 6
                self.screen.arrived(now, kind, seq, bytes(self.sse[at:end]))
            del self.sse[:end + 2]

    def _blank_line(self) -> int:
        """Where the first whole message ends (the blank line after it), or -1: found a line at
        a time, as a browser's SSE parser goes. `bytearray.find(b"\\n\\n")` is a search of its
        own, not memchr's: ~190 µs over a 100 KB view, in one thread for twenty screens about
        4 ms of a rush's `->arrived` that was this reader's, not the hub's (session 17)."""
        at = self.sse.find(b"\n")
        while 0 <= at < len(self.sse) - 1 and self.sse[at + 1] != 10:
            at = self.sse.find(b"\n", at + 1)
        return at if 0 <= at < len(self.sse) - 1 else -1


def _read(port: int, n: int, conn) -> None:
    gc.disable()
    streams = [_Stream(port) for _ in range(n)]
    selector = selectors.DefaultSelector()
    for s in streams:
        selector.register(s.sock, selectors.EVENT_READ, s)
    selector.register(conn, selectors.EVENT_READ, None)
    said, connected = False, 0.0
    while True:
        for key, _ in selector.select(1.0):
            if key.data is None:   # the bench says stop
                conn.recv()
                cpu = time.process_time() - connected
                conn.send(([(s.screen.arrivals, s.screen.drawn()) for s in streams], cpu))
                return
            if not key.data.read():
                selector.unregister(key.fileobj)
        if not said and all(not s.head for s in streams):
            conn.send("connected")
            said, connected = True, time.process_time()
