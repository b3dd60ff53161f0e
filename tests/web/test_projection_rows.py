"""The projector's view made from the one before it (issue 25: at an ordinary pace one entry
changes one table and its four players, and the projection made all 800 players' rows anew
for it): at every step of whole parties of every form, with the conductor's switch hiding
the standings flipped now and then, the view made from the previous one is the view made
from nothing, and the rows of the tables nothing happened at are the previous view's own.
And a screen holding any of the last few views, sent what changed since (web/frames.py) and
applying it as the page does, holds the new view (session 15: the frames as deltas); where the
change is found no smaller than the view without being made (a rush: every row moved), it is not."""
import json
import random

import orjson
import pytest

from hub.conductor import events as k
from hub.conductor import standings, standings_after
from tests.conductor.party import Party
from tests.conductor.test_random_parties import play_session
from hub.conductor.leads import keys_lead
from party.hands import played_values
from web.frames import LISTS, applied, change, no_smaller
from web.projection import KEPT, Drawn, view

FORMS = ["block", "draw", "all-quarters", "sebastopol", "bergen", "tiddle-a-wink"]


class Projected(Party):
    """A party whose projector follows every event, as the projection's follower does (the standings kept from the
    ones before, as the hub keeps them)."""

    def __init__(self, rng: random.Random):
        super().__init__()
        self.rng, self.drawn, self.views, self.kept, self.standings = rng, None, 0, 0, None
        self.recent: list[dict] = []   # the last KEPT views, as the projection keeps them
        self.changes, self.unmade = 0, 0

    def journaled(self, ev) -> None:
        super().journaled(ev)
        self.standings = standings_after(self.state, self.standings)   # as the hub keeps them
        st, hidden = self.standings.page, self.rng.random() < 0.1
        assert st == standings(self.state)
        assert [p["rank"] for p in st["leaders"]] == list(range(1, len(st["leaders"]) + 1))   # the page ranks by place
        made = view(st, self.state, hidden, self.drawn)
        assert made == view(st, self.state, hidden)
        if self.drawn is not None and self.drawn.view["hidden"] == hidden and self.state.setup is self.drawn.setup:
            before = {row["table"]: row for row in self.drawn.view["tables"]}
            self.kept += sum(before.get(row["table"]) is row for row in made["tables"])
        self.views += 1
        self.drawn = Drawn(st, made, self.state.setup)
        self.screens_follow(made)

    def screens_follow(self, made: dict) -> None:
        """Screens holding each kept view (as JSON, the way they are sent) are sent the change."""
        wire = lambda v: json.loads(json.dumps(v))  # noqa: E731
        for base in self.recent:
            told = change(base, made, 7)
            if told is None:   # only where the whole is the screen's picture: a party created, a switch flipped
                assert base.keys() != made.keys() or base["hidden"] != made["hidden"]
                continue
            assert told["base"] == 7
            assert applied(wire(base), wire(told)) == wire(made)
            self.changes += 1
            if no_smaller(told, made):   # the whole view sent without making the change's JSON
                self.unmade += 1
                assert len(orjson.dumps(told).decode()) >= len(orjson.dumps(made).decode())
        self.recent = (self.recent + [made])[-KEPT:]


@pytest.mark.parametrize("form", FORMS)
def test_a_view_made_from_the_one_before_is_the_whole_view(form):
    rng = random.Random(FORMS.index(form))
    p = Projected(rng)
    guests = 24 if form in ("bergen", "tiddle-a-wink") else 22
    p.create(form=form, tables=(guests + 3) // 4, **({"sessions": 3} if form in ("bergen", "tiddle-a-wink") else {}))
    p.guests([f"G{i:02d}" for i in range(guests)])
    p.draw(seed=rng.randrange(1000))
    while True:
        play_session(p, rng)
        if not p.staff(k.RESEAT, {"seed": rng.randrange(1000)}).ok:
            break
    p.must(p.staff(k.FINAL_COUNT, {}))
    assert p.views > 100
    assert p.kept > p.views   # most tables' rows were the view before's
    assert p.changes > p.views


def _drawn_and_started() -> Party:
    """A Draw party of 30 tables, its 120 guests seated by a drawn lot and the bell rung."""
    p = Party()
    p.create(form="draw", tables=30)
    p.guests([f"G{i:03d}" for i in range(120)])
    p.draw(seed=5)
    p.start()
    return p


def test_a_rush_that_moved_every_row_is_sent_whole_without_its_change_made():
    """Every table keys its game at once (the rush after the bell): about every row of the view
    moved, and the change, found no smaller than the view without its JSON made, is indeed no
    smaller; a view where a few rows moved is not found so."""
    rng = random.Random(16)
    p = _drawn_and_started()
    setup = p.state.setup

    def keyed(tables):
        for n in tables:
            t = p.state.session.tables[n]
            p.must(p.result(n, played_values(setup, t.seats, rng, lead=keys_lead(setup.form, t.entered + 1))))
        return view(standings(p.state), p.state, False)
    before = view(standings(p.state), p.state, False)
    after = keyed(range(1, 31))
    told = change(before, after, 1)
    assert sum(len(told["lists"][name]["rows"]) for name in LISTS) > 140   # of 150 rows
    assert no_smaller(told, after)
    assert len(orjson.dumps(told).decode()) >= len(orjson.dumps(after).decode())
    later = keyed([7])
    assert not no_smaller(change(after, later, 2), later)


def test_players_who_rose_or_fell_are_sent_not_the_rows_between():
    """After one result a few players rise or fall past many others; the change sends the rows
    of the players whose totals moved and says where the other rows went, not every row between
    their old and new places (the page ranks the rows by place: session 18)."""
    rng = random.Random(18)
    p = _drawn_and_started()
    setup, seen = p.state.setup, []
    st = standings_after(p.state)
    drawn = Drawn(st.page, view(st.page, p.state, False), setup)
    for n in [n for _ in range(3) for n in range(1, 31)]:
        t = p.state.session.tables[n]
        p.must(p.result(n, played_values(setup, t.seats, rng, lead=keys_lead(setup.form, t.entered + 1))))
        st = standings_after(p.state, st)
        made = view(st.page, p.state, False, drawn)
        told = change(drawn.view, made, 1)
        sent = len(told["lists"].get("leaders", {"rows": []})["rows"])
        assert sent <= 4, sent   # the seats' players at most
        assert json.loads(json.dumps(applied(drawn.view, told))) == json.loads(json.dumps(made))
        # the places whose row differs: what a change by place sent
        seen.append(sum(row != was for row, was in zip(made["leaders"], drawn.view["leaders"])))
        drawn = Drawn(st.page, made, setup)
    assert max(seen) > 20   # some rose or fell past many others
