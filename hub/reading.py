"""What the screens ask the hub: read calls over the state its journal made, and the journal.

The web is a thin client (docs/conductor.md, "How a page gets its data"): it reads through
these and `Hub.standings`, and acts only through `Hub.submit`. Nothing here writes or
judges for real: a preview is the conductor's own verdict on a proposal against the state
of now, kept from the journal.
"""
from __future__ import annotations

import time

from . import conductor
from .event import Proposal, Verdict
from .journal import backup, recorded, sealed_row


class Reading:
    """The read calls of `Hub` (hub/service.py), over its `state` and `journal`."""

    def staff(self) -> dict[str, str]:
        """login -> role ("conductor" or "assistant"), as the journal has it: the party's
        creator is its conductor, then `conductor.staff-added` and `-removed` (docs/conductor.md,
        "Staff"). The one record of who may do what; before the party exists, nobody."""
        return dict(self.state.staff)

    def role(self, login: str | None) -> str | None:
        """The login's role (`staff`), None if it is not on the staff."""
        return self.state.staff.get(login) if login else None

    def preview(self, proposal: Proposal) -> tuple[Verdict, object]:
        """The conductor's verdict on `proposal` now and the party as it would be after it,
        with nothing journaled (a correction shown before it is confirmed)."""
        state = self.state
        verdict, after, _ = conductor.admit(state, proposal, state.seq, time.time())
        return verdict, after

    def receipt(self, event_id: str) -> tuple[int, str | None] | None:
        """(seq, seal) of the journaled event with this id: the receipt a board shows."""
        return sealed_row(self.journal.path, event_id)

    def first_recorded(self, event_id: str) -> tuple[float, str] | None:
        """(time, source) of the journaled event with this id; None if it is not journaled."""
        return recorded(self.journal.path, event_id)

    def backup(self) -> bytes:
        """A consistent copy of the journal as a SQLite file, taken while the party goes on."""
        return backup(self.journal.path)
