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
