"""`party demo --season N`: a club's season to look at. N short parties (two sessions of
Draw) played by the hub's batch step in this process (party/quick_party.py), each by sixteen
guests of a cast half as large again, drawn afresh each night, so the cast overlaps; each
party added to a club's record with its guests made members; then the hub serves the last
party with the season's pages (docs/season.md)."""
from __future__ import annotations

import random
from pathlib import Path

from season import club as c
from season import files
from season.rules import Rules

from .quick_party import play_to_journal
from .setup import guest_names

SEASON = "demo"


def play_season(folder: Path, parties: int, *, tables: int, seed: int, say=print) -> tuple[Path, Path]:
    """The club's file and the last party's journal, in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    club_file, club = folder / "club.json", c.Club()
    cast = guest_names(tables * 6)
    names = []
    for i in range(1, parties + 1):
        rng = random.Random(f"{seed}:{i}")
        guests = rng.sample(cast, tables * 4)
        journal = folder / f"party-{i}.sqlite3"
        play_to_journal(journal, guests, tables=tables, seed=rng.randrange(1 << 30), sessions=2)
        name = f"party {i}"
        club, _ = c.add_party(club, name, files.named(club_file, journal), files.read_night(name, journal),
                              add_new=True)
        names.append(name)
        say(f"{name} played: {len(guests)} guests of a cast of {len(cast)} ({journal})")
    files.save(club_file, c.set_season(club, SEASON, tuple(names), Rules()))
    return club_file, journal
