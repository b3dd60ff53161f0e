"""Whole parties of every form with hands played by the engine's players (the keyed values
are what such hands give), the bell rung when the book says, tables acknowledging in any
order: every session seats each present guest exactly once, at most four to a table; after
session II of Block, Draw and All Quarters the cards sit in order of their totals from
Table 1 A downward (THIRD SESSION); the movement keeps every table's number of players
(Sebastopol, Bergen, Tiddle-a-wink); the final count passes; replay equals the live state."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hub.conductor import events as k
from hub.conductor import replay, to_json
from hub.conductor.leads import keys_lead
from hub.conductor.prizes import awards, totals
from party.hands import played_values
from hub.conductor.state import in_play, present, table_done

from .party import Party

SIZES = {"block": (5, 23), "draw": (5, 23), "all-quarters": (5, 23), "sebastopol": (5, 23),
         "bergen": (8, 24), "tiddle-a-wink": (8, 24)}


def play_session(p: Party, rng: random.Random) -> None:
    p.start()
    setup = p.state.setup
    for _ in range(400):
        s = p.state.session
        if s.bell is not None:
            break
        n = rng.choice([n for n, t in s.tables.items() if in_play(setup, t)])
        t = s.tables[n]
        values = played_values(setup, t.seats, rng, lead=keys_lead(setup.form, t.entered + 1))
        p.must(p.result(n, values))
    if p.state.session.bell is None:          # a party by the clock: the conductor rings
        p.must(p.staff(k.BELL, {"meaning": "stop"}))
    order = sorted(p.state.session.tables)
    rng.shuffle(order)
    for n in order:
        s = p.state.session
        t = s.tables[n]
        if not in_play(setup, t):
            continue
        p.must(p.table(n, k.BELL_ACK, {"bell": s.bell.id}))
        t = p.state.session.tables[n]
        if not table_done(setup, p.state.session, t):    # the game in hand, finished
            values = played_values(setup, t.seats, rng, lead=keys_lead(setup.form, t.entered + 1))
            p.must(p.result(n, values))


def check_seating(p: Party) -> None:
    s = p.state.session
    seated = [c for t in s.tables.values() for c in t.seats if c]
    assert sorted(seated) == sorted(present(p.state))


@settings(max_examples=18, deadline=None)
@given(form=st.sampled_from(sorted(SIZES)), data=st.data())
def test_random_parties_of_every_form(form, data):
    low, high = SIZES[form]
    guests = data.draw(st.integers(low, high).map(lambda n: n - n % 4 if form in
                                                  ("bergen", "tiddle-a-wink") else n))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    p = Party()
    sessions = {"bergen": 3, "tiddle-a-wink": 3}.get(form)
    p.create(form=form, tables=(guests + 3) // 4, **({"sessions": sessions} if sessions else {}))
    p.guests([f"G{i:02d}" for i in range(guests)])
    p.draw(seed=rng.randrange(1000))
    check_seating(p)
    while True:
        play_session(p, rng)
        v = p.staff(k.RESEAT, {"seed": rng.randrange(1000)})
        if not v.ok:
            assert v.why == "LAST SESSION"
            break
        check_seating(p)
        before = p.state.sessions[-2]
        after = p.state.session
        if form in ("block", "draw", "all-quarters") and after.number >= 3:
            amount = totals(p.state)
            order = [c for n in sorted(after.tables) for c in after.tables[n].seats if c]
            assert [amount[c] for c in order] == sorted((amount[c] for c in order), reverse=True)
        elif form not in ("block", "draw", "all-quarters"):
            assert {n: t.players for n, t in before.tables.items()} == \
                   {n: t.players for n, t in after.tables.items()}
    p.must(p.staff(k.FINAL_COUNT, {}))
    assert awards(p.state)
    assert replay(p.journal) == p.state
    assert to_json(replay(p.journal)) == to_json(p.state)
