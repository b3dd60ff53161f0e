"""What a drill reports (its figures, the exceptions the hub logged), and the fresh
directory it works in."""
from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path


def fresh_dir(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


@dataclass
class Figures:
    drill: str
    entries: int = 0       # entries keyed at the boards (or payloads sent, for the fuzz)
    lost: int = 0
    doubled: int = 0
    crashes: int = 0
    seconds: float = 0.0
    detail: dict = field(default_factory=dict)     # the drill's own figures
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and self.lost == 0 and self.doubled == 0 and self.crashes == 0

    def line(self) -> str:
        detail = ", ".join(f"{k} {v}" for k, v in self.detail.items())
        return (f"{self.drill:<16} {'ok  ' if self.ok else 'FAIL'} {self.seconds:7.1f} s  entries {self.entries:>6}  "
                f"lost {self.lost}  doubled {self.doubled}  crashes {self.crashes}" + (f"  ({detail})" if detail else ""))


class ErrorCounter(logging.Handler):
    """Counts exceptions the hub logged (a failed batch, a judge that raised): crashes of its parts."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record) -> None:
        if record.exc_info:
            self.count += 1

    def __enter__(self) -> "ErrorCounter":
        logging.getLogger("hub").addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        logging.getLogger("hub").removeHandler(self)
