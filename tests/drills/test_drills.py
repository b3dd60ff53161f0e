"""The fault drills of `party drill`, short: each plays a small party through the real
firmware, a real broker and the hub, injects its fault and checks the journal against
what the boards keyed — nothing lost, nothing doubled, no crash, every journaled event
one the conductor admits. The full-length drills (20 tables, 20 SIGKILLs, five minutes
cut off, 100,000 payloads) run with `party drill`; `PARTY_FULL_DRILLS=1` runs them here."""
from __future__ import annotations

import os

import pytest

from party.drills import PLAN, attack, faults, fuzz, run_drills

pytestmark = pytest.mark.broker


def assert_clean(fig):
    assert fig.failures == []
    assert (fig.lost, fig.doubled, fig.crashes) == (0, 0, 0), fig.line()
    assert fig.entries > 0


def test_the_hub_sigkilled_at_random_points_loses_and_doubles_nothing_and_ends_as_a_fault_free_run(tmp_path):
    fig = faults.hub_kill(tmp_path, tables=3, kills=4, sessions=1, games=2, say=lambda s: None)
    assert_clean(fig)
    assert fig.detail["kills"] == 4 and fig.detail["standings = fault-free"] == "yes"


def test_five_broker_restarts_in_a_session(tmp_path):
    fig = faults.broker_restarts(tmp_path, tables=3, restarts=5, say=lambda s: None)
    assert_clean(fig)
    assert fig.detail["restarts"] == 5


def test_a_table_cut_off_keys_its_games_offline_and_they_all_arrive_when_it_heals(tmp_path):
    fig = faults.cut_table(tmp_path, tables=3, minutes=0.25, say=lambda s: None)
    assert_clean(fig)
    assert fig.detail["board showed"].endswith("PEND 4")  # all four games held on the board
    assert fig.detail["journaled while cut"] == 0


def test_boards_power_cut_with_entries_in_their_outbox(tmp_path):
    fig = faults.power_cuts(tmp_path, tables=2, say=lambda s: None)
    assert_clean(fig)
    assert fig.detail["cuts with hub down"] == 2 and fig.detail["cuts during play"] == 8


def test_spoofing_and_unauthenticated_clients_are_refused(tmp_path):
    fig = attack.spoofing(tmp_path, attempts=10, say=lambda s: None)
    assert_clean(fig)
    assert fig.detail["other table refused"] == "10/10" and fig.detail["forged board refused"] == "10/10"


def test_the_console_without_a_login_refuses_every_page_and_action(tmp_path):
    fig = attack.console_without_login(tmp_path, say=lambda s: None)
    assert_clean(fig)
    assert fig.detail["journaled"] == 0


def test_malformed_payloads_into_the_hub(tmp_path):
    fig = fuzz.fuzz_hub(tmp_path, payloads=3000, via_broker=200, say=lambda s: None)
    assert_clean(fig)
    assert fig.detail["controls journaled"] == 4  # one valid event per thousand, plus one via the broker


def test_random_keys_into_the_firmware_while_the_hub_acks(tmp_path):
    fig = fuzz.fuzz_firmware(tmp_path, sequences=400, boards=2, say=lambda s: None)
    assert_clean(fig)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("PARTY_FULL_DRILLS"), reason="full-length drills: set PARTY_FULL_DRILLS=1")
def test_the_full_length_drills(tmp_path):
    results = run_drills(tmp_path, quick=False, say=print)
    assert [f.drill for f in results] == [name for name, *_ in PLAN]
    for fig in results:
        assert_clean(fig)
