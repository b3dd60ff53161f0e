"""What the projector shows: the conductor's standings, laid out for the room.

`conductor.standings(state)` is the data; this turns it into what the page
draws (names, not cards; a total beside each seat; the movement as "Ann Lee →
Table 2 A"; the prizes with their play-offs) and applies the conductor's switch
that hides the standings during the last session: hidden means left out of the
message, not merely not drawn, since any guest's phone can open the stream.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from operator import itemgetter
from typing import NamedTuple

import orjson

from hub.conductor import state as S
from hub.conductor.standings import moves

from . import frames
from .pages.words import FORM_NAMES, MEASURE_WORDS, phase_of, prize_label

KEPT = 8   # the views a stream may be behind (still writing an older one) and be sent a change

class Projection:
    """The view for every screen of one hub: computed and JSON-encoded once per journal
    position and switch, and shared.

    One follower thread computes it as the journal moves and wakes the streams; a stream
    only writes what the follower made. So the cost of the standings does not grow with
    the screens: twenty projectors and a hundred guests' phones cost one computation per
    change, not one each (each stream computing for the seq it woke at had them chase
    each other through a rush, 800 players' standings per batch). While the hub is still
    catching up with a burst the follower waits up to `settle` seconds for it, and gives a
    writer caught up `quiet` seconds, once, for inputs on their way: a rush's first tables
    reach the hub a few ms before the rest, and a view of them alone was made again a batch later.

    The last `KEPT` views are kept, so that a stream is sent what changed since the view it
    sent last (`change`), made once for every stream with that base (web/frames.py).
    """

    def __init__(self, hub, settle: float = 0.0, quiet: float = 0.0):
        self.hub, self.settle, self.quiet = hub, settle, quiet
        self._lock = threading.Lock()
        self._key, self._view, self._json = None, None, ""
        self._drawn: Drawn | None = None   # the last view made, with what it was made from
        self._made = threading.Condition()   # notified when the follower made a new view
        self._follower: threading.Thread | None = None
        self._kept: OrderedDict[tuple[int, bool], tuple[dict, str, object]] = OrderedDict()   # (view, JSON, setup)
        self._changing = threading.Lock()   # one stream makes a change, the others wait and take it
        self._changes: dict[tuple, str | None] = {}

    def current(self) -> tuple[int, dict, str]:
        """(seq, view, view as JSON), as of now: made once per journal position and switch,
        in the hub's one cache of what its standings derive (hub/position_cache.py)."""
        seq, standings = self.hub.standings()
        state = self.hub.state
        hidden = state.standings_hidden is not None and S.last_session(state) and not state.final_count

        def made() -> tuple[dict, str]:
            v = view(standings, state, hidden, self._drawn)
            self._drawn = Drawn(standings, v, state.setup)
            return v, orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS).decode()   # a tenth of json's time
        v, encoded = self.hub.cache.get(seq, ("projection", hidden), made)
        with self._lock:   # what the follower made last, for `latest` and `wait_past`
            self._key, self._view, self._json = (seq, hidden), v, encoded
            if (seq, hidden) not in self._kept:
                self._kept[(seq, hidden)] = (v, encoded, state.setup)
                if len(self._kept) > KEPT:
                    self._kept.popitem(last=False)
        return seq, v, encoded

    def kept(self, seq: int) -> tuple[int, bool] | None:
        """The key of the view of `seq` where it is still kept (a screen reconnecting with it)."""
        with self._lock:
            return next((key for key in self._kept if key[0] == seq), None)

    def change(self, base: tuple[int, bool], key: tuple[int, bool]) -> str | None:
        """The JSON of what takes a screen from view `base` to view `key` (web/frames.py), made
        once for every stream; None where the whole view is to be sent: either is no longer
        kept, the party's setup changed, the switch flipped, or the change is no smaller (a
        rush where every row moved)."""
        with self._changing:
            if (base, key) not in self._changes:
                with self._lock:
                    before, after = self._kept.get(base), self._kept.get(key)
                told = None
                if before and after and before[2] is after[2]:
                    delta = frames.change(before[0], after[0], base[0])
                    if delta is not None and not frames.no_smaller(delta, after[0]):
                        told = orjson.dumps(delta, option=orjson.OPT_NON_STR_KEYS).decode()
                        told = told if len(told) < len(after[1]) else None
                self._changes[(base, key)] = told
                while len(self._changes) > 4 * KEPT:
                    del self._changes[next(iter(self._changes))]
            return self._changes[(base, key)]

    def latest(self) -> tuple[int, dict, str]:
        """What the follower made last (the streams' view): at most `settle` behind."""
        self._follow()
        with self._lock:
            if self._key is not None:
                return self._key[0], self._view, self._json
        return self.current()

    def wait_past(self, key: tuple[int, bool], timeout: float) -> None:
        """Until the follower has made a view other than `key` (seq, hidden), or `timeout`."""
        self._follow()
        with self._made:
            self._made.wait_for(lambda: self._key != key, timeout)

    def _follow(self) -> None:
        with self._lock:
            if self._follower is None or not self._follower.is_alive():
                if self.hub.stopping:
                    return  # a stopped hub's view changes no more
                self._follower = threading.Thread(target=self._run, name="projection", daemon=True)
                self._follower.start()

    def _run(self) -> None:
        seq = -1
        while not self.hub.stopping:
            if self.hub.wait_for_change(seq, 1.0, self.settle, self.quiet) == seq:
                continue   # a quiet second: the view of `seq` is made already
            started = time.monotonic()
            seq = self.current()[0]
            self.hub.tail.viewed(seq, started, time.monotonic())
            with self._made:
                self._made.notify_all()


