"""The season as data: standings by its rule, ratings, each member's nights and rating
over the season: what `party season show --json` prints and the season page shows. The
same nights give the same bytes (everything ordered, floats rounded to 4 places).
"""
from __future__ import annotations

import csv
import io

from .club import Club
from .nights import Night
from .ratings import Ratings, rate
from .rules import RULES, standings


def season_json(club: Club, name: str, nights: list[tuple[Night, dict]], ratings: Ratings | None = None) -> dict:
    """The season's report; `ratings`: the nights' ratings where the caller has them already
    (the season's page rates tonight's games on from the nights before)."""
    season = club.season(name)
    rules = season.rules
    table = standings(rules, club.roster, nights)
    ratings = ratings or rate(rules.ratings, club.roster, nights)
    rating = {x.number: x for x in ratings.table}
    unlinked = [{"party": n.party, "guests": [g for g in n.played if g not in links]} for n, links in nights]

    def r4(x: float) -> float:
        return round(x, 4)

    members = []
    for s in table:
        rt = rating.get(s.number)
        members.append({
            "place": s.place, "number": s.number, "name": s.name, "score": s.score,
            "tie_break": list(s.key[1:]),
            "nights": [{"party": x.party, "place": x.place, "of": x.of, "amount": x.amount,
                        "measure": x.measure, "prizes": list(x.prizes), "points": x.points}
                       for x in s.nights],
            "rating": None if rt is None else {"mu": r4(rt.mu), "sigma": r4(rt.sigma),
                                               "conservative": r4(rt.conservative), "games": rt.games},
            "history": [{"party": p, "mu": r4(mu), "sigma": r4(sg)}
                        for p, mu, sg in ratings.history.get(s.number, ())],
        })
    return {
        "season": season.name,
        "rule": {**rules.to_json(), "about": RULES[rules.rule]},
        "parties": [{"name": n.party, "form": n.form, "measure": n.measure, "players": len(n.played),
                     "games": len(n.games)} for n, _ in nights],
        "standings": members,
        "ratings": [{"rank": i, "number": x.number, "name": club.roster.member(x.number).name,
                     "mu": r4(x.mu), "sigma": r4(x.sigma), "conservative": r4(x.conservative),
                     "games": x.games} for i, x in enumerate(ratings.table, start=1)],
        "unlinked": [u for u in unlinked if u["guests"]],
    }


def season_csv(report: dict) -> str:
    """The standings as a spreadsheet reads them: one row a member, a column a party."""
    parties = [p["name"] for p in report["parties"]]
    rating = {x["number"]: x for x in report["ratings"]}
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["place", "member number", "name", report["rule"]["rule"], "nights",
                *[f"{p} place" for p in parties], "rating mu", "rating sigma", "mu - 3 sigma"])
    for m in report["standings"]:
        at = {n["party"]: n["place"] for n in m["nights"]}
        rt = rating.get(m["number"], {})
        w.writerow([m["place"], m["number"], m["name"], m["score"], len(m["nights"]),
                    *[at.get(p, "") for p in parties], rt.get("mu", ""), rt.get("sigma", ""),
                    rt.get("conservative", "")])
    return out.getvalue()
