"""Ratings that see through rotating partners: openskill's Weng-Lin models (Plackett-Luce,
or Thurstone-Mosteller), fed every game at every table of every night in journal order,
night after night in the season's order.

A game is one match of its teams (a guest alone at Block, Draw, All Quarters and Sebastopol;
the partners A+C and B+D at Bergen and Tiddle-a-wink), ranked by what each gained in it:
more is better, equal gains tie. A member starts at the library's default (mu 25, sigma
25/3); a guest not linked to the roster is rated for the night as a newcomer too, so his
partners' and opponents' ratings move as the game says, but he is shown nowhere. Members
are ranked by the conservative value mu - 3 sigma (the library's `ordinal`): a member with
few games has a wide sigma and sits below one who has shown the same mu for longer.
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce, ThurstoneMostellerFull

from .nights import Night
from .roster import Roster

MODELS = {"plackett-luce": PlackettLuce, "thurstone-mosteller": ThurstoneMostellerFull}


@dataclass(frozen=True)
class Rating:
    number: int
    mu: float
    sigma: float
    games: int

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Ratings:
    table: tuple[Rating, ...]                     # by mu - 3 sigma, best first (then number)
    history: dict                                 # number -> ((party, mu, sigma), ...) after each night he played


@dataclass(frozen=True)
class Rated:
    """The ratings after some nights, to rate later nights on from: each player's rating as
    the library gave it (never changed in place: `rate` returns new ones), his games, each
    member's history. What the season's page keeps of the nights before tonight's."""
    now: dict
    games: dict
    history: dict


def rated(model_name: str, roster: Roster, nights: list[tuple[Night, dict]], start: Rated | None = None) -> Rated:
    """Every game of `nights` fed to the library in order, on from `start` (the nights before)."""
    model = MODELS[model_name]()
    now = dict(start.now) if start else {}       # player -> the library's rating
    games = dict(start.games) if start else {}
    history = {p: list(h) for p, h in start.history.items()} if start else {}
    for night, links in nights:
        def who(guest: str):
            return roster.resolve(links[guest]) if guest in links else (night.party, guest)
        played = set()
        for game in night.games:
            if len(game.teams) < 2:
                continue
            teams = [[who(g) for g in team] for team in game.teams]
            new = model.rate([[now.get(p) or model.rating() for p in team] for team in teams],
                             ranks=[-g for g in game.gains])
            for team, rated_team in zip(teams, new):
                for p, r in zip(team, rated_team):
                    now[p] = r
                    games[p] = games.get(p, 0) + 1
                    played.add(p)
        for p in sorted(x for x in played if isinstance(x, int)):
            history.setdefault(p, []).append((night.party, now[p].mu, now[p].sigma))
    return Rated(now, games, {p: tuple(h) for p, h in history.items()})


def rate(model_name: str, roster: Roster, nights: list[tuple[Night, dict]], start: Rated | None = None) -> Ratings:
    """The members' ratings after `nights` (on from `start`), ranked by mu - 3 sigma."""
    r = rated(model_name, roster, nights, start)
    table = sorted((Rating(p, x.mu, x.sigma, r.games[p]) for p, x in r.now.items() if isinstance(p, int)),
                   key=lambda x: (-x.conservative, x.number))
    return Ratings(tuple(table), dict(r.history))
