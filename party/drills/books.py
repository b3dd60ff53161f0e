"""The books every drill keeps: what was keyed at the boards, what the journal holds,
entries lost or doubled, journaled inputs the conductor would refuse, and what a
fault-free and a faulted run of the same seed must agree on."""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from hub import conductor
from party.replay import read_journal

from .boards import board_crashes
from .figures import Figures
from .lockstep import Keyed, LockstepParty


def journaled_entries(path: Path) -> dict[tuple, list[Mapping]]:
    """The tables' entries in the journal, by (table, session, kind, game): the values of each."""
    state, out = conductor.replay([]), {}
    for e in read_journal(path):
        if e.kind in ("table.result", "table.seat-check"):
            kind = e.kind.split(".", 1)[1]
            game = e.what.game if kind == "result" else 0
            values = e.what.values if kind == "result" else e.what.cards
            out.setdefault((e.what.table, state.session.number, kind, game), []).append(values)
        state = conductor.apply(state, e)
    return out


def lost_and_doubled(keyed: list[Keyed], path: Path) -> tuple[int, int, list[str]]:
    """Entries keyed but not journaled with their values; entries journaled more than once."""
    entries = journaled_entries(path)
    lost, problems = 0, []
    for e in keyed:
        if e.values not in entries.get(e.key, []):
            lost += 1
            problems.append(f"lost: table {e.table} session {e.session} {e.kind} {e.game} {e.values}")
    doubled = sum(len(v) - 1 for v in entries.values() if len(v) > 1)
    problems += [f"doubled: {key}" for key, v in entries.items() if len(v) > 1]
    return lost, doubled, problems


def refusable_events(path: Path) -> list[str]:
    """Journaled events the conductor would not have written (`party replay --audit`):
    inputs it would refuse where they stand, decisions it would not take, anomalies."""
    return [str(f) for f in conductor.audit(read_journal(path))[1]]


def comparable(doc: dict) -> dict:
    """What a fault-free run and a faulted run of the same seed must agree on: everything
    `to_json` derives except the bells' who-and-when (the first table to finish its last
    game rings the bell, and which one that is depends on timing) and the journal's length."""
    doc = json.loads(json.dumps(doc))
    doc.pop("seq", None)
    for s in doc.get("sessions", ()):
        s.pop("bells", None)
    return doc


def book_party(fig: Figures, party: LockstepParty, journal: Path, boards) -> None:
    """Lost, doubled and the journal's integrity, from what the party keyed."""
    fig.entries = len(party.keyed)
    fig.lost, fig.doubled, problems = lost_and_doubled(party.keyed, journal)
    fig.failures += party.failures + problems + refusable_events(journal)
    crashed = board_crashes(boards.values())
    fig.crashes += len(crashed)
    fig.failures += crashed
