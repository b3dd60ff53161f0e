"""The results: the prizes page, the printed results, the exports (JSON, a spreadsheet's CSV)."""
from __future__ import annotations

import csv

from hub import conductor
from hub.conductor import cards as C
from hub.conductor import prizes as P

from ..bidi import neutral
from .console import overview
from .words import name_of, prize_label


def prizes(state) -> list[dict]:
    if state.setup is None or not state.sessions:
        return []
    scheduled = {p.prize: p for p in state.play_offs}
    out = []
    for a in P.awards(state):
        p = scheduled.get(a.prize)
        out.append({"prize": a.prize, "label": prize_label(a.prize), "amount": a.amount,
                    "candidates": [name_of(state, c) for c in a.cards],
                    "winner": name_of(state, a.winner), "needs_play_off": a.needs_play_off,
                    "play_off_table": p.table if p else None})
    return out


def ranking(state) -> list[dict]:
    """Every card by the form's measure, highest first (the conductor's standings), with
    what it won in each session (the conductor's score-cards)."""
    if state.setup is None or not state.sessions:
        return []
    won = {c["card"]: {r["session"]: r["total"] for r in c["sessions"]} for c in conductor.score_cards(state)}
    sessions = range(1, len(state.sessions) + 1)
    return [{"rank": p["rank"], "card": p["card"], "card_label": C.label(p["card"]), "name": p["guest"],
             "sessions": [won.get(p["card"], {}).get(n, 0) for n in sessions], "total": p["amount"],
             "place": p["place"] or "", "left": p["left"]}
            for p in conductor.standings(state)["leaders"]]


def results(hub) -> dict:
    state = hub.state
    return {"overview": overview(hub), "ranking": ranking(state), "prizes": prizes(state), "seq": hub.seq}


def export(hub) -> dict:
    """The results, and everything derived from the journal (the conductor's `to_json`)."""
    state = hub.state
    return {"seq": hub.seq, "ranking": ranking(state), "prizes": prizes(state), "party": conductor.to_json(state)}


def write_results_csv(hub, out) -> None:
    """The ranking for a spreadsheet: a byte-order mark (Excel then reads UTF-8, accents
    and all), each card's prize, and no cell a spreadsheet would run as a formula."""
    state = hub.state
    rows = ranking(state)
    won = {a.winner: prize_label(a.prize) for a in P.awards(state) if a.winner is not None}
    sessions = max((len(r["sessions"]) for r in rows), default=0)
    out.write("\ufeff")
    w = csv.writer(out)
    w.writerow(["rank", "name", "card", *[f"session {i}" for i in range(1, sessions + 1)], "total", "prize"])
    for r in rows:
        w.writerow([r["rank"], inert(r["name"]), r["card_label"], *r["sessions"], r["total"],
                    won.get(r["card"], "")])


def inert(text: str) -> str:
    """A text cell a spreadsheet would take for a formula (=, +, -, @, or a tab or CR first)
    gets a leading apostrophe, as OWASP's CSV-injection advice has it: shown, never run;
    and its explicit direction controls are taken out (web/bidi.py), so that none runs on."""
    text = neutral(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
