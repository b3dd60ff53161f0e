"""The hub a drill runs: in this process, or as a child process to SIGKILL; and the
party as its journal makes it, read beside the running hub."""
from __future__ import annotations

import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from hub import conductor
from party.broker import free_port, wait_for_port
from hub.journal import JournalDamaged, open_reader, read_events
from hub.replica import ReplicaError, replica_url, restore
from hub.service import Hub
from party.provision import hub_settings

ROOT = Path(__file__).resolve().parents[2]
log = logging.getLogger("drills")


class JournalView:
    """The party as the journal makes it, read-only and incrementally, beside its writer."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._state = conductor.replay([])
        self._lock = threading.Lock()

    def state(self):
        if not self.path.exists():
            return self._state
        with self._lock:
            try:
                db = open_reader(self.path)
                try:
                    for e in read_events(db, self._state.seq):
                        self._state = conductor.apply(self._state, e)
                finally:
                    db.close()
            except (sqlite3.Error, JournalDamaged):
                if self.path.exists():
                    raise
                # its machine lost as it was read (the machine-lost drill): the party as last read
            return self._state


class InProcessHub:
    """The hub in this process: host actions go straight to its single writer."""

    def __init__(self, journal: Path, broker, **hub_kwargs):
        self.journal, self.broker, self.kwargs = Path(journal), broker, hub_kwargs
        self.hub: Hub | None = None
        self.lock = threading.RLock()

    def start(self) -> "InProcessHub":
        self.hub = Hub(self.journal, self.broker.host, self.broker.port, **self.kwargs).start()
        return self

    def stop(self) -> None:
        if self.hub:
            self.hub.stop()
            self.hub = None

    def state(self):
        return self.hub.state

    def act(self, fn: Callable[[Hub], object]):
        with self.lock:
            return fn(self.hub)

    def crashes(self) -> int:
        return 0  # an exception in the writer is logged and counted by the caller's log handler


class ChildHub:
    """`python -m party.cli run` as a child process: SIGKILLed by the kill drill.

    The host's actions (start a session, move the players) need the hub's single
    writer: the child is stopped in order, the action taken by a hub in this
    process on the same journal, and the child started again.
    """

    def __init__(self, journal: Path, broker, log_path: Path, provisioned: Path | None = None,
                 replica: Path | None = None, replica_sync_s: float = 1.0):
        self.journal, self.broker, self.log_path = Path(journal), broker, Path(log_path)
        self.provisioned = provisioned  # `party run --provisioned`: the hub's account, the tables' boards
        # `party run --replica`: the host's actions are taken by a hub replicating as the child
        # does, so a staff action the replica lacks is kept on the broker (hub/gap.py) for a standby
        self.replica = {"replica": str(replica), "replica_sync_s": replica_sync_s} if replica else {}
        self.command = "run"
        self.view = JournalView(self.journal)
        self.proc: subprocess.Popen | None = None
        self.lock = threading.RLock()
        self.kills = 0
        self.unexpected_exits = 0
        self._log = open(self.log_path, "ab")

    def start(self) -> "ChildHub":
        port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "party.cli", self.command, "--journal", str(self.journal),
             "--broker", f"{self.broker.host}:{self.broker.port}", "--http", f"127.0.0.1:{port}",
             *(["--provisioned", str(self.provisioned)] if self.provisioned else []),
             *(["--replica", self.replica["replica"], "--replica-sync", str(self.replica["replica_sync_s"])]
               if self.replica else [])],
            cwd=ROOT, stdout=self._log, stderr=self._log, env={**os.environ, "PYTHONPATH": str(ROOT)},
            start_new_session=True)  # its own process group: what it starts dies with it (lose_machine)
        deadline = time.monotonic() + 30
        while True:  # up once its web server listens (after the journal's replay)
            try:
                wait_for_port("127.0.0.1", port, timeout=0.2)
                return self
            except TimeoutError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the hub did not start (exit {self.proc.poll()}); the end of "
                                       f"{self.log_path}:\n{self._log_tail()}") from None

    def _log_tail(self, lines: int = 12) -> str:
        """What the hub said last: in the drill's failure, so a run on another machine says why."""
        self._log.flush()
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def _check_alive(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            self.unexpected_exits += 1
            log.error("the hub exited by itself with code %s", self.proc.returncode)
            self.proc = None

    def kill(self, down_for: float = 0.0) -> None:
        """SIGKILL: no goodbye, no flush; then (after `down_for` seconds) start again."""
        with self.lock:
            self._check_alive()
            if self.proc is not None:
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait()
                self.kills += 1
            time.sleep(down_for)
            self.start()

    def lose_machine(self) -> None:
        """The hub's machine lost: the hub and all it started (Litestream) SIGKILLed at once,
        and the journal's directory gone with the disk. Nothing starts again here."""
        with self.lock:
            self._check_alive()
            if self.proc is not None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
                self.proc = None
                self.kills += 1
            shutil.rmtree(self.journal.parent)

    def replica_written(self, scratch: Path, deadline: float) -> bool:
        """Whether the replica holds the party by `deadline`: a hub an hour into a party has
        replicated it long since, but the drill's is seconds old, and a machine lost before
        Litestream's first sync leaves a standby nothing to take over from (`party takeover`
        says so: no backup files)."""
        while True:
            try:
                if restore(replica_url(self.replica["replica"]), scratch) > 0:
                    return True
            except ReplicaError:
                pass
            scratch.unlink(missing_ok=True)
            if time.monotonic() > deadline:
                return False
            time.sleep(0.5)

    def take_over(self, journal: Path) -> None:
        """`party takeover` on a standby: a new journal restored from the replica,
        then the hub on it (and `party run` on it from then on)."""
        with self.lock:
            self.journal, self.command = Path(journal), "takeover"
            try:
                self.start()
            finally:
                self.command = "run"
            # Read from the standby's journal once it is there (until then, the party as it was).
            self.view = JournalView(journal)

    def stop(self) -> None:
        with self.lock:
            self._check_alive()
            if self.proc is not None:
                self.proc.terminate()
                try:
                    self.proc.wait(15)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
                self.proc = None

    def close(self) -> None:
        self.stop()
        self._log.close()

    def state(self):
        return self.view.state()

    def act(self, fn: Callable[[Hub], object]):
        with self.lock:
            self.stop()
            account = hub_settings(self.provisioned) if self.provisioned else {}
            hub = Hub(self.journal, self.broker.host, self.broker.port, client_id="hub-host", **account,
                      **self.replica).start()
            try:
                return fn(hub)
            finally:
                hub.stop()
                self.start()

    def crashes(self) -> int:
        """Exits nobody asked for, and tracebacks in the hub's log."""
        self._check_alive()
        self._log.flush()
        return self.unexpected_exits + self.log_path.read_bytes().count(b"Traceback")
