"""After a takeover, the lost hub's acknowledged events rebuilt in its order (docs/takeover.md).

The replica holds the lost hub's journal up to the seq it was restored at; what the lost hub
acknowledged after that is on the boards (each kept entry with the seq its ack gave it, sent
back with that seq: docs/protocol.md, `seq` in an event) and on the broker (the staff's
actions, with theirs: hub/gap.py). The standby re-admits them in that seq order, so its
journal becomes the lost hub's row for row — the decisions they brought about (a bell, a
movement, a seating) made again at the same seqs, from the same state — before it admits
anything new: a bell-ack is not judged before the result that rang its bell, no table gets
another game the lost hub had closed, no seating is drawn from a different standing.

It lasts until every table of the party has been heard since the takeover (its board
sends its kept entries first, then its heartbeat: docs/protocol.md) and no seq is missing
below the last one named, or until `REBUILD_MAX_S` has passed (a board switched off, an
entry nobody kept): then each seq nobody sent back is said by seq (`holes`, shown on the
console), and the tables' entries held beyond it are judged as new, in their seq order; the
staff's actions beyond it are the conductor's to redo or discard (hub/gap.py), never
redone behind the conductor's back on a party that may have moved on.

The writer thread owns a `Rebuild` and the batch step (hub/batch.py) changes it in place.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .event import Proposal

REBUILD_MAX_S = 60.0   # the longest a takeover's rebuild holds new entries back
REBUILDING = "REBUILDING"  # the console's answer while it lasts: never final, not recorded


@dataclass(frozen=True)
class Heard:
    """A table's heartbeat, queued with its events: every entry its board sends back came before."""
    table: int


@dataclass(frozen=True)
class GapInput:
    """A staff action the lost hub acknowledged at `seq` and its replica lacked (hub/gap.py):
    re-admitted as it was, at the time it was (its seed drawn again from the same request)."""
    proposal: Proposal
    seq: int
    at: float


@dataclass
class Rebuild:
    """What is left of a takeover's rebuild: the lost hub's seqs past `restored` still to come."""
    restored: int                     # the seq the replica was restored at
    until: float                      # `REBUILD_MAX_S` after the takeover: then it ends anyway
    unheard: set[int]                 # the party's tables not heard since the takeover
    held: dict[int, tuple[object, Proposal]] = field(default_factory=dict)  # lost seq -> its input
    holes: list[tuple[int, int]] = field(default_factory=list)  # (first, last) seqs not rebuilt
    offset: int = 0                   # past a hole: the lost hub's seq less this journal's
    staff_after_hole: int = 0         # the first staff action left to the conductor past a hole
    done: bool = False

    def hold(self, seq: int, item, proposal: Proposal) -> None:
        """A kept entry (or a staff action) the lost hub journaled at `seq`, until its turn."""
        self.held[seq] = (item, proposal)

    def heard(self, table: int) -> None:
        self.unheard.discard(table)

    def complete(self, now: float) -> bool:
        """Whether what is held can close: all tables heard and nothing held past a missing
        seq, or the time is up."""
        return not self.held and not self.unheard or now >= self.until


def rebuild_for(restored: int, restored_at: float, tables, gap: list[dict], now: float,
                max_s: float = REBUILD_MAX_S) -> Rebuild | None:
    """The rebuild of a journal restored at `restored` (at `restored_at`), for a party of
    `tables`, with the staff actions `gap` the broker kept; None when it is over (a standby
    started again after its rebuild's time, `max_s`)."""
    until = restored_at + max_s
    if now >= until:
        return None
    rebuild = Rebuild(restored, until, set(tables))
    for a in gap:
        if isinstance(a.get("seq"), int) and a["seq"] > restored:
            p = Proposal(a["id"], a["source"], a["kind"], a["body"])
            rebuild.hold(a["seq"], GapInput(p, a["seq"], a["at"]), p)
    return rebuild
