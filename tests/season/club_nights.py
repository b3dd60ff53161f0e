"""A club's six nights, played through the hub's own batch step (tests/conductor/party.py)
and journaled by the hub's journal writer (hub.journal.Journal) into files, as a season
reads them: a cast of 40, sixteen of them each night, four tables of Draw, one session of
four games; at each table seat A wins game 1 with what its guest is to make that night,
B game 2, C game 3, D game 4 (a guest to make nothing blocks his game: no count).

The figures each test checks are worked out by hand from AMOUNTS and PRESENT below.
"""
from __future__ import annotations

from pathlib import Path

from hub.conductor import events as k
from hub.conductor.cards import SEATS
from hub.journal import Journal
from party.setup import guest_names
from season import club as c
from season import files
from season import roster as r
from season.rules import Rules
from tests.conductor.party import Party, win

CAST = guest_names(40)       # member numbers 1-40 in this order
P, Q, R, S, T, U, V, W = range(8)    # the regulars; 8-39 come now and then
FILLERS = list(range(8, 40))
# Ann Lee (P) is renamed Ann Parker in the roster before night 3; her guest lists say so from
# then on. Bertha Grimm (Q) comes on night 4 as Bertha Howe, whom the roster does not know
# (added as a new member, merged into Q after); on night 6 the list misspells Grace Brown (V).
NAMES = {3: {P: "Ann Parker"}, 4: {P: "Ann Parker", Q: "Bertha Howe"},
         5: {P: "Ann Parker"}, 6: {P: "Ann Parker", V: "Grace Brwn"}}
REGULARS = {1: [P, Q, R, S, T, U], 2: [P, Q, T, U, V, W], 3: [P, R, S, V, W], 4: [P, Q, T, U],
            5: [Q, R, S, W, T], 6: [P, R, T, V]}
# sixteen a night: the fillers in turn, so each comes twice and 8 and 9 three times
_turns = FILLERS + FILLERS + FILLERS[:2]
_cut = [0]
for _n in range(1, 7):
    _cut.append(_cut[-1] + 16 - len(REGULARS[_n]))
PRESENT = {n: REGULARS[n] + _turns[_cut[n - 1]:_cut[n]] for n in range(1, 7)}
# each night's sixteenths made; everyone else present makes none
AMOUNTS = {1: {P: 60, Q: 48, R: 48, S: 20}, 2: {Q: 64, P: 40, T: 36, U: 12},
           3: {P: 52, R: 44, V: 44, S: 28}, 4: {Q: 56, T: 48, U: 40, P: 8},
           5: {R: 60, Q: 44, S: 44, T: 24}, 6: {T: 64, P: 36, V: 32, R: 20}}


def name(night: int, who: int) -> str:
    return NAMES.get(night, {}).get(who, CAST[who])


def play_night(night: int, journal: Path) -> list[tuple[list[int], list[int]]]:
    """The night played and journaled at `journal`; returns its games as the test keyed
    them, in order: (the cast at A, B, C, D, what each gained)."""
    p = Party()
    p.create(form="draw", tables=4, sessions=1)
    guests = {name(night, who): who for who in PRESENT[night]}
    p.guests(list(guests))
    p.draw(seed=night)
    p.start()
    games = []
    for game in range(4):
        for n in range(1, 5):
            s = p.state.session
            if s.bell is not None and any(s.bell.id not in t.acks for t in s.tables.values() if t.players):
                p.ack_bell()
            seats = [guests[p.state.holders[c]] for c in p.state.session.tables[n].seats]
            winner = seats[game]
            gain = AMOUNTS[night].get(winner, 0)
            p.must(win(p, n, SEATS[game], gain))
            games.append((seats, [gain if who == winner else 0 for who in seats]))
    p.must(p.staff(k.FINAL_COUNT, {}))
    j = Journal(journal)
    j.append(p.journal)
    j.close()
    return games


def build_club(d: Path) -> tuple[Path, list, dict]:
    """The club's file at d/club.json as a secretary builds it night by night: the cast
    entered as members 1-40, Ann Lee renamed before night 3, each night added (a guest nobody
    is near added as a member: Bertha Howe, the 41st), a near match confirmed by the host; the
    season 2026 of the six nights by the default rule (placings 10, 8, 6, 5, 4, 3, 2, 1).
    Returns the file, each night's games as keyed, and what each night asked the host."""
    path = d / "club.json"
    roster = r.Roster()
    for guest in CAST:
        roster, _ = r.add(roster, guest)
    club = c.Club(roster)
    games, asked = [], {}
    for night in range(1, 7):
        if night == 3:   # she married: the roster's name follows, the old one is kept
            club = c.with_roster(club, r.rename(club.roster, P + 1, "Ann Parker"))
        journal = d / f"night-{night}.sqlite3"
        games.append(play_night(night, journal))
        club, open_ = c.add_party(club, f"night {night}", files.named(path, journal),
                                  files.read_night(f"night {night}", journal), add_new=True)
        asked[night] = open_
        for m in open_:   # the host confirms the near match the roster offers
            club = c.link(club, f"night {night}", m.guest, m.near[0])
    club = c.set_season(club, "2026", tuple(f"night {n}" for n in range(1, 7)), Rules())
    files.save(path, club)
    return path, games, asked