class Drawn(NamedTuple):
    """A view and the standings it was made from: the rows of the next one that did not change
    are this one's (issue 25: 800 players' rows made anew at every entry kept the projection
    busy at an ordinary pace, when one entry changes one table and its four players)."""
    standings: dict
    view: dict
    setup: object


def view(st: dict, state, hidden: bool, before: Drawn | None = None) -> dict:
    """What the projector shows of the standings `st`; with `before`, the previous view, whose
    rows are taken where what they were made from is the same (a view's rows are never changed
    once made)."""
    setup = state.setup
    if setup is None or "form" not in st:
        return {"title": "", "state": "waiting", "session": 0, "tables": [], "leaders": [], "moves": [],
                "prizes": [], "hidden": False, "note": "The party has not been created yet."}
    session = st.get("session")
    number = session["number"] if session else 0
    phase = phase_of(session and session["state"], number)
    if phase == "guests":
        phase = "waiting"   # the room waits for the bell while the guests come in
    low = st.get("lowest_wins", False)   # the train games: said on the title and the leaders
    if before is None or before.setup is not setup or before.view["hidden"] != hidden:
        before = Drawn({}, {}, setup)
    ranked, old_ranked = st.get("leaders", []), before.standings.get("leaders", [])
    totals = {p["guest"]: p["amount"] for p in ranked}
    # the guests whose totals moved: all among the rows between the first and last place that
    # differ (before and after those, the very same rows)
    lo, hi, old_hi = frames.span(ranked, old_ranked)
    old_totals, new_totals = ({p["guest"]: p["amount"] for p in rows[a:b]} for rows, a, b in
                              ((old_ranked, lo, old_hi), (ranked, lo, hi)))
    moved = {g for g, amount in new_totals.items() if old_totals.get(g) != amount} | (old_totals.keys() - new_totals)
    out = {
        "title": FORM_NAMES.get(st["form"], st["form"]) + (" — the lowest total wins" if low else ""),
        "measure_label": "lowest first" if low else MEASURE_WORDS.get(st["measure"], st["measure"]),
        "state": phase, "session": number, "sessions": setup.sessions,
        "bell": session.get("bell") and {"meaning": session["bell"]["meaning"]} if session else None,
        "tables": _kept(st.get("progress", []), before.standings.get("progress", []), before.view.get("tables", []),
                        lambda row: _table(row, setup, totals, hidden),
                        lambda row: moved.isdisjoint(row["seats"].values())),
        "leaders": [] if hidden else _leaders(ranked, old_ranked, before.view.get("leaders", []), (lo, hi, old_hi)),
        # the movement that seated this session, shown until the bell starts it
        "moves": [{"name": m.guest, "to": m.to} for m in moves(state, state.session)]
        if session and session["state"] == "seated" else [],
        "prizes": [_prize(a) for a in st.get("prizes", [])],
        "hidden": hidden,
        "clock": _clock(state, setup),
    }
    if session is None and "guests" in st:
        out["note"] = f"{st['guests']['checked_in']} of {st['guests']['listed']} guests checked in"
    return out


def _kept(rows: list, old_rows: list, old_made: list, make, also=None) -> list:
    """`make(row)` for each of `rows`, or what was made before at its place where the row
    there was the same (and `also` says nothing else it depends on changed)."""
    out = [made if (row is was or row == was) and (also is None or also(row)) else make(row)
           for row, was, made in zip(rows, old_rows, old_made)]   # the standings keep their rows
    return out + [make(row) for row in rows[len(out):]]


def _leaders(rows: list, old_rows: list, old_made: list, span: tuple[int, int, int]) -> list:
    """The leaders' rows, ranked by their places (the page numbers them: a rank in each row made
    every row between a risen player's old and new places a new one, session 18), each the one
    made before for its card where what it shows is the same; `span`: `frames.span(rows, old_rows)`."""
    if len(old_made) != len(old_rows):
        old_rows, old_made, span = [], [], (0, len(rows), 0)
    lo, hi, old_hi = span
    made = dict(zip(map(_card, old_rows[lo:old_hi]), zip(old_rows[lo:old_hi], old_made[lo:old_hi])))
    return old_made[:lo] + [
        was[1] if (was := made.get(p["card"])) is not None and (p is (w := was[0]) or (
            p["amount"] == w["amount"] and p["place"] == w["place"] and p["guest"] == w["guest"]
            and p["left"] == w["left"]))   # what its row shows (`_leader`) the same
        else _leader(p) for p in rows[lo:hi]] + old_made[old_hi:]


_card = itemgetter("card")


def _leader(p: dict) -> dict:
    return {"name": p["guest"] + (" (left)" if p["left"] else ""), "card": p["place"] or "", "total": p["amount"]}


def _table(row: dict, setup, totals: dict, hidden: bool) -> dict:
    points = row.get("points")
    return {
        "table": row["table"], "games": row["games"], "of": setup.games_per_session,
        "done": row["done"], "state": row["state"],
        "points": None if hidden or points is None else f"A+C {points['AC']} · B+D {points['BD']}",
        "seats": [{"seat": seat, "name": name, "score": None if hidden else totals.get(name)}
                  for seat, name in row["seats"].items()],   # the standings' are in seat order
    }


def _clock(state, setup) -> dict | None:
    """A party run by the clock ("The game lasts an hour and a half", BERGEN GAME): when its
    time is up, from the start of session I, until the final count."""
    if setup.time_limit is None or state.started_at is None or state.final_count:
        return None
    return {"ends_at": state.started_at + setup.time_limit * 60, "minutes": setup.time_limit}


def _prize(a: dict) -> dict:
    return {"prize": a["prize"], "label": prize_label(a["prize"]), "name": a["winner"] or "",
            "total": a["amount"], "play_off": a["candidates"] if a["needs_play_off"] else []}
