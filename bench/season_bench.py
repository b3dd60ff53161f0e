"""A club's season at scale (issue 26): 12 parties of 200 tables (800 guests each, Draw,
three sessions of four games: 2,400 games a party, 28,800 in all), the season's standings
by each rule and its ratings.

    python bench/season_bench.py [--parties 12] [--tables 200] [--dir DIR] [--runs 3]

The parties are played once by the hub's batch step (party/quick_party.py, about 20 s a
party on a loaded machine) and journaled into DIR (default: a folder in the system's temp
directory, kept for the next run). Then, each best of --runs:
- read: each journal folded by the conductor and read off as a night (season/files.py),
  cold (nothing remembered of an earlier read);
- standings: every rule's standings from the nights (season/rules.py);
- ratings: openskill Plackett-Luce and Thurstone-Mosteller over every game in order;
- season: the whole report `party season show --json` prints, from the nights read.
The issue's target, "season standings and ratings computed in under 2 s", is the season
line (from the nights; the reads are the conductor's replay, docs/performance.md section 2).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from bench.room import machine  # noqa: E402
from party.quick_party import play_to_journal  # noqa: E402
from party.setup import guest_names  # noqa: E402
from season import club as c  # noqa: E402
from season import files  # noqa: E402
from season.ratings import rate  # noqa: E402
from season.roster import Roster, add  # noqa: E402
from season.report import season_json  # noqa: E402
from season.rules import RULES, Rules, standings  # noqa: E402


def best(runs: int, step) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = step()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parties", type=int, default=12)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    folder = a.dir or Path(tempfile.gettempdir()) / f"season-bench-{a.parties}x{a.tables}"
    folder.mkdir(parents=True, exist_ok=True)
    print(machine())
    guests = guest_names(a.tables * 4)
    journals = []
    for i in range(1, a.parties + 1):
        journal = folder / f"party-{i}.sqlite3"
        if not journal.exists():
            t = time.perf_counter()
            play_to_journal(journal, guests, tables=a.tables, seed=i, now=1_700_000_000.0 + i * 86_400)
            print(f"party {i} played and journaled in {time.perf_counter() - t:.1f} s ({journal})", flush=True)
        journals.append((f"party {i}", journal))

    def read():
        files.forget_folded()
        return [files.read_night(name, j) for name, j in journals]

    t_read, nights = best(a.runs, read)
    roster = Roster()
    for guest in guests:   # the club's list first: every guest a member the roster is sure of
        roster, _ = add(roster, guest)
    club = c.Club(roster)
    for n, (name, j) in zip(nights, journals):
        club, _ = c.add_party(club, name, str(j), n, add_new=True)
    linked = [(n, club.party(n.party).linked) for n in nights]
    games = sum(len(n.games) for n in nights)
    unlinked = sum(len(n.played) - len(links) for n, links in linked)
    print(f"{a.parties} parties of {a.tables} tables: {len(club.roster.members)} members, {games:,} games, "
          f"{unlinked} places unlinked")
    print(f"read: {a.parties} journals folded and read off as nights  {t_read:.2f} s")
    for rule in RULES:
        t, _ = best(a.runs, lambda: standings(Rules(rule), club.roster, linked))
        print(f"standings by {rule:<11} {t * 1000:8.1f} ms")
    for model in ("plackett-luce", "thurstone-mosteller"):
        t, _ = best(a.runs, lambda: rate(model, club.roster, linked))
        print(f"ratings, {model:<20} {t:6.2f} s  ({t / games * 1e6:.0f} us a game)")
    club = c.set_season(club, "bench", tuple(name for name, _ in journals), Rules())
    t, _ = best(a.runs, lambda: season_json(club, "bench", linked))
    print(f"season: standings and ratings, the whole report from the nights  {t:.2f} s (target < 2 s)")


if __name__ == "__main__":
    main()
