"""Parties of the games whose books give no party rule (hub/conductor/forms/): Muggins and
Matador (a session is a game to 100: Milton Bradley, 003_611dc33fc9a3dd20.txt, MUGGINS or ALL
FIVES, "The player to score 100 points first wins the game"), Texas 42 (five hands a session:
003_611dc33fc9a3dd20.txt, TEXAS 42, "The team having the most points after five games usually
is declared the winner") and Pell's four-handed games (002_0ed9ffa4e00fde7b.txt, DRAW GAME,
Rule 7th, "Game 100"), each with Grimm's party around it (000_ff8a6ed40036e836.txt: the bell,
movement by gains, FIRST SESSION, or the partners' movement, BERGEN GAME) played whole with
hands the engine's players played: the session ends by the form's rule, the movement is the
form's, the final count and every play-off reach the prizes, the replay equals the live state."""
from __future__ import annotations

import random

import pytest

from hub.conductor import events as k
from hub.conductor import to_json
from hub.conductor.cards import colour
from hub.conductor.forms import FORMS
from hub.conductor.leads import keys_lead
from hub.conductor.movement import session_gains
from hub.conductor.prizes import awards, open_play_off
from hub.conductor.state import in_play, table_done
from party.hands import played_values

from .party import Party

NEW = ("muggins", "matador", "texas-42", "four-handed-match", "four-handed-skin")


def _play_session(p: Party, rng: random.Random) -> None:
    p.start()
    setup = p.state.setup
    while p.state.session.bell is None:
        s = p.state.session
        n = rng.choice([n for n, t in s.tables.items() if in_play(setup, t)])
        t = s.tables[n]
        values = played_values(setup, t.seats, rng, lead=keys_lead(setup.form, t.entered + 1))
        p.must(p.result(n, values))
    for n, t in sorted(p.state.session.tables.items()):
        if in_play(setup, t):
            p.must(p.table(n, k.BELL_ACK, {"bell": p.state.session.bell.id}))
            t = p.state.session.tables[n]
            if not table_done(setup, p.state.session, t):    # the hand in hand, finished
                p.must(p.result(n, played_values(setup, t.seats, rng)))


def _session_ended_by_its_rule(p: Party) -> None:
    setup, s = p.state.setup, p.state.session
    bell = s.bell
    assert bell.meaning == "finish"      # the others finish the hand in hand
    if setup.games_per_session:          # Texas 42: the fifth hand at a table rings
        assert setup.games_per_session == 5
        rang = [t for t in s.tables.values() if t.counted.games == 5]
    else:                                # a game of 100 won at a table rings
        assert setup.session_points == 100
        rang = [t for t in s.tables.values() if max(t.counted.points) >= 100]
    assert rang
    for t in s.tables.values():
        assert table_done(setup, s, t)
        assert t.acks[bell.id] + 1 >= t.entered   # no table began a hand after it saw the bell


@pytest.mark.parametrize("form", NEW)
def test_a_party_of_each_engine_game_runs_from_check_in_to_prizes(form):
    rng = random.Random(sum(map(ord, form)))
    book = FORMS[form]
    p = Party()
    p.create(form=form, tables=3)
    p.guests([f"G{i:02d}" for i in range(12)])
    p.draw(seed=3)
    for session in range(1, book.sessions + 1):
        before = p.state.session
        _play_session(p, rng)
        _session_ended_by_its_rule(p)
        if session == book.sessions:
            assert (p.staff(k.RESEAT, {"seed": 1}).why) == "LAST SESSION"
            break
        p.reseat(seed=session)
        ended, now = p.state.sessions[-2], p.state.session
        assert ended is not before or session == 1
        _moved_by_the_form(p, ended, now, book)
    p.must(p.staff(k.FINAL_COUNT, {}))
    for a in awards(p.state):
        if a.needs_play_off:
            n = 1 + [x.prize for x in awards(p.state)].index(a.prize) % 3
            p.must(p.staff(k.PLAY_OFF, {"prize": a.prize, "table": n}))
            while open_play_off(p.state, n) is not None:
                po = p.state.play_offs[open_play_off(p.state, n)]
                seats = po.cards + (None,) * (4 - len(po.cards))
                game = sum(e.live for e in po.entries) + 1
                p.must(p.table(n, k.RESULT, {"game": game, "values": played_values(
                    p.state.setup, seats, rng, play_off=True)}))
    prizes = to_json(p.state)["prizes"]
    assert prizes and all(x["winner"] for x in prizes), prizes
    if book.partnership:                  # the luckiest of each side (BERGEN GAME, prizes)
        assert [x["prize"] for x in prizes] == ["White", "Red"]
    assert p.replayed() == to_json(p.state)


def _moved_by_the_form(p: Party, ended, now, book) -> None:
    where = {c: n for n, t in now.tables.items() for c in t.seats if c}
    if book.movement == "partners":
        # the partners ahead move up one table and separate: every table keeps one of each
        # colour on each side (White at A and B, Red at C and D)
        for n, t in now.tables.items():
            assert [colour(c) for c in t.seats] == ["White", "White", "Red", "Red"], (n, t.seats)
        for n, t in ended.tables.items():
            side = "AC" if t.counted.points[0] > t.counted.points[1] else (
                "BD" if t.counted.points[1] > t.counted.points[0] else None)
            if side:
                movers = [c for c, x in zip(t.seats, "ABCD") if x in side]
                up = n - 1 if n > 1 else len(ended.tables)
                assert {where[c] for c in movers} == {up}
                # "Here they separate and take a new partner" (partners sit A+C or B+D)
                row = now.tables[up].seats
                assert row.index(movers[0]) % 2 != row.index(movers[1]) % 2
        return
    # Grimm by gains, after session I: the two who won most at each table move up one table
    if ended.number == 1:
        gains = session_gains(ended)
        for n, t in ended.tables.items():
            ranked = sorted((c for c in t.seats if c), key=lambda c: -gains.get(c, 0))
            if gains.get(ranked[1], 0) > gains.get(ranked[2], 0):
                up = n - 1 if n > 1 else len(ended.tables)
                assert where[ranked[0]] == where[ranked[1]] == up
