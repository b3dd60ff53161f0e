"""The console's pages at a glance (console/home.html, tables.html, the staff and prizes
pages' heading): the party's set-up, its phase, its session and bell, every table's status."""
from __future__ import annotations

from hub import conductor
from hub.conductor import state as S
from hub.conductor.cards import SEATS
from hub.conductor.setup import FORMS
from hub.scoring.forms.trains import BLANKS

from .words import FORM_NAMES, MEASURE_WORDS, name_of, phase


def table_numbers(state) -> list[int]:
    return sorted(conductor.tables(state))


def bell_dict(b) -> dict | None:
    if b is None:
        return None
    return {"id": b.id, "meaning": b.meaning, "session": b.session, "by": b.rung.by, "why": b.rung.why,
            "undone": bool(b.undone), "undone_by": b.undone.by if b.undone else "",
            "undone_why": b.undone.why if b.undone else ""}


def overview(hub) -> dict:
    _, standings = hub.standings()
    state = hub.state
    setup, s = state.setup, state.session
    if setup is None:
        return {"created": False, "phase": "setup", "forms": FORMS, "blanks": BLANKS}
    ph = phase(state)
    return {
        "created": True, "phase": ph, "forms": FORMS,
        "form": setup.form, "form_name": FORM_NAMES.get(setup.form, setup.form),
        "measure": MEASURE_WORDS.get(setup.measure, setup.measure),
        "tables": setup.tables, "sessions": setup.sessions, "games": setup.games_per_session,
        "session": s.number if s else 0,
        "bell_meaning": setup.bell_meaning,
        "started": bool(s and s.started),
        "bell": bell_dict(s.bell) if s else None,
        "missing": (standings.get("session") or {}).get("missing", []),
        "calls": {n: c for n, c in state.calls.items() if c},
        "listed": len(state.guests),
        "checked_in": sum(g.checked_in and g.left is None for g in state.guests.values()),
        "seated": bool(s),

        "final_count": bool(state.final_count),
        "results_missing": results_missing(state) if ph == "over" else [],
        "play_begun": bool(s and (s.started or s.number > 1)),
        "removable_table": S.removable_table(state),
        "changes": [{"what": what, "by": m.by, "why": m.why} for what, m in reversed(state.changes)],
        "prizes": setup.prizes, "booby": setup.booby, "confirm": setup.confirm,
        "created_by": state.created.by if state.created else "",
    }


def table_status(state, boards: dict[str, dict]) -> list[dict]:
    """Every table: who sits there, games keyed, its sides' points (a partnership form's, as they
    are made), the bell acknowledged, results missing, its board."""
    setup, s = state.setup, state.session
    if setup is None:
        return []
    bell = s.bell if s else None
    missing = set(S.missing(setup, s)) if s else set()
    out = []
    for n in table_numbers(state):
        t = s.tables.get(n) if s else None
        row = {"table": n, "board": boards.get(str(n), {}), "calls": state.calls.get(n, 0),
               "players": [], "games": 0, "of": setup.games_per_session, "state": "idle",
               "bell_acked": None, "missing": n in missing, "pending": False}
        if t is not None:
            row.update(players=[{"seat": seat, "name": name_of(state, c)} for seat, c in zip(SEATS, t.seats)],
                       games=t.entered, state=S.table_state(setup, s, n), pending=t.pending is not None,
                       bell_acked=(bell.id in t.acks) if bell and S.in_play(setup, t) else None)
            if setup.partnership:
                row["points"] = dict(zip(("AC", "BD"), t.counted.points))
        out.append(row)
    return out


def results_missing(state) -> list[str]:
    """The last session's tables in play that keyed no game at all, in the host's words
    ("Table 3: 0 of 4 games"): a stop bell seen at every table ends the party, and the
    final count would give the prizes without their results. (Tables "still playing finish
    theirs" after the bell, so fewer games than the others are no sign; and in the forms
    played to ten points a table that made none has nothing to key.)"""
    setup, s = state.setup, state.session
    of = setup.games_per_session if setup else None
    if not of or s is None or state.final_count:
        return []
    return [f"Table {n}: 0 of {of} games" for n, t in sorted(s.tables.items())
            if S.in_play(setup, t) and t.closed is None and not t.entered]


def bells(state) -> list[dict]:
    s = state.session
    return [bell_dict(b) for b in s.bells] if s else []
