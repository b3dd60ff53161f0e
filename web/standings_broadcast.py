"""The standings stream written to every screen by one thread: each message framed once,
the same bytes sent to each screen's socket without waiting for any of them.

A stream's request thread (web/standings.py) writes the response's head and its first
message through the web server, then hands its socket over (`Broadcast.join`) and sleeps
until the screen has gone. At every view the projection's follower makes, one thread writes
that view's message to every socket; it is the stream's only writer from then on. Twenty
screens each woken by every view, each writing 100 KB through werkzeug's chunked writer
(three writes and a flush a message), took as much of the hub's CPU as the views
themselves and kept the writer waiting for the interpreter (issue 25).

A screen that reads slowly (a phone on a weak signal) holds up nobody: its socket is not
blocking, what it could not take waits for it, and a newer standings (or boards) message
replaces one of its kind it has not begun to receive; the rest is sent in order.
"""
from __future__ import annotations

import selectors
import socket
import threading
import time
from collections import deque



def chunk(message: bytes) -> bytes:
    """`message` as one chunk of the response's chunked body (the web server's HTTP/1.1
    framing, web/server.py), made once for every screen."""
    return b"%x\r\n%s\r\n" % (len(message), message)


PING = chunk(b": ping\n\n")   # a keep-alive comment


class Screen:
    """One screen's socket and what is still to be written to it: (kind, bytes) in order."""

    def __init__(self, sock: socket.socket, last: int | None):
        self.sock, self.last = sock, last
        self.queue: deque[tuple[str, bytes]] = deque()
        self.sending: memoryview | None = None   # the rest of the message begun
        self.quiet_since = time.monotonic()
        self.gone = threading.Event()

    def put(self, kind: str, data: bytes) -> None:
        if kind == "ping" and (self.queue or self.sending):
            return   # not quiet
        for i, (was, _) in enumerate(self.queue):
            if was == kind and kind != "ping":
                del self.queue[i]   # not begun, and out of date
                break
        self.queue.append((kind, data))
        if kind != "boards":
            self.quiet_since = time.monotonic()

    def write(self) -> bool:
        """Send what the socket takes now; True when all of it was taken. OSError if gone."""
        while True:
            if self.sending is None:
                if not self.queue:
                    return True
                self.sending = memoryview(self.queue.popleft()[1])
            try:
                sent = self.sock.send(self.sending)
            except BlockingIOError:
                return False
            self.sending = self.sending[sent:] if sent < len(self.sending) else None


class Broadcast:
    """The writer of one hub's standings stream to all its screens.

    `standings()` gives (key, seq, message) of the projection's latest view; `boards()` the
    boards' states' message; pings go to a screen sent nothing for `ping` seconds, and the
    boards are looked at every `check` seconds (and sent when they changed)."""

    def __init__(self, hub, projection, standings, boards, ping: float, check: float):
        self.hub, self.projection = hub, projection
        self._standings, self._boards, self.ping, self.check = standings, boards, ping, check
        self._lock = threading.Lock()
        self._joining: list[Screen] = []
        self._thread: threading.Thread | None = None
        self._wake_w: socket.socket | None = None   # while the thread runs: a byte wakes it
        projection.on_made(self._wake)

    def join(self, sock: socket.socket, last: int | None) -> None:
        """Write the stream to `sock` from now on (`last`: the Last-Event-ID the screen came
        back with); return when the screen has gone or the hub stops."""
        screen = Screen(sock, last)
        with self._lock:
            if self.hub.stopping:
                return
            self._joining.append(screen)
            if self._thread is None:
                wake_r, self._wake_w = socket.socketpair()
                for end in (wake_r, self._wake_w):
                    end.setblocking(False)
                self._thread = threading.Thread(target=self._run, args=(wake_r,), name="screens", daemon=True)
                self._thread.start()
        self._wake()
        screen.gone.wait()

    def _wake(self) -> None:
        wake = self._wake_w
        if wake is not None:
            try:
                wake.send(b"!")
            except OSError:
                pass   # a wake-up is waiting already, or the thread has ended

    def _run(self, wake: socket.socket) -> None:
        selector = selectors.DefaultSelector()
        selector.register(wake, selectors.EVENT_READ)
        screens: dict[socket.socket, Screen] = {}
        key, standings, boards, looked = None, b"", None, float("-inf")
        try:
            while not self.hub.stopping:
                now = time.monotonic()
                was = key
                key, seq, message = self._standings()
                if key != was:
                    standings = (seq, chunk(message))
                    for screen in screens.values():
                        screen.put("standings", standings[1])
                if now - looked >= self.check:
                    looked, message = now, self._boards()
                    if message != boards:
                        boards = message
                        for screen in screens.values():
                            screen.put("boards", chunk(boards))
                with self._lock:
                    joining, self._joining = self._joining, []
                for screen in joining:
                    screen.sock.setblocking(False)
                    selector.register(screen.sock, selectors.EVENT_READ, screen)
                    screens[screen.sock] = screen
                    if standings[0] != screen.last:   # else caught up: nothing to resend
                        screen.put("standings", standings[1])
                    screen.put("boards", chunk(boards))
                for screen in list(screens.values()):
                    if now - screen.quiet_since >= self.ping:
                        screen.put("ping", PING)
                    self._send(selector, screens, screen)
                due = min([looked + self.check] + [s.quiet_since + self.ping for s in screens.values()])
                # woken by a view made, a screen joining, one that closed or can take more
                for ready, events in selector.select(max(0.0, due - time.monotonic())):
                    screen = ready.data
                    if screen is None:
                        wake.recv(4096)
                    elif events & selectors.EVENT_READ and not _open(screen.sock):
                        self._leave(selector, screens, screen)
        finally:
            for screen in list(screens.values()):
                self._leave(selector, screens, screen)
            with self._lock:
                for screen in self._joining:
                    screen.gone.set()
                self._joining, self._thread = [], None
                wake.close()
                self._wake_w.close()
                self._wake_w = None
            selector.close()

    def _send(self, selector, screens: dict, screen: Screen) -> None:
        try:
            done = screen.write()
        except OSError:
            return self._leave(selector, screens, screen)
        want = selectors.EVENT_READ | (0 if done else selectors.EVENT_WRITE)
        if selector.get_key(screen.sock).events != want:
            selector.modify(screen.sock, want, screen)

    @staticmethod
    def _leave(selector, screens: dict, screen: Screen) -> None:
        selector.unregister(screen.sock)
        del screens[screen.sock]
        try:
            screen.sock.setblocking(True)   # the web server's again, to end the response
        except OSError:
            pass
        screen.gone.set()


def _open(sock: socket.socket) -> bool:
    """False once the screen has closed its end (a stream's client sends nothing after its request)."""
    try:
        return sock.recv(4096) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
