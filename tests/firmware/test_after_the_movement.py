"""After the movement every board shows where its players go and, on its seat check's page,
who comes to it (issue 11). On the unix port, against a real Mosquitto and the real hub.

Grimm 1896 (000_ff8a6ed40036e836.txt), BLOCK GAME party: after each session "the two who
have gained the highest amounts ... move to the next (higher) table"; the players find
their new places by the table markers, and now by their old table's board.
"""
import random

import pytest

from hardware.sim.board import VirtualBoard
from hub.conductor import events as k
from hub.conductor.cards import SEATS, number
from party.hands import played_values
from hub.event import Proposal
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, staff_action, start_session

pytestmark = pytest.mark.broker


def table_event(hub, n: int, kind: str, body: dict, key: str) -> None:
    body = dict(body, table=n, board=f"test-{n}")
    assert hub.submit(Proposal(f"test-{n}.1.{key}", f"table:{n}", kind, body)).ok


def test_every_board_shows_where_its_players_go_and_who_comes(broker, tmp_path):
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    boards = {n: VirtualBoard(n, broker.host, broker.port, data_dir=tmp_path / f"b{n}").start()
              for n in (1, 2)}
    try:
        assert create_party(hub, tables=2, form="block").ok
        assert seat_guests(hub, guest_names(8), seed=3).ok
        assert start_session(hub, 1).ok
        before = {n: hub.state.session.tables[n].seats for n in (1, 2)}
        for n in (1, 2):   # session 1, keyed for the boards' tables
            cards = {x: number(c) for x, c in zip(SEATS, before[n])}
            table_event(hub, n, k.SEAT_CHECK, {"cards": cards}, "0")
        for game in range(1, 5):
            for n in (1, 2):
                values = played_values(hub.state.setup, before[n], random.Random(game), lead=game == 1)
                table_event(hub, n, k.RESULT, {"game": game, "values": values}, str(game))
        for b in boards.values():
            b.wait_for("** BELL **", timeout=20)
            b.press("#")   # the bell seen
            b.wait_for("SESSION OVER", timeout=20)
        assert staff_action(hub, k.RESEAT, {"seed": 5}).ok
        s = hub.state.session
        for n, b in boards.items():
            lines = b.wait_for("# SEAT CHECK", timeout=20)
            # where each of its last players goes, by the first name on their card
            for card in before[n]:
                table, seat = s.place_of(card)
                where = f" -> T{table} {seat}"
                assert hub.state.holders[card].upper()[:16 - len(where)] + where in lines
            b.press("#")   # the seat check's page: who comes to this table
            lines = b.wait_for("# ALL RIGHT")
            for x, card in zip(SEATS, s.tables[n].seats):
                assert any(line.startswith(f"{x} {hub.state.holders[card].upper()[:6]}")
                           for line in lines)
            b.press("#")
            b.wait_for("SEATS OK")
            b.wait_for("GAME 1 OF 4")   # checked: the movement's lines are gone
            assert not any("->" in line for line in b.lines)
    finally:
        for b in boards.values():
            b.stop()
        hub.stop()
