"""A season built from six journals the hub wrote (club_nights.py): the roster's rename,
merge and a host-confirmed near match; each named rule's standings against figures worked
out by hand from the nights' amounts; the ratings against openskill fed the same games."""
from __future__ import annotations

import pytest
from openskill.models import PlackettLuce, ThurstoneMostellerFull

from season import club as c
from season import files, roster as r
from season.report import season_json
from season.rules import Rules, standings
from season.ratings import rate, rated

from .club_nights import CAST, FILLERS, P, Q, R, S, T, U, V, W, build_club, name


def number(who: int) -> int:
    return who + 1


@pytest.fixture(scope="module")
def club_file(tmp_path_factory):
    return build_club(tmp_path_factory.mktemp("club"))


def test_the_roster_links_each_night_to_its_members(club_file):
    path, _, asked = club_file
    club = files.load(path)
    # Bertha Howe was no one the roster knew: a new member, the 41st
    howe = club.party("night 4").linked["Bertha Howe"]
    assert howe == 41 and club.roster.member(41).name == "Bertha Howe"
    # Grace Brwn was near Grace Brown alone: asked, and confirmed by the host
    assert [(m.guest, m.near) for m in asked[6]] == [("Grace Brwn", (number(V),))]
    assert all(not asked[n] for n in range(1, 6))
    assert club.party("night 6").linked["Grace Brwn"] == number(V)
    # the renamed member keeps her old name, and the nights before it
    ann = club.roster.member(number(P))
    assert (ann.name, ann.was) == ("Ann Parker", ("Ann Lee",))
    assert club.party("night 1").linked["Ann Lee"] == club.party("night 3").linked["Ann Parker"] == 1
    # merged: Bertha Howe is Bertha Grimm, under either number
    merged = r.merge(club.roster, number(Q), 41)
    assert merged.resolve(41) == number(Q) and merged.member(41).name == "Bertha Grimm"
    assert merged.member(number(Q)).was == ("Bertha Howe",)
    assert [m.number for m in merged.members] == list(range(1, 41))
    with pytest.raises(r.RosterError, match="already one"):
        r.merge(merged, 41, number(Q))
    with pytest.raises(r.RosterError, match="taken"):
        r.add(merged, "Someone", 41)


def season(path, rule: str, **rules) -> tuple:
    """The season of six nights by `rule`, Bertha Howe merged into Bertha Grimm:
    [(place, member number, score)] best first."""
    club = files.load(path)
    club = c.with_roster(club, r.merge(club.roster, number(Q), 41))
    club = c.set_season(club, "2026", tuple(f"night {n}" for n in range(1, 7)), Rules(rule, **rules))
    nights = files.season_nights(path, club, "2026")
    return [(s.place, s.number, s.score) for s in standings(club.season("2026").rules, club.roster, nights)]


def rest(place: int, score: int, *members: int) -> list:
    """The members who share `place` at `score`, listed by member number."""
    return [(place, number(m), score) for m in sorted(members)]


# Placing points 5, 3, 2, 1 for 1st to 4th (the equal share the better place):
#   night 1: P 60 1st (5), Q and R 48 2nd (3 each), S 20 4th (1)
#   night 2: Q 1st 5, P 2nd 3, T 3rd 2, U 4th 1
#   night 3: P 1st 5, R and V 44 2nd 3 each, S 4th 1
#   night 4: Q (as Bertha Howe) 1st 5, T 2nd 3, U 3rd 2, P 4th 1
#   night 5: R 1st 5, Q and S 44 2nd 3 each, T 4th 1
#   night 6: T 1st 5, P 2nd 3, V 3rd 2, R 4th 1
POINTS = dict(placing_points=(5, 3, 2, 1))


def test_placings_with_the_countback(club_file):
    got = season(club_file[0], "placings", **POINTS)
    # P 5+3+5+1+3 = 17; Q 3+5+5+3 = 16 (merged: 11 without night 4); R 3+3+5+1 = 12;
    # T 2+3+1+5 = 11; V 3+2 = 5 and S 1+1+3 = 5: equal, V's 2nd and 3rd beat S's 2nd and
    # two 4ths on the countback; U 1+2 = 3; W and the 32 others nothing: all share 8th
    assert got == [(1, number(P), 17), (2, number(Q), 16), (3, number(R), 12), (4, number(T), 11),
                   (5, number(V), 5), (6, number(S), 5), (7, number(U), 3),
                   *rest(8, 0, W, *FILLERS)]


def test_attendance_shared_ties(club_file):
    got = season(club_file[0], "attendance")
    # P and T came 5 times, Q (once as Bertha Howe) and R 4, S U V W 3, fillers 8 and 9
    # came three times and the other 30 twice
    assert got == [*rest(1, 5, P, T), *rest(3, 4, Q, R), *rest(5, 3, S, U, V, W, 8, 9),
                   *rest(11, 2, *FILLERS[2:])]


