"""What the projector shows: the conductor's standings, laid out for the room.

`conductor.standings(state)` is the data; this turns it into what the page
draws (names, not cards; a total beside each seat; the movement as "Ann Lee →
Table 2 A"; the prizes with their play-offs) and applies the conductor's switch
that hides the standings during the last session: hidden means left out of the
message, not merely not drawn, since any guest's phone can open the stream.
"""
from __future__ import annotations

import json
import threading

from hub.conductor import state as S

from .party import FORM_NAMES, MEASURE_WORDS, prize_label

# session state in the standings -> what the room is told
_PHASE = {"playing": "playing", "finishing": "finishing", "stopped": "stopped", "ended": "between", "over": "over"}

class Projection:
    """The view for every screen of one hub: computed and JSON-encoded once per journal
    position and switch, and shared — twenty projectors cost one encoding, not twenty."""

    def __init__(self, hub, store):
        self.hub, self.store = hub, store
        self._lock = threading.Lock()
        self._key, self._view, self._json = None, None, ""

    def current(self) -> tuple[int, dict, str]:
        """(seq, view, view as JSON)."""
        seq, standings = self.hub.standings()
        state = self.hub.state
        hidden = bool(state.setup) and self.store.hidden() and S.last_session(state) and not state.final_count
        with self._lock:
            if self._key == (seq, hidden):
                return seq, self._view, self._json
            v = view(standings, state.setup, hidden)
            encoded = json.dumps(v, separators=(",", ":"))
            self._key, self._view, self._json = (seq, hidden), v, encoded
        return seq, v, encoded


def tables(state) -> list[int]:
    from hub import conductor
    return sorted(conductor.tables(state))


def view(st: dict, setup, hidden: bool) -> dict:
    if setup is None or "form" not in st:
        return {"title": "", "state": "waiting", "session": 0, "tables": [], "leaders": [], "moves": [],
                "prizes": [], "hidden": False, "note": "The party has not been created yet."}
    session = st.get("session")
    if session is None:
        phase, number = "waiting", 0
    elif session["state"] == "seated":
        phase, number = ("waiting" if session["number"] == 1 else "between"), session["number"]
    else:
        phase, number = _PHASE.get(session["state"], session["state"]), session["number"]
    totals = {p["guest"]: p["amount"] for p in st.get("leaders", [])}
    out = {
        "title": FORM_NAMES.get(st["form"], st["form"]),
        "measure_label": MEASURE_WORDS.get(st["measure"], st["measure"]),
        "state": phase, "session": number, "sessions": setup.sessions,
        "bell": session.get("bell") and {"meaning": session["bell"]["meaning"]} if session else None,
        "tables": [_table(row, setup, totals, hidden) for row in st.get("progress", [])],
        "leaders": [] if hidden else [
            {"rank": p["rank"], "name": p["guest"] + (" (left)" if p["left"] else ""),
             "card": p["place"] or "", "total": p["amount"]} for p in st.get("leaders", [])],
        # the movement that seated this session, shown until the bell starts it
        "moves": [_move(m) for m in st.get("moves", [])] if session and session["state"] == "seated" else [],
        "prizes": [_prize(a) for a in st.get("prizes", [])],
        "hidden": hidden,
    }
    if session is None and "guests" in st:
        out["note"] = f"{st['guests']['checked_in']} of {st['guests']['listed']} guests checked in"
    return out


def _table(row: dict, setup, totals: dict, hidden: bool) -> dict:
    points = row.get("points")
    return {
        "table": row["table"], "games": row["games"], "of": setup.games_per_session,
        "done": row["done"], "state": row["state"],
        "points": None if hidden or points is None else f"A+C {points['AC']} · B+D {points['BD']}",
        "seats": [{"seat": seat, "name": name, "score": None if hidden else totals.get(name)}
                  for seat, name in sorted(row["seats"].items())],
    }


def _move(text: str) -> dict:
    """The standings' "Ann Lee -> Table 2 A"."""
    name, _, to = text.rpartition(" -> ")
    return {"name": name, "to": to}


def _prize(a: dict) -> dict:
    return {"prize": a["prize"], "label": prize_label(a["prize"]), "name": a["winner"] or "",
            "total": a["amount"], "play_off": a["candidates"] if a["needs_play_off"] else []}
