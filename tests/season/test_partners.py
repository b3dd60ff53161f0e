"""Ratings at a partnership party (Bergen: "the partners" White and Red, BERGEN GAME,
../shared/seeds/000_ff8a6ed40036e836.txt): each game is one match of two teams, the partners
at A and C against those at B and D, as the session seated them; rated as openskill rates
teams of two fed the same games in the same order."""
from __future__ import annotations

from openskill.models import PlackettLuce

from hub.conductor import replay, to_json
from hub.journal import open_reader, read_events
from party.quick_party import play_to_journal
from party.setup import guest_names
from season import files
from season.ratings import rate
from season.roster import Roster, add


def test_partners_are_rated_as_teams(tmp_path):
    journal = tmp_path / "bergen.sqlite3"
    play_to_journal(journal, guest_names(8), tables=2, seed=3, form="bergen", sessions=2)
    db = open_reader(journal)
    party = to_json(replay(read_events(db)))
    db.close()
    partners = {frozenset(((s["A"], s["C"]), (s["B"], s["D"]))) for session in party["sessions"]
                for s in session["seating"].values()}
    night = files.read_night("bergen", journal)
    assert night.games and all(frozenset(g.teams) in partners for g in night.games)

    roster = Roster()
    for name in guest_names(8):
        roster, _ = add(roster, name)
    links = {m.name: m.number for m in roster.members}
    lib, now = PlackettLuce(), {}
    for g in night.games:
        new = lib.rate([[now.get(p) or lib.rating() for p in team] for team in g.teams],
                       ranks=[-x for x in g.gains])
        for team, rated in zip(g.teams, new):
            now.update(zip(team, rated))
    got = rate("plackett-luce", roster, [(night, links)])
    assert {links[p]: (r.mu, r.sigma) for p, r in now.items()} == {x.number: (x.mu, x.sigma) for x in got.table}
    # all eight rated, each with his partner's games
    assert len(got.table) == 8


def test_a_train_game_rates_the_fewest_points_best(tmp_path):
    """Mexican Train: the fewest points win a game and the party (its form's `lowest_wins`):
    the night places the lowest total first, and a game's fewest points rate best."""
    journal = tmp_path / "train.sqlite3"
    play_to_journal(journal, guest_names(8), tables=2, seed=3, form="mexican-train")
    night = files.read_night("train", journal)
    assert list(night.amounts) == sorted(night.amounts) and night.places[0] == 1
    db = open_reader(journal)
    state = replay(read_events(db))
    db.close()
    # the first game keyed, its points as the table keyed them
    first = min((e for t in state.sessions[0].tables.values() for e in t.entries), key=lambda e: e.seq)
    points = {state.holders[c]: g for c, g in zip(first.seats, first.gains) if c}
    out, worst = min(points, key=points.get), max(points, key=points.get)
    assert points[out] < points[worst]
    roster = Roster()
    for name in guest_names(8):
        roster, _ = add(roster, name)
    links = {m.name: m.number for m in roster.members}
    one_game = type(night)(**{**night.__dict__, "games": night.games[:1]})
    assert {g for team in night.games[0].teams for g in team} == set(points)
    got = {r.number: r.mu for r in rate("plackett-luce", roster, [(one_game, links)]).table}
    assert got[links[out]] > 25 > got[links[worst]]
