"""The season's edge: the club's file (JSON, beside wherever the secretary keeps it; its
journals named relative to it) and the parties' journals, read through the hub's public
reading (hub.journal.open_reader, read_events) and folded by the conductor, as `party
replay` does. Nothing else in season/ touches a file.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from hub import conductor
from hub.journal import last_seq_of, open_reader, read_events

from . import club as c
from .nights import Night, night


def load(path: str | Path) -> c.Club:
    try:
        return c.from_json(json.loads(Path(path).read_text()))
    except FileNotFoundError:
        return c.Club()


def save(path: str | Path, club: c.Club) -> None:
    """Written then renamed: a crash leaves the old file or the new one, never half of one."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as f:
        json.dump(c.to_json(club), f, indent=1, ensure_ascii=False)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def journal_path(club_file: str | Path, journal: str) -> Path:
    return (Path(club_file).resolve().parent / journal) if not Path(journal).is_absolute() else Path(journal)


def named(club_file: str | Path, journal: str | Path) -> str:
    """How the club's file names a journal: relative to it where it lies below it."""
    where = Path(journal).resolve()
    try:
        return str(where.relative_to(Path(club_file).resolve().parent))
    except ValueError:
        return str(where)


# Nights folded already, by (journal, party, its last seq): a journal is append-only, so
# a night changes only when its journal grows (a party of 200 tables takes most of a second
# to fold; the season's page would fold every night again at every visit).
_folded: dict[tuple[str, str, int], Night] = {}


def read_night(party: str, journal: str | Path) -> Night:
    """The party's night, from its journal alone (read-only: safe beside a running hub)."""
    if not Path(journal).exists():
        raise FileNotFoundError(f"no journal at {journal}")
    key = (str(Path(journal).resolve()), party, last_seq_of(journal))
    known = _folded.get(key)
    if known is None:
        db = open_reader(journal)
        try:
            known = night(party, conductor.replay(read_events(db)))
        finally:
            db.close()
        if len(_folded) > 256:   # a long-running hub shown many seasons: start again
            _folded.clear()
        _folded[key] = known
    return known


def forget_folded() -> None:
    """Fold every journal again at the next read (the bench's cold reads)."""
    _folded.clear()


def season_state(club_file: str | Path, club: c.Club, season: str) -> tuple[tuple[str, int], ...]:
    """Each of the season's journals and its last seq: the season changes only when one of
    these does (or the club's record)."""
    out = []
    for name in club.season(season).parties:
        journal = journal_path(club_file, club.party(name).journal)
        if not journal.exists():
            raise FileNotFoundError(f"no journal at {journal}")
        out.append((str(journal.resolve()), last_seq_of(journal)))
    return tuple(out)


def season_nights(club_file: str | Path, club: c.Club, season: str) -> list[tuple[Night, dict]]:
    """The season's nights in order, each with its guests' links."""
    out = []
    for name in club.season(season).parties:
        p = club.party(name)
        out.append((read_night(name, journal_path(club_file, p.journal)), p.linked))
    return out
