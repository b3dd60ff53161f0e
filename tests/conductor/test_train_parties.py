"""Mexican Train and Chicken Foot parties as clubs play them (hub/conductor/forms/trains.py;
issue 27 quotes the clubs: a retirement community's "deal 11 and move the three lowest scores
to another table after each game", senior-games events' "timed games of 60 minutes", "another
club seats late-comers with the table's highest score"). The games' own rules are the
engine's (published pages, hub/scoring/forms/trains.py): a round per double of the set (the
official rules: "Number of Rounds: 13" on "Double-Twelves", https://mexicantrain.com/rules.html)
and "The player with the fewest points at the end of the game wins"."""
from __future__ import annotations

import random

import pytest

from hub.conductor import events as k
from hub.conductor import audit, screens, standings, to_json
from hub.conductor.movement import session_gains
from hub.conductor.prizes import awards, open_play_off, totals
from hub.conductor.state import in_play, table_done
from party.hands import played_values

from .party import Party

SEATS = "ABCD"


def _round(p: Party, n: int, rng: random.Random) -> None:
    t = p.state.session.tables[n]
    p.must(p.result(n, played_values(p.state.setup, t.seats, rng, game=t.entered + 1)))


def _play_session(p: Party, rng: random.Random) -> None:
    p.start()
    setup = p.state.setup
    while p.state.session.bell is None:
        s = p.state.session
        _round(p, rng.choice([n for n, t in s.tables.items() if in_play(setup, t)]), rng)
    for n, t in sorted(p.state.session.tables.items()):
        if in_play(setup, t):
            p.must(p.table(n, k.BELL_ACK, {"bell": p.state.session.bell.id}))
            if not table_done(setup, p.state.session, p.state.session.tables[n]):
                _round(p, n, rng)          # the round in hand, finished


