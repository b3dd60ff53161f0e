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


def rate(model_name: str, roster: Roster, nights: list[tuple[Night, dict]]) -> Ratings:
    model = MODELS[model_name]()
    now: dict = {}          # player -> the library's rating
    games: dict = {}
    history: dict = {}
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
            for team, rated in zip(teams, new):
                for p, r in zip(team, rated):
                    now[p] = r
                    games[p] = games.get(p, 0) + 1
                    played.add(p)
        for p in sorted(x for x in played if isinstance(x, int)):
            history.setdefault(p, []).append((night.party, now[p].mu, now[p].sigma))
    table = sorted((Rating(p, r.mu, r.sigma, games[p]) for p, r in now.items() if isinstance(p, int)),
                   key=lambda x: (-x.conservative, x.number))
    return Ratings(tuple(table), {p: tuple(h) for p, h in history.items()})
