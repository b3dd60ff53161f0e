"""The Corrections page (console/corrections.html, correction_preview.html): a session's
results in the words of the table's entry form, and what a correction would change."""
from __future__ import annotations

from hub.conductor import prizes as P
from hub.conductor import scoring as K
from hub.conductor import state as S
from hub.conductor.cards import SEATS

from .results import ranking
from .words import name_of, prize_label


def entries(state, session: int | None = None) -> list[dict]:
    """A session's results (the current one by default), table by table, with their mends."""
    if not state.sessions:
        return []
    s = state.sessions[(session or len(state.sessions)) - 1]
    out = []
    for n in sorted(s.tables):
        for e in s.tables[n].entries:
            out.append({"id": e.id, "table": n, "game": e.game, "keyed": entry_words(state.setup, e),
                        "gains": {seat: (name_of(state, c), g) for seat, c, g in zip(SEATS, e.seats, e.gains) if c},
                        "annulled": bool(e.annulled), "why": e.annulled.why if e.annulled else "",
                        "corrections": [(m.by, m.why) for m in e.corrections], "pending": e.pending})
    return out


def entry_words(setup, e, values=None) -> list[dict]:
    """An entry's values (`values`: as corrected) in the words of the table's entry form: each
    field's label as the board shows it ("DOMINO BY", "A PIECES"), a seat as its letter, in
    the form's order; `k` is the field's input name."""
    values = e.values if values is None else values
    fields = (K.count_form(setup, e.seats) if e.in_play else
              K.entry_form(setup, e.seats, play_off=e.session == 0, lead="lead" in values)) or []
    by_key = {f["k"]: f for f in fields}
    out = []
    for k in [k for k in by_key if k in values] + [k for k in values if k not in by_key]:
        f, v = by_key.get(k, {}), values[k]
        seat = bool(f.get("seat"))
        out.append({"k": k, "label": f.get("label", k), "seat": seat,
                    "shown": (SEATS[v - 1] if 1 <= v <= 4 else "none") if seat else v})
    return out


def correction_preview(before, after, entry_id: str) -> dict:
    """What a correction of a result of `session` changes, for the conductor to see before he
    confirms: every card whose total or place moves, the prizes, and the seating (docs/conductor.md:
    seating already announced stays as journaled; the next movement reads the corrected totals)."""
    si, table, ei = S.find_entry(before, entry_id)
    old = (before.play_offs[-1 - si] if si < 0 else before.sessions[si].tables[table]).entries[ei]
    new = (after.play_offs[-1 - si] if si < 0 else after.sessions[si].tables[table]).entries[ei]
    session = si + 1 if si >= 0 else 0          # 0: a play-off
    was = {w["k"]: w["shown"] for w in entry_words(before.setup, old)}
    keyed = [(w["label"], was.get(w["k"], ""), w["shown"]) for w in entry_words(after.setup, new)
             if old.values.get(w["k"]) != new.values.get(w["k"])]
    was = {r["card"]: r for r in ranking(before)}
    rows = [{"name": r["name"], "card_label": r["card_label"], "rank": (was[r["card"]]["rank"], r["rank"]),
             "total": (was[r["card"]]["total"], r["total"])}
            for r in ranking(after)
            if r["card"] in was and (was[r["card"]]["rank"], was[r["card"]]["total"]) != (r["rank"], r["total"])]
    winners = ({prize_label(a.prize): ", ".join(name_of(st, c) for c in a.cards) for a in P.awards(st)}
               for st in (before, after))
    prizes_before, prizes_after = winners
    s = after.session
    seated_since = list(range(session + 1, s.number + 1)) if session else []
    if S.party_over(after) or after.final_count:
        seeding = "No movement remains: the standings and the prizes change."
    elif S.last_session(after):
        seeding = f"Session {s.number} is the last: the standings and the prizes change."
    else:
        seeding = f"The movement after session {s.number} will seat session {s.number + 1} by the corrected totals."
    return {"rows": rows, "session": session, "table": table, "game": old.game, "keyed": keyed,
            "seated_since": seated_since, "seeding": seeding,
            "prizes": [(label, prizes_before.get(label, ""), who) for label, who in prizes_after.items()
                       if prizes_before.get(label, "") != who]}