def test_best_three_of_six(club_file):
    got = season(club_file[0], "best-of", best=3, **POINTS)
    # P 5 5 3 | 3 1 and Q 5 5 3 | 3: 13 each, P's fifth night (1) breaks it; R 5 3 3 = 11;
    # T 5 3 2 = 10; S 3 1 1 and V 3 2: 5 each, no night left to tell them: shared;
    # U 2 1 = 3; the rest 0
    assert got == [(1, number(P), 13), (2, number(Q), 13), (3, number(R), 11), (4, number(T), 10),
                   *rest(5, 5, S, V), (7, number(U), 3), *rest(8, 0, W, *FILLERS)]


def test_prizes_won(club_file):
    got = season(club_file[0], "prizes", **POINTS)
    # two prizes a night (four tables, PRIZES); a tie for the 2nd prize waits for its
    # play-off and counts for nobody (nights 1, 3, 5). P: 1st on nights 1 and 3, 2nd on 2 and
    # 6 = 4; Q (night 2, and night 4 as Bertha Howe) and T (nights 4, 6) 2 each, Q ahead on
    # placing points 16 to 11; R 1 (night 5); V and S none and 5 placing points each: shared
    assert got == [(1, number(P), 4), (2, number(Q), 2), (3, number(T), 2), (4, number(R), 1),
                   *rest(5, 0, S, V), (7, number(U), 0), *rest(8, 0, W, *FILLERS)]


def test_parties_totals(club_file):
    got = season(club_file[0], "totals")
    # Q 48+64+56+44 = 212; P 60+40+52+8+36 = 196; T 36+48+24+64 = 172 and R 48+44+60+20 =
    # 172: T's best night (64) beats R's (60); S 92; V 76; U 52; the rest nothing
    assert got == [(1, number(Q), 212), (2, number(P), 196), (3, number(T), 172), (4, number(R), 172),
                   (5, number(S), 92), (6, number(V), 76), (7, number(U), 52), *rest(8, 0, W, *FILLERS)]


@pytest.mark.parametrize("model, library", [("plackett-luce", PlackettLuce),
                                            ("thurstone-mosteller", ThurstoneMostellerFull)])
def test_ratings_are_the_librarys_fed_the_same_games(club_file, model, library):
    path, games, _ = club_file
    club = files.load(path)
    club = c.with_roster(club, r.merge(club.roster, number(Q), 41))
    club = c.set_season(club, "2026", tuple(f"night {n}" for n in range(1, 7)), Rules(ratings=model))
    got = {x.number: x for x in rate(model, club.roster, files.season_nights(path, club, "2026")).table}
    # the library alone, fed each game as the test keyed it, night by night, table by table
    lib = library()
    now, played = {}, {}
    for night in games:
        for seats, gains in night:
            new = lib.rate([[now.get(w) or lib.rating()] for w in seats], ranks=[-g for g in gains])
            for w, (rating,) in zip(seats, new):
                now[w], played[w] = rating, played.get(w, 0) + 1
    assert sorted(got) == sorted(number(w) for w in now)
    for w, rating in now.items():
        mine = got[number(w)]
        assert (mine.mu, mine.sigma, mine.games) == (rating.mu, rating.sigma, played[w]), CAST[w]
    # ranked by mu - 3 sigma, the library's ordinal
    order = sorted(now, key=lambda w: (-now[w].ordinal(), number(w)))
    assert [x.number for x in rate(model, club.roster, files.season_nights(path, club, "2026")).table] == \
        [number(w) for w in order]


def test_ratings_rated_on_from_the_nights_before_are_the_whole_seasons(club_file):
    """The season's page rates tonight's games on from the nights before (kept): the same
    ratings and histories as the whole season rated at once."""
    path = club_file[0]
    club = files.load(path)
    nights = files.season_nights(path, club, "2026")
    for model in ("plackett-luce", "thurstone-mosteller"):
        whole = rate(model, club.roster, nights)
        for cut in (0, 3, 5):
            assert rate(model, club.roster, nights[cut:], start=rated(model, club.roster, nights[:cut])) == whole


def test_the_season_as_json_is_the_same_twice(club_file):
    path = club_file[0]
    club = files.load(path)
    club = c.set_season(club, "2026", tuple(f"night {n}" for n in range(1, 7)), Rules())
    one = season_json(club, "2026", files.season_nights(path, club, "2026"))
    two = season_json(club, "2026", files.season_nights(path, club, "2026"))
    assert one == two and one["standings"][0]["history"]
    # not merged here: Bertha Howe stands as the member she was entered as
    assert any(m["name"] == "Bertha Howe" for m in one["standings"])
    assert name(4, Q) == "Bertha Howe"
