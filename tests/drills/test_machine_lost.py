"""The hub's machine lost mid-session (issue 14), short: `party drill --only machine-lost
--quick` under pytest. The hub and its Litestream are SIGKILLed as soon as half the
tables' entries of a round are acknowledged, the journal's directory deleted, and a
standby runs `party takeover` from the replica; the party then ends as a fault-free run
of the same seed does. The board-side copy is proven step by step, with a replica known
to lack the entry, in tests/firmware/test_outbox_replica.py; here it closes whatever gap
Litestream's lag left at the moment of the loss (docs/reliability.md has the figures)."""
from __future__ import annotations

import pytest

from party.drills import faults

pytestmark = [pytest.mark.broker, pytest.mark.slow]


def test_the_hub_machine_lost_a_standby_takes_over_from_the_replica_nothing_lost_or_doubled(tmp_path):
    fig = faults.machine_lost(tmp_path, tables=3, sessions=1, games=3, say=lambda s: None)
    assert fig.failures == [], fig.line()
    assert (fig.lost, fig.doubled, fig.crashes) == (0, 0, 0), fig.line()
    assert fig.entries == 3 * 4  # the seat check and three games at each table
    assert fig.detail["standings = fault-free"] == "yes"
    assert 0 < fig.detail["takeover s"] < 30
    # Every acknowledged entry the replica lacked came back from its board, once.
    assert fig.detail["resent"] >= fig.detail["acked not in replica"]
