"""A child process running one of the hub's modules, for work done on the machine's other core
at start-up (hub/seal.py, hub/audit_apart.py): the module's `answer(*args) -> bytes`.

Forked from the hub's process where it is the process's one thread: the child has the hub's
modules imported already (a fresh interpreter's start and imports were 0.3-0.45 s of CPU, a
tenth of the start-up's). Where another thread runs (an embedded broker's, a test's) a lock
it holds would stay held in a forked child forever: there `python -m module args…` instead,
the module's `__main__` writing its answer to its stdout."""
from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path


def forks() -> bool:
    """Whether a child made now is forked: only from a process's one thread."""
    return hasattr(os, "fork") and threading.active_count() == 1


class Child:
    """`module`'s answer to arguments `given` later: forked now, before the hub opens its journal
    (no SQLite connection's state carried into the child) and before the journal's checkpointer's
    thread starts (hub/checkpoints.py), it waits for them."""

    def __init__(self, module: str):
        self._module, self._popen, self._pid = module, None, None
        if forks():
            self._fork()

    def given(self, *args: str) -> Child:
        """The child's arguments: it starts on them (`python -m`, if it was not forked)."""
        if self._pid is not None:
            if self._args >= 0:
                try:
                    _send(self._args, "\0".join(args).encode() + b"\n")
                except OSError:   # it ended already: no answer, which `answer` says
                    pass
                self._args = _closed(self._args)
        elif self._popen is None:
            root = str(Path(__file__).resolve().parents[1])   # this hub's code, not another installed
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))}
            try:
                self._popen = subprocess.Popen([sys.executable, "-m", self._module, *args], stdin=subprocess.DEVNULL,
                                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            except OSError:
                pass
        return self

    def answer(self) -> bytes | None:
        """The child's answer, once it has ended; None where it did not give one (it failed, or
        could not be started)."""
        if self._popen is not None:
            running, self._popen = self._popen, None
            out, _ = running.communicate()
            return out if running.returncode == 0 else None
        if self._pid is None:
            return None
        self._args = _closed(self._args)   # never given: it ends without an answer
        chunks = []
        while chunk := os.read(self._out, 1 << 16):
            chunks.append(chunk)
        self._out = _closed(self._out)
        pid, self._pid = self._pid, None
        _, status = os.waitpid(pid, 0)
        return b"".join(chunks) if os.waitstatus_to_exitcode(status) == 0 else None

    def stop(self) -> None:
        """Not waited for (the start-up failed, or went on without it): killed and reaped."""
        if self._popen is not None:
            running, self._popen = self._popen, None
            running.kill()
            running.wait()
        if self._pid is not None:
            pid, self._pid = self._pid, None
            self._args, self._out = _closed(self._args), _closed(self._out)
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)

    def _fork(self) -> None:
        args_in, self._args = os.pipe()
        self._out, out = os.pipe()
        self._pid = os.fork()
        if self._pid:
            os.close(args_in)
            os.close(out)
            return
        # The child: it leaves only by os._exit, running none of the hub's exit handlers nor
        # its objects' finalizers (the journal's SQLite connection, open in the hub, is not
        # this process's to close or checkpoint).
        code = 1
        try:
            os.close(self._args)
            os.close(self._out)
            line = _line(args_in)
            if line:
                _send(out, importlib.import_module(self._module).answer(*line.decode().split("\0")))
                code = 0
        finally:
            os._exit(code)


def _line(fd: int) -> bytes:
    """The arguments' line, read up to its newline: the pipe's other end may be held open by a
    child forked after this one, so its end of file is not waited for. Empty: none given."""
    got = b""
    while not got.endswith(b"\n"):
        chunk = os.read(fd, 4096)
        if not chunk:
            return b""
        got += chunk
    return got[:-1]


def _send(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _closed(fd: int) -> int:
    if fd >= 0:
        os.close(fd)
    return -1
