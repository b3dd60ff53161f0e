"""Fixtures for the firmware's tests: virtual boards (the real firmware on the
MicroPython unix port) and a stand-in hub that speaks docs/protocol.md."""
from __future__ import annotations

import pytest

from hardware.sim.board import VirtualBoard
from hardware.sim.hub_double import HubDouble


@pytest.fixture
def hub(broker):
    h = HubDouble(broker.host, broker.port)
    yield h
    h.stop()


@pytest.fixture
def board_factory(broker, tmp_path):
    boards: list[VirtualBoard] = []

    def make(table: int = 3, **config) -> VirtualBoard:
        config.setdefault("resend_s", 2)
        config.setdefault("keepalive", 5)
        b = VirtualBoard(table, broker.host, broker.port, tmp_path / f"board-{table}", **config)
        boards.append(b.start())
        return b

    yield make
    for b in boards:
        b.stop()


@pytest.fixture
def board(board_factory, hub):
    hub.screen(3)
    b = board_factory(3)
    b.wait_for("# ENTER GAME 2")
    b.wait_for(lambda lines: "HUB?" not in lines[-1])
    return b
