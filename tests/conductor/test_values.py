"""The conductor's decisions are values (issue 13, typed values): a movement holds
immutable mappings and tuples, hashes, and records exactly what the journal holds."""
import random

import pytest

from hub.conductor import events as k
from hub.conductor.movement import move
from hub.conductor.prizes import totals

from .party import Party
from .test_bergen_party import hand


def bergen_session_over() -> Party:
    """Bergen (000, BERGEN GAME: "Ten points made at any table ends a session, whereupon the
    bell is rung"), two tables, the stop bell seen by both: lots and punch-holes to record."""
    p = Party()
    p.create(form="bergen", tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    for _ in range(10):
        hand(p, 1, "A")
    p.ack_bell()
    return p


def test_a_movement_is_an_immutable_hashable_value_that_records_what_is_journaled():
    p = bergen_session_over()
    s = p.state.session
    m = move(p.state.setup, s, totals(p.state), random.Random(5))
    assert hash(m) == hash(move(p.state.setup, s, totals(p.state), random.Random(5)))
    assert m.punches and all(isinstance(row, tuple) for row in m.seats.values())
    with pytest.raises(TypeError):
        m.seats[1] = (None,) * 4
    v = p.reseat(seed=5)
    moved = v.events[1]
    assert moved.kind == k.PLAYERS_MOVED
    assert {x: moved.body[x] for x in ("seats", "lots", "punches")} == m.record()
