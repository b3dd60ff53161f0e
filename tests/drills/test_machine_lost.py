"""The hub's machine lost mid-session, then the standby's (issues 14, 24), short: `party
drill --only machine-lost --quick` under pytest. The hub and its Litestream are SIGKILLed
as soon as half the tables' entries of a round are acknowledged, the journal's directory
deleted, and a standby runs `party takeover` from the replica; then the same again to the
standby, the boards keying on through both outages. Each standby's journal holds every
entry the lost hub acknowledged at the seq it gave it, the seating announced before each
loss is kept, no id hears two verdicts, and the party ends as a fault-free run of the same
seed does. The board-side copy is proven step by step, with a replica known
to lack the entry, in tests/firmware/test_outbox_replica.py; here it closes whatever gap
Litestream's lag left at the moment of the loss (docs/reliability.md has the figures)."""
from __future__ import annotations

import pytest

from party.drills import faults

pytestmark = [pytest.mark.broker, pytest.mark.slow]


def test_two_machines_lost_in_a_row_each_standby_rebuilds_the_lost_hub_nothing_lost_doubled_or_judged_twice(
        tmp_path):
    fig = faults.machine_lost(tmp_path, tables=3, sessions=1, games=3, say=lambda s: None)
    assert fig.failures == [], fig.line()   # at their seqs, the seating kept, one verdict an id
    assert (fig.lost, fig.doubled, fig.crashes) == (0, 0, 0), fig.line()
    assert fig.entries == 3 * 4  # the seat check and three games at each table
    assert fig.detail["losses"] == 2 and fig.detail["two verdicts"] == 0
    assert fig.detail["standings = fault-free"] == "yes"
    assert all(0 < s < 30 for s in fig.detail["first ack s"]), fig.line()
