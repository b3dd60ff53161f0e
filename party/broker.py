"""The MQTT broker the boards and the hub meet at, started for them by the tools (the
demo, the drills, the benches, the tests): the hub only connects to a broker it is
given, so this lives with the tools, above the product.

Two kinds, one interface (`start`, `stop`, `host`, `port`):
- `Mosquitto`: Debian's mosquitto as a child process — the production broker and
  the one tests use when it is installed;
- `EmbeddedBroker`: amqtt in a thread of this process, so `party demo` needs
  nothing installed.
"""
from __future__ import annotations

import asyncio
import logging
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

log = logging.getLogger(__name__)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_taken(host: str, port: int) -> bool:
    """Something listens on `port` already (a Mosquitto on 1883, another party): binding
    as a server does (address reuse on) fails."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


def wait_for_port(host: str, port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing listens on {host}:{port} after {timeout} s")
            time.sleep(0.05)


MOSQUITTO_CONF = """\
listener {port} {host}
allow_anonymous true
# Boards and hub use clean sessions and resend at the application level, so
# the broker keeps nothing on disk between runs.
persistence false
# The default (1000) silently drops QoS 1 messages to a subscriber that falls
# behind, e.g. the hub during a burst of 200 tables after the bell.
max_queued_messages 100000
# Without it a small publish waits for Nagle's algorithm (44 ms measured).
set_tcp_nodelay true
log_dest stderr
log_type error
log_type warning
"""


class Mosquitto:
    """A mosquitto child process on host:port, stoppable and restartable on the same port."""

    def __init__(self, port: int | None = None, host: str = "127.0.0.1", conf_extra: str = ""):
        self.host, self.port = host, port or free_port()
        self.conf_extra = conf_extra
        self._dir = Path(tempfile.mkdtemp(prefix="mosquitto-"))
        self._proc: subprocess.Popen | None = None

    @staticmethod
    def available() -> bool:
        return executable() is not None

    def start(self) -> "Mosquitto":
        conf = self._dir / "mosquitto.conf"
        conf.write_text(MOSQUITTO_CONF.format(host=self.host, port=self.port) + self.conf_extra)
        self._proc = subprocess.Popen(
            [executable(), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            wait_for_port(self.host, self.port)
        except TimeoutError:
            self._proc.kill()
            raise RuntimeError(f"mosquitto did not start: {self._proc.stderr.read().decode()}")
        return self

    def stop(self) -> None:
        if self._proc and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        self._proc = None

    def __repr__(self) -> str:
        return f"Mosquitto({self.host}:{self.port})"


def executable() -> str | None:
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()), None
    )


class _Snapshots(dict):
    """A dict whose iteration walks a copy taken when it begins.

    amqtt 0.12 walks its subscriptions (and sessions, retained messages) with an
    `await` inside the loop — `_run_broadcast` awaits the topic-filter plugins for
    every subscription, and loading plugins from a config turns that filtering on —
    so a client subscribing meanwhile ends the walk with "RuntimeError: dictionary
    changed size during iteration" and a traceback. Walking a copy is what the
    loop means: the subscriptions as they were when the message arrived.
    """

    def __iter__(self):
        return iter(list(super().keys()))

    def keys(self):
        return list(super().keys())

    def values(self):
        return list(super().values())

    def items(self):
        return list(super().items())


class EmbeddedBroker:
    """amqtt running on its own event loop in a daemon thread (its dicts walked as
    snapshots: see `_Snapshots`)."""

    def __init__(self, port: int | None = None, host: str = "127.0.0.1"):
        self.host, self.port = host, port or free_port()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker = None

    def start(self) -> "EmbeddedBroker":
        from amqtt.broker import Broker

        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            config = {
                "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
                "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
            }
            try:
                self._broker = Broker(config, loop=loop)
                for name in ("_subscriptions", "_sessions", "_retained_messages"):
                    setattr(self._broker, name, _Snapshots(getattr(self._broker, name)))
                loop.run_until_complete(self._broker.start())
            except BaseException as exc:  # reported to the starting thread
                failure.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.close()

        # amqtt logs every connection at INFO; a party has hundreds.
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.WARNING)
        self._thread = threading.Thread(target=run, name="embedded-broker", daemon=True)
        self._thread.start()
        ready.wait(15)
        if failure:
            raise RuntimeError(f"embedded broker did not start: {failure[0]!r}")
        return self

    def stop(self) -> None:
        if not self._loop:
            return
        loop = self._loop

        async def shutdown() -> None:
            try:
                await self._broker.shutdown()
            finally:
                loop.stop()

        asyncio.run_coroutine_threadsafe(shutdown(), loop)
        self._thread.join(10)
        self._loop = None

    def __repr__(self) -> str:
        return f"EmbeddedBroker({self.host}:{self.port})"


def best_available(port: int | None = None):
    """Mosquitto where installed, else the embedded broker (and say so)."""
    if Mosquitto.available():
        return Mosquitto(port)
    log.warning("mosquitto is not installed: using the embedded broker (amqtt)")
    return EmbeddedBroker(port)
