"""The printed pages of the book (web/printables.py): score-cards and the invitation."""
from __future__ import annotations

from hub import conductor
from hub.conductor import cards as C
from hub.conductor.setup import PARTNERSHIP_FORMS

from .words import FORM_NAMES, MEASURE_WORDS, measure_of


def score_cards(state) -> list[dict]:
    """The book's score-cards for every card in successive order: blank before the draw,
    then filled in from the conductor's score-cards as far as the party has gone."""
    setup = state.setup
    if setup is None:
        return []
    sessions = setup.sessions or max(len(state.sessions), 3)
    filled = {c["card"]: c for c in conductor.score_cards(state)}
    measure = MEASURE_WORDS.get(setup.measure, setup.measure)
    # what the card's amounts are: "NUMBER OF NOTE-VALUES WON" in the book's forms; the train
    # games score what is left in hand against its holder, round by round
    heading = (f"{measure.upper()} IN HAND, EACH ROUND — THE LOWEST TOTAL WINS:—" if setup.lowest_wins
               else f"NUMBER OF {measure.upper()} WON:—")
    unit = "Round" if setup.party_form.rounds else "Game"
    starts = {g.card: g.start for g in state.guests.values() if g.card and g.start}
    out = []
    # the spare cards given to late-comers follow ("TABLE 2 C/2": hub/conductor/cards.py)
    spares = sorted((c for c in state.holders if C.copy_of(c)[1] > 1), key=C.number)
    for card in C.successive(setup.tables, setup.partnership) + spares:
        known = filled.get(card, {})
        rows = {r["session"]: r for r in known.get("sessions", [])}
        out.append({"label": C.label(card), "colour": C.colour(card), "name": known.get("guest", ""),
                    "measure": measure, "heading": heading, "unit": unit, "start": starts.get(card),
                    "games": setup.games_per_session,
                    "punch_holes": known.get("punch_holes", []),
                    "sessions": [{"number": n,
                                  "place": f"{rows[n]['table']} {rows[n]['seat']}" if n in rows and n > 1 and rows[n]["table"] else "",
                                  "games": rows[n]["games"] if n in rows else [],
                                  "total": rows[n]["total"] if n in rows else None}
                                 for n in range(1, sessions + 1)],
                    "total": known.get("total")})
    return out


def invitation_text(plan: dict) -> dict:
    """The book's invitation, front and reverse (INVITATIONS), for the plan's party."""
    if not plan:
        return {}
    game = plan["form"]
    prizes = plan.get("prizes") or 1
    count = {1: "the lucky player", 2: "the two lucky players", 3: "the three lucky players"}.get(
        prizes, f"the {prizes} lucky players")
    lead = "A prize will be awarded to" if prizes == 1 else "Prizes will be awarded to"
    if game in PARTNERSHIP_FORMS:
        award = "Prizes will be awarded to the luckiest player of each side, the one who has gained the greatest number of punch-holes."
    elif game == "sebastopol":
        award = f"{lead} {count} winning the greatest number of games."
    else:
        measure = measure_of(game)
        award = f"{lead} {count} gaining the highest amounts of {measure}."
    days = plan.get("reply_days", 2)
    return {"host": plan["host"], "when": plan["when"], "hour": plan["hour"],
            "address": plan["address"].splitlines(), "form_name": FORM_NAMES[game],
            "title": plan.get("title") or "Musical Domino Party",
            "award": award,
            "reply": f"Please send word within {days} day{'s' if days != 1 else ''} whether you can be present or not."}
