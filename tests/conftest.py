"""Fixtures shared by every test: a broker of our own on a free port; the hub's start-up's
children counted."""
import gc
import logging
import os
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from hub import child
from party.broker import EmbeddedBroker, Mosquitto, best_available


@pytest.fixture
def broker():
    """A running broker on 127.0.0.1 (Mosquitto, or amqtt where Mosquitto is missing).

    Tests may `stop()` and `start()` it again on the same port to drill a broker restart.
    """
    b = best_available()
    if isinstance(b, EmbeddedBroker):
        logging.getLogger("tests").warning("mosquitto not on PATH: broker tests use the embedded broker")
    b.start()
    yield b
    b.stop()


@pytest.fixture
def mosquitto():
    """Debian's mosquitto specifically; skips (saying why) where it is not installed."""
    if not Mosquitto.available():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    b = Mosquitto().start()
    yield b
    b.stop()


@pytest.fixture
def forks(monkeypatch) -> list[int]:
    """The children this process forks from here on (hub/child.py). The checkpointers' threads
    of journals an earlier test left open are ended first; a thread an earlier test left
    running for good (a drill's relay blocked in `accept`) is not this test's and is not
    counted in `child.forks`: the children are forked beside it as from a process's one thread,
    and any thread started from here on (an embedded broker's) still means spawned."""
    gc.collect()
    _before.clear()
    _before.update(_children())
    for thread in threading.enumerate():
        if thread.name == "journal-checkpoints":
            thread.join(5)
    strays = set(threading.enumerate())
    monkeypatch.setattr(child, "forks", lambda: not set(threading.enumerate()) - strays)
    forked, fork = [], os.fork

    def counted():
        pid = fork()
        if pid:
            forked.append(pid)
        return pid
    monkeypatch.setattr(os, "fork", counted)
    return forked


@pytest.fixture(params=["forked", "spawned"])
def children(request, forks):
    """The start-up's children (hub/child.py) made both ways: forked from the test's process,
    its one thread, and spawned (`python -m`) where another thread runs, as in a drill's process
    with its broker's. Yields the way (`way`) and the children forked (`forked`)."""
    made = SimpleNamespace(way=request.param, forked=forks)
    if request.param == "forked":
        yield made
        return
    running = threading.Event()
    beside = threading.Thread(target=running.wait, name="another thread")
    beside.start()
    try:
        yield made
    finally:
        running.set()
        beside.join()


# The process's children when `forks` began: an earlier test's (a board's emulator, a broker),
# not this one's start-up's.
_before: set[str] = set()


def children_left() -> list[str]:
    """This process's children made since `forks` began and still there, running or not
    reaped ("pid state command"): a start-up that failed leaves none."""
    return [f"{pid} {state} {command}" for pid, (state, command) in _children().items() if pid not in _before]


def _children() -> dict[str, tuple[str, str]]:
    """pid -> (state, command line) of this process's children."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid, rest = stat.read_text().split(" (", 1)
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:   # ended meanwhile
            continue
        state, ppid = rest.rsplit(") ", 1)[1].split()[:2]
        if int(ppid) == os.getpid():
            found[pid] = (state, command.strip()[:120])
    return found
