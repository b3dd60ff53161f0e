"""Each run of a hub on a journal: when it started, on which broker, when it was last
known alive, how far the journal was then, which boards were online; and whether it
stopped in order or died (a crash, a power cut, a kill).

Kept beside the journal (`<journal>.runs.json`), not in it: it is not an event of
the party, and it changes every few seconds while the hub runs (the journal changes
only when something happens). What it is for: after a restart the console tells the
host what happened (when the hub stopped and started again, that the journal holds
everything it had acknowledged, which boards have not come back), and `party run`
finds the broker port the boards were given, to listen there again.
"""
from __future__ import annotations

import json
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

log = logging.getLogger("hub.runs")

ALIVE_S = 2.0   # how often a running hub notes it is alive: "stopped at" is this close
KEPT = 50       # runs remembered (a party restarts a handful of times at most)
_WRITING = threading.Lock()   # one writer at a time of the file and its .tmp


@dataclass(frozen=True)
class Run:
    started: float
    alive: float                  # last known alive
    seq: int                      # the journal's last event then
    broker: tuple[str, int] | None
    boards: dict[str, str] = field(default_factory=dict)   # table -> board, online when last alive
    stopped: float | None = None  # an orderly stop; None: it died, or runs still

    @classmethod
    def read(cls, d: dict) -> "Run":
        return cls(float(d["started"]), float(d["alive"]), int(d["seq"]),
                   tuple(d["broker"]) if d.get("broker") else None,
                   {str(t): str(b) for t, b in (d.get("boards") or {}).items()},
                   None if d.get("stopped") is None else float(d["stopped"]))

    def written(self) -> dict:
        return {"started": self.started, "alive": self.alive, "seq": self.seq,
                "broker": list(self.broker) if self.broker else None, "boards": self.boards,
                "stopped": self.stopped}


class Runs:
    """This journal's runs: those before (read at open) and this one, noted every ALIVE_S
    and at once when a board comes or goes."""

    def __init__(self, journal_path: str | Path):
        self.path = _beside(journal_path)
        self.before: list[Run] = _read(self.path)
        self.started = time.time()
        self._now: Callable[[], tuple[int, dict[str, str]]] | None = None
        self._broker: tuple[str, int] | None = None
        self._stop = threading.Event()
        self._changed = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def previous(self) -> Run | None:
        """The run before this one (None: the journal's first)."""
        return self.before[-1] if self.before else None

    def begin(self, broker: tuple[str, int], now: Callable[[], tuple[int, dict[str, str]]]) -> None:
        """This run has started on `broker`; `now()` gives (journal seq, {table: board} online)."""
        self._broker, self._now = tuple(broker), now
        self._note()
        self._thread = threading.Thread(target=self._beat, name="hub-runs", daemon=True)
        self._thread.start()

    def changed(self) -> None:
        """A board came online or went: noted now, not at the next beat, so that a hub
        killed a moment after its boards came online still knows them when started again.
        Noted on the run's own thread: the caller (the hub's writer) never waits on the disk."""
        self._changed.set()

    def end(self) -> None:
        """An orderly stop (after the journal's last commit). Once: a hub stopped again later
        must not write its run over the runs of the hubs started since."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stop.set()
        self._changed.set()
        thread.join(5)
        self._note(stopped=time.time())

    def _beat(self) -> None:
        while True:
            self._changed.wait(ALIVE_S)
            self._changed.clear()   # before the note: a change during it is noted again
            if self._stop.is_set():
                return
            try:
                self._note()
            except OSError as e:   # a full disk must not stop the party: the journal says the rest
                log.warning("could not note the hub alive in %s: %s", self.path, e)

    def _note(self, stopped: float | None = None) -> None:
        seq, boards = self._now()
        now = time.time()
        run = Run(self.started, now, seq, self._broker, dict(boards), stopped)
        runs = (self.before + [run])[-KEPT:]
        tmp = self.path.with_name(self.path.name + ".tmp")
        with _WRITING:   # a run's thread and its `end`, or a second hub's in one process (a test's)
            with open(tmp, "w") as f:
                json.dump({"runs": [r.written() for r in runs]}, f)
                f.flush()
                os.fsync(f.fileno())   # a power cut leaves the last note whole
            os.replace(tmp, self.path)


def last(journal_path: str | Path) -> Run | None:
    """The journal's last run, without starting one (None: never run)."""
    runs = _read(_beside(journal_path))
    return runs[-1] if runs else None


def _read(path: Path) -> list[Run]:
    try:
        return [Run.read(d) for d in json.loads(path.read_text())["runs"]]
    except FileNotFoundError:
        return []
    except (ValueError, KeyError, TypeError) as e:   # damaged: the party goes on without its history
        log.warning("%s unreadable (%s): the runs before this one are not known", path, e)
        return []


def _beside(journal_path: str | Path) -> Path:
    return Path(journal_path).with_name(Path(journal_path).name + ".runs.json")
