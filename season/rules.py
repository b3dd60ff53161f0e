"""A season's standings by the club's rule: a pure fold over its nights (season/nights.py)
and the roster's links of each night's guests to members. docs/season.md explains each
rule to a club's secretary, with its source.

Every rule gives each member a score and a tie-break key; members equal on the whole key
share a place (1, 2, 2, 4), listed by member number.

- placings    points for each placing at each party (`placing_points`: the 1st's, the 2nd's
              ...; a place past the table earns 0; players equal at a party share the
              better place and its points). Ties: most 1st places, then most 2nd places ...
              (the countback).
- attendance  `attendance_points` for every party a member played at. Ties: shared.
- best-of     placing points of a member's best `best` parties only. Ties: his next best
              party's points, then the next ... (the nights left out, best first).
- prizes      the prizes a member won (each counts 1; one waiting for its play-off counts
              for nobody yet). Ties: placing points as `placings` scores them, then shared.
- totals      the parties' own totals added up (sixteenths, quarters, games or punch-holes:
              a season of one form means one measure). Ties: the best single night's total,
              then shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .nights import Night, ranked
from .roster import Roster

RULES = {
    "placings": "points for each placing at each party; ties by the countback (most 1st places, then 2nd ...)",
    "attendance": "points for every party played at; ties shared",
    "best-of": "placing points of the best N parties only; ties by the next best party, then the next ...",
    "prizes": "prizes won; ties by placing points, then shared",
    "totals": "the parties' own totals added up; ties by the best single night, then shared",
}
RATING_MODELS = ("plackett-luce", "thurstone-mosteller")


@dataclass(frozen=True)
class Rules:
    rule: str = "placings"
    placing_points: tuple[int, ...] = (10, 8, 6, 5, 4, 3, 2, 1)
    attendance_points: int = 1
    best: int = 4
    ratings: str = "plackett-luce"

    def __post_init__(self):
        if self.rule not in RULES:
            raise ValueError(f"no season rule {self.rule!r}; one of: {', '.join(RULES)}")
        if self.ratings not in RATING_MODELS:
            raise ValueError(f"no rating model {self.ratings!r}; one of: {', '.join(RATING_MODELS)}")
        if self.best < 1:
            raise ValueError(f"best-of counts at least 1 party, not {self.best}")
        if any(p < 0 for p in self.placing_points) or self.attendance_points < 0:
            raise ValueError("points are 0 or more")

    def points_for(self, place: int) -> int:
        return self.placing_points[place - 1] if place <= len(self.placing_points) else 0

    def to_json(self) -> dict:
        return {"rule": self.rule, "placing_points": list(self.placing_points),
                "attendance_points": self.attendance_points, "best": self.best, "ratings": self.ratings}

    @staticmethod
    def from_json(d: dict) -> "Rules":
        return Rules(d.get("rule", "placings"), tuple(d.get("placing_points", Rules.placing_points)),
                     d.get("attendance_points", 1), d.get("best", 4), d.get("ratings", "plackett-luce"))


@dataclass(frozen=True)
class MemberNight:
    """A member's night: where he placed among how many, his total, his prizes, and the
    placing points it earned."""
    party: str
    place: int
    of: int
    amount: int
    measure: str
    prizes: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Standing:
    place: int
    number: int
    name: str
    score: int
    key: tuple          # the whole sort key, score first (what the tie-break compared)
    nights: tuple[MemberNight, ...] = field(default=())


def members_nights(rules: Rules, roster: Roster, nights: list[tuple[Night, dict]]) -> dict[int, list[MemberNight]]:
    """Each member's nights, in season order; `nights` is each night with its links
    {guest: member number} (a guest not linked is nobody's night)."""
    out: dict[int, list[MemberNight]] = {}
    for night, links in nights:
        prizes: dict[str, list[str]] = {}
        for guest, prize in night.prizes:
            prizes.setdefault(guest, []).append(prize)
        seen = set()
        for guest, amount, place in zip(night.played, night.amounts, night.places):
            if guest not in links:
                continue
            number = roster.resolve(links[guest])
            if number in seen:   # two entries merged into one person the same night: the better
                continue
            seen.add(number)
            out.setdefault(number, []).append(MemberNight(
                night.party, place, len(night.played), amount, night.measure,
                tuple(prizes.get(guest, ())), rules.points_for(place)))
    return out


def standings(rules: Rules, roster: Roster, nights: list[tuple[Night, dict]]) -> tuple[Standing, ...]:
    """The season's standings by `rules.rule`: every member who played a night of it."""
    played = members_nights(rules, roster, nights)
    score = _SCORES[rules.rule]
    keyed = sorted(((score(rules, ns, len(nights)), n, ns) for n, ns in played.items()),
                   key=lambda x: (tuple(-v for v in x[0]), x[1]))
    places = ranked(tuple(k for k, _, _ in keyed))
    return tuple(Standing(p, n, roster.member(n).name, k[0], k, tuple(ns))
                 for p, (k, n, ns) in zip(places, keyed))


def _placings(rules: Rules, ns: list[MemberNight], _m: int) -> tuple:
    counts = [sum(x.place == p for x in ns) for p in range(1, len(rules.placing_points) + 1)]
    return (sum(x.points for x in ns), *counts)


def _attendance(rules: Rules, ns: list[MemberNight], _m: int) -> tuple:
    return (rules.attendance_points * len(ns),)


def _best_of(rules: Rules, ns: list[MemberNight], m: int) -> tuple:
    points = sorted((x.points for x in ns), reverse=True) + [0] * (m - len(ns))
    return (sum(points[:rules.best]), *points[rules.best:])


def _prizes(rules: Rules, ns: list[MemberNight], _m: int) -> tuple:
    return (sum(len(x.prizes) for x in ns), sum(x.points for x in ns))


def _totals(rules: Rules, ns: list[MemberNight], _m: int) -> tuple:
    return (sum(x.amount for x in ns), max(x.amount for x in ns))


_SCORES = {"placings": _placings, "attendance": _attendance, "best-of": _best_of,
           "prizes": _prizes, "totals": _totals}
