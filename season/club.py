"""The club's own record, as a value: its roster, the parties it has added (each a journal,
with its guests' links to members) and its seasons (a list of parties and the rules).
What a secretary does to it is a pure function here; season/files.py keeps it in a file.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import roster as r
from .nights import Night
from .roster import Match, Roster, RosterError
from .rules import Rules


@dataclass(frozen=True)
class Party:
    name: str                     # as the season shows it ("March", "party-3")
    journal: str                  # its journal's path, as given (relative: to the club file)
    links: tuple[tuple[str, int], ...] = ()    # (guest, member number)

    @property
    def linked(self) -> dict[str, int]:
        return dict(self.links)


@dataclass(frozen=True)
class Season:
    name: str
    parties: tuple[str, ...] = ()
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True)
class Club:
    roster: Roster = field(default_factory=Roster)
    parties: tuple[Party, ...] = ()
    seasons: tuple[Season, ...] = ()

    def party(self, name: str) -> Party:
        for p in self.parties:
            if p.name == name:
                return p
        raise RosterError(f"no party {name!r} in the club's record")

    def season(self, name: str) -> Season:
        for s in self.seasons:
            if s.name == name:
                return s
        raise RosterError(f"no season {name!r}; the club has: {', '.join(s.name for s in self.seasons) or 'none yet'}")


def with_roster(club: Club, roster: Roster) -> Club:
    return replace(club, roster=roster)


def add_party(club: Club, name: str, journal: str, night: Night, add_new: bool) -> tuple[Club, tuple[Match, ...]]:
    """The party in the club's record, its guests linked to members where the roster is
    sure of them (a name or a former name); with `add_new`, a guest the roster has no one
    near to becomes a member in the same step. Returned too: the guests left unlinked,
    each with the members near his name, for the host to confirm (`link`)."""
    if any(p.name == name for p in club.parties):
        raise RosterError(f"the club already has a party named {name!r}")
    roster, links, open_ = club.roster, [], []
    for guest in sorted(night.played):
        m = r.match(roster, guest)
        if m.number is None and not m.near and add_new:
            roster, member = r.add(roster, guest)
            m = Match(guest, member.number)
        if m.number is not None:
            links.append((guest, m.number))
        else:
            open_.append(m)
    return replace(club, roster=roster, parties=club.parties + (Party(name, journal, tuple(links)),)), tuple(open_)


def add_journal(club: Club, name: str, journal: str) -> Club:
    """A party entered with no guest linked yet (tonight's, at the door: linked one by one)."""
    if any(p.name == name for p in club.parties):
        raise RosterError(f"the club already has a party named {name!r}")
    return replace(club, parties=club.parties + (Party(name, journal),))


def link(club: Club, party: str, guest: str, number: int | None) -> Club:
    """The host's word: `guest` at `party` is member `number` (None: a new member, added now)."""
    p = club.party(party)
    roster = club.roster
    if number is None:
        roster, member = r.add(roster, guest)
        number = member.number
    else:
        number = roster.member(number).number
    links = tuple(x for x in p.links if x[0] != guest) + ((guest, number),)
    parties = tuple(replace(x, links=tuple(sorted(links))) if x is p else x for x in club.parties)
    return replace(club, roster=roster, parties=parties)


def set_season(club: Club, name: str, parties: tuple[str, ...], rules: Rules) -> Club:
    """The season `name` with these parties (in order) and rules, made or changed."""
    for p in parties:
        club.party(p)
    new = Season(name, parties, rules)
    if any(s.name == name for s in club.seasons):   # changed in its place
        seasons = tuple(new if s.name == name else s for s in club.seasons)
    else:
        seasons = club.seasons + (new,)
    return replace(club, seasons=seasons)


def to_json(club: Club) -> dict:
    return {
        "members": [{"number": m.number, "name": m.name, "was": list(m.was)} for m in club.roster.members],
        "merged": [{"number": gone, "into": into} for gone, into in club.roster.merged],
        "parties": [{"name": p.name, "journal": p.journal, "links": dict(p.links)} for p in club.parties],
        "seasons": [{"name": s.name, "parties": list(s.parties), **s.rules.to_json()} for s in club.seasons],
    }


def from_json(d: dict) -> Club:
    roster = Roster(tuple(r.Member(m["number"], m["name"], tuple(m.get("was", ())))
                          for m in sorted(d.get("members", ()), key=lambda m: m["number"])),
                    tuple((x["number"], x["into"]) for x in d.get("merged", ())))
    parties = tuple(Party(p["name"], p["journal"], tuple(sorted((g, int(n)) for g, n in p.get("links", {}).items())))
                    for p in d.get("parties", ()))
    seasons = tuple(Season(s["name"], tuple(s.get("parties", ())), Rules.from_json(s)) for s in d.get("seasons", ()))
    return Club(roster, parties, seasons)
