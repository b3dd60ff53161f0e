"""The tables' boards in a drill: the real firmware at every table (VirtualBoard), and
what a crashed one showed."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from hardware.sim.board import VirtualBoard


def start_boards(tables: int, broker_for: Callable[[int], tuple[str, int]], data_dir: Path,
                 provisioned: Path | None = None) -> dict[int, VirtualBoard]:
    """The real firmware at every table; with `provisioned`, each with its table's account."""
    boards = {}
    for n in range(1, tables + 1):
        host, port = broker_for(n)
        account = {}
        if provisioned:
            cfg = json.loads((provisioned / "tables" / f"table-{n}" / "config.json").read_text())
            account = {"board_id": cfg["board"], "user": cfg["user"], "password": cfg["password"]}
        boards[n] = VirtualBoard(n, host, port, data_dir=data_dir / f"table-{n}", resend_s=2,
                                 **account).start()
    return boards


def stop_boards(boards) -> None:
    for b in boards.values():
        b.stop()


def board_crashes(boards) -> list[str]:
    """Boards whose firmware died (not killed by the drill), logged a traceback, or caught
    an exception drawing its screen: what each showed."""
    out = []
    for b in boards:
        log = list(b.log)
        at = next((i for i, line in enumerate(log) if "Traceback" in line or line.startswith("render:")), None)
        if not b.alive() or at is not None:
            shown = log[at:at + 10] if at is not None else log[-5:]
            out.append(f"table {b.table}: board {'died' if not b.alive() else 'logged'}: {' | '.join(shown)}")
    return out
