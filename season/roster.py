"""The club's roster: its members, each with a member number and a name, across parties.

A value (`Roster`) and the few things a secretary does to it, each returning a new
roster: add a member, rename one (the old name is kept, so a journal that has the old
name still finds him), merge two entries that turned out to be one person (the second
number then stands for the first, in every party linked to it), and find the member a
party's guest is. Kept in the club's file by season/club.py.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, replace

from hub.conductor.names import normal


class RosterError(ValueError):
    """A change the roster cannot take, said for the secretary."""


@dataclass(frozen=True)
class Member:
    number: int
    name: str
    was: tuple[str, ...] = ()       # former names, and the names of entries merged in

    def names(self) -> tuple[str, ...]:
        return (self.name, *self.was)


@dataclass(frozen=True)
class Roster:
    members: tuple[Member, ...] = ()          # in member-number order
    merged: tuple[tuple[int, int], ...] = ()  # (number gone, number it was merged into)

    def member(self, number: int) -> Member:
        number = self.resolve(number)
        for m in self.members:
            if m.number == number:
                return m
        raise RosterError(f"no member number {number}")

    def resolve(self, number: int) -> int:
        """The number that stands for `number` now (a merged entry's is its keeper's)."""
        into = dict(self.merged)
        while number in into:
            number = into[number]
        return number

    def numbers(self) -> set[int]:
        return {m.number for m in self.members} | {gone for gone, _ in self.merged}


def add(roster: Roster, name: str, number: int | None = None) -> tuple[Roster, Member]:
    name = " ".join(name.split())
    if not name:
        raise RosterError("a member needs a name")
    taken = roster.numbers()
    if number is None:
        number = max(taken, default=0) + 1
    elif number < 1:
        raise RosterError(f"member numbers start at 1, not {number}")
    elif number in taken:
        raise RosterError(f"member number {number} is taken ({roster.member(number).name})")
    m = Member(number, name)
    return Roster(tuple(sorted(roster.members + (m,), key=lambda x: x.number)), roster.merged), m


def rename(roster: Roster, number: int, name: str) -> Roster:
    name = " ".join(name.split())
    if not name:
        raise RosterError("a member needs a name")
    old = roster.member(number)
    if name == old.name:
        return roster
    new = replace(old, name=name, was=tuple(n for n in (old.name, *old.was) if n != name))
    return _put(roster, new)


def merge(roster: Roster, keep: int, gone: int) -> Roster:
    """`gone` is `keep` (one person entered twice): his names join `keep`'s, and every
    party linked to `gone` counts for `keep` from now on."""
    k, g = roster.member(keep), roster.member(gone)
    if k.number == g.number:
        raise RosterError(f"member {keep} and member {gone} are already one")
    kept = replace(k, was=k.was + tuple(n for n in g.names() if n not in k.names()))
    rest = tuple(m for m in roster.members if m.number != g.number)
    return _put(Roster(rest, roster.merged + ((g.number, k.number),)), kept)


def _put(roster: Roster, m: Member) -> Roster:
    return Roster(tuple(m if x.number == m.number else x for x in roster.members), roster.merged)


@dataclass(frozen=True)
class Match:
    """Who a guest's name is on the roster: `number` when sure (the name, or a former
    name, as the roster has it, case and spacing aside); else `near`, the members whose
    names are close (for the host to confirm), best first; neither: a new member."""
    guest: str
    number: int | None = None
    near: tuple[int, ...] = ()


def match(roster: Roster, guest: str) -> Match:
    want = normal(guest)
    sure = [m.number for m in roster.members if want in (normal(n) for n in m.names())]
    if len(sure) == 1:
        return Match(guest, sure[0])
    if sure:   # two members share the name: the host says which
        return Match(guest, None, tuple(sure))
    by_name = {}
    for m in roster.members:
        for n in m.names():
            by_name.setdefault(normal(n), m.number)
    close = difflib.get_close_matches(want, list(by_name), n=3, cutoff=0.8)
    return Match(guest, None, tuple(dict.fromkeys(by_name[c] for c in close)))