def _party(form: str, guests: int = 12, **setup) -> Party:
    p = Party()
    p.create(form=form, tables=(guests + 3) // 4, **setup)
    p.guests([f"G{i:02d}" for i in range(guests)])
    p.draw(seed=5)
    return p


@pytest.mark.parametrize("form, rounds, top", [("mexican-train", 13, 12), ("chicken-foot", 10, 9)])
def test_a_session_is_a_whole_game_of_rounds_the_engine_counting_down(form, rounds, top):
    p = _party(form)
    assert p.state.setup.games_per_session == rounds
    p.start()
    screen = screens(p.state)[1]
    assert f"ROUND 1 OF {rounds}" in screen["lines"] and f"ENGINE {top}-{top}" in screen["lines"]
    # one field per seat, the spots left (the one who went out: 0)
    assert [f["k"] for f in screen["form"]["fields"]] == list(SEATS)
    rng = random.Random(3)
    for _ in range(rounds - 1):
        _round(p, 1, rng)
        assert p.state.session.bell is None
    assert "ENGINE 0-0" in screens(p.state)[1]["lines"]
    _round(p, 1, rng)                       # the last round at Table 1 rings the bell
    bell = p.state.session.bell
    assert bell is not None and bell.meaning == "finish"


def test_the_three_lowest_of_each_table_move_up_one_table_and_the_highest_stays():
    p = _party("mexican-train", hand=11)           # "deal 11"
    rng = random.Random(7)
    _play_session(p, rng)
    ended = p.state.session
    gains = session_gains(ended)
    p.reseat(seed=1)
    now = p.state.session
    where = {c: (n, SEATS[now.tables[n].seats.index(c)]) for n, t in now.tables.items() for c in t.seats if c}
    for n, t in ended.tables.items():
        ranked = sorted((c for c in t.seats if c), key=lambda c: gains[c])
        up = n - 1 if n > 1 else len(ended.tables)
        if gains[ranked[2]] < gains[ranked[3]]:
            assert {where[c][0] for c in ranked[:3]} == {up}
            assert where[ranked[3]] == (n, SEATS[t.seats.index(ranked[3])])   # stays in his seat


def test_the_winner_moves_variant_moves_only_the_lowest_of_each_table():
    p = _party("chicken-foot", movement="winner")
    rng = random.Random(8)
    _play_session(p, rng)
    ended, gains = p.state.session, session_gains(p.state.session)
    p.reseat(seed=1)
    now = p.state.session
    for n, t in ended.tables.items():
        ranked = sorted((c for c in t.seats if c), key=lambda c: gains[c])
        up = n - 1 if n > 1 else len(ended.tables)
        if gains[ranked[0]] < gains[ranked[1]]:
            assert ranked[0] in now.tables[up].seats
            assert all(c in now.tables[n].seats for c in ranked[1:])


def test_the_lowest_total_wins_the_standings_and_the_prizes_from_check_in_to_prizes():
    p = _party("mexican-train", booby=True)
    rng = random.Random(11)
    for session in range(1, 4):
        _play_session(p, rng)
        if session < 3:
            p.reseat(seed=session)
    p.must(p.staff(k.FINAL_COUNT, {}))
    for a in awards(p.state):
        if a.needs_play_off:
            p.must(p.staff(k.PLAY_OFF, {"prize": a.prize, "table": 1}))
            while open_play_off(p.state, 1) is not None:
                po = p.state.play_offs[open_play_off(p.state, 1)]
                game = sum(e.live for e in po.entries) + 1
                p.must(p.table(1, k.RESULT, {"game": game, "values": played_values(
                    p.state.setup, po.cards + (None,) * (4 - len(po.cards)), rng, play_off=True)}))
    amount = totals(p.state)
    got = {a.prize: a for a in awards(p.state)}
    # the first prize to the lowest total, the booby to the highest
    assert amount[got["1"].winner] == min(amount.values())
    assert amount[got["booby"].winner] == max(amount.values())
    st = standings(p.state)
    assert st["lowest_wins"] is True
    leaders = [row["amount"] for row in st["leaders"]]
    assert leaders == sorted(leaders)
    assert p.replayed() == to_json(p.state)


def test_a_late_comer_is_seated_with_the_tables_highest_score_where_the_club_says_so():
    for late, expect_highest in ((None, False), ("table-highest", True)):
        p = _party("mexican-train", guests=7, late_score=late) if late else _party("mexican-train", guests=7)
        rng = random.Random(2)
        p.start()
        for _ in range(3):
            _round(p, 2, rng)
        table = p.state.session.tables[2]
        highest = max(totals(p.state)[c] for c in table.seats if c)
        p.must(p.staff(k.WALK_IN, {"guest": "Late Lou"}))
        card = p.state.guests["Late Lou"].card
        assert p.where("Late Lou")[0] == 2
        assert totals(p.state)[card] == (highest if expect_highest else 0)
        assert p.replayed() == to_json(p.state)


def test_a_timed_game_ends_by_the_bell_with_the_round_in_hand_finished_or_stopped():
    for bell in ("finish", "stop"):
        p = _party("mexican-train", session_limit=60, bell=bell)
        p.start()
        p.now += 59 * 60
        assert p.tick() == []
        p.now += 61
        (rung,) = p.tick()
        assert p.state.session.bell.meaning == bell
        for n in p.state.session.tables:
            p.must(p.table(n, k.BELL_ACK, {"bell": p.state.session.bell.id}))
        t = p.state.session.tables[1]
        assert table_done(p.state.setup, p.state.session, t) is (bell == "stop")
        v = p.result(1, played_values(p.state.setup, t.seats, random.Random(1)))
        assert v.ok is (bell == "finish")
        assert audit(p.journal)[1] == ()      # the clock's bell is the one the hub would ring


@pytest.mark.parametrize("body, why", [
    ({"movement": "partners"}, "BAD MOVEMENT"), ({"bell": "ring"}, "BAD BELL"),
    ({"late_score": "lowest"}, "BAD LATE SCORE"), ({"hand": 0}, "BAD DEAL"), ({"blanks": "all"}, "BAD BLANKS")])
def test_the_clubs_options_refuse_what_no_club_plays(body, why):
    p = Party()
    v = p.staff(k.PARTY_CREATED, {"form": "mexican-train", "tables": 2, **body})
    assert (v.ok, v.why) == (False, why)
    v = p.staff(k.PARTY_CREATED, {"form": "block", "tables": 2, "late_score": "table-highest"})
    assert (v.ok, v.why) == (False, "BAD LATE SCORE")


def test_a_clubs_house_rule_for_blanks_scores_the_round_and_names_its_fields():
    """The engine's house rules for blanks (hub/scoring/forms/trains.py; reference.com, How do
    you play Chicken Foot dominoes?: "A double-blank domino is equal to 50 points"): a party
    set up with one keys points, not spots, and what a seat may hold grows (the double-blank,
    50, is among the heaviest pieces it may hold)."""
    plain, fifty = _party("chicken-foot"), _party("chicken-foot", blanks="double-blank-50")
    for p in (plain, fifty):
        p.start()
    field = [screens(p.state)[1]["form"]["fields"][0] for p in (plain, fifty)]
    assert (field[0]["label"], field[1]["label"]) == ("A SPOTS LEFT", "A POINTS LEFT")
    assert field[1]["max"] > field[0]["max"]
    v = fifty.result(1, {"A": field[1]["max"] + 1, "B": 0, "C": 5, "D": 9})
    assert (v.ok, v.why) == (False, f"A: {field[1]['max']} AT MOST")
