"""The derived record: score-cards, standings for the projected page, prizes, and the
whole party as JSON (`to_json`, what `party replay --json` prints and what a live hub
and a replay must agree on).

Score-cards follow the book's card (SCORE-CARDS, ALL-QUARTERS' folder, SEBASTOPOL's
punched card): per session, the table and seat, each game's amount, the session's
total and the running total; punch-holes for Sebastopol's games won and for each
Bergen or Tiddle-a-wink remove.
"""
from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from typing import NamedTuple

from .cards import SEATS, colour, label, number
from .movement import table_gains
from .prizes import awards, prize_count, punch_holes, totals
from .screens import current_bell
from .state import (PartyState, in_play, missing, party_over, seated_cards, session_phase,
                    table_done, table_state)


def _place(place) -> str | None:
    return f"Table {place[0]} {place[1]}" if place else None


@dataclass(frozen=True)
class Move:
    """A guest's move to a seat of the next session, as the movement made it: a value the
    standings, `to_json` and the projected page each spell their own way."""
    guest: str
    card: str
    before: tuple | None      # (table, seat) in the session before, None: a newcomer
    after: tuple              # (table, seat)

    @property
    def to(self) -> str:
        return _place(self.after)

    def __str__(self) -> str:
        return f"{self.guest} -> {self.to}"


def moves(state: PartyState, s) -> tuple[Move, ...]:
    """The moves that seated session `s`."""
    return tuple(Move(state.holders[c], c, before, after) for c, before, after in s.moves)


def score_cards(state: PartyState) -> list[dict]:
    if state.setup is None:
        return []
    games: dict[tuple[str, int], list[int]] = {}
    for s in state.sessions:
        for n in sorted(s.tables):
            for e in s.tables[n].entries:
                if e.counts:
                    for c, g in zip(e.seats, e.gains):
                        if c is not None:
                            games.setdefault((c, s.number), []).append(g)
    # punch-holes: a remove (Bergen, Tiddle-a-wink: the session), or a game won (Sebastopol:
    # "The conductor indicates the game any player wins by punching a hole in the proper place")
    holes: dict[str, list] = {}
    for session, c in punch_holes(state):
        holes.setdefault(c, []).append(session)
    if state.setup.measure == "games":   # Sebastopol
        for (c, session), won in sorted(games.items()):
            holes.setdefault(c, []).extend([session, g] for g, w in enumerate(won, start=1) if w)
    places = [seated_cards(s) for s in state.sessions]
    cards = []
    for card in sorted(state.holders, key=number):
        running, rows = 0, []
        for s, seated in zip(state.sessions, places):
            place = seated.get(card)
            won = games.get((card, s.number), [])
            if place is None and not won:
                continue
            running += sum(won)
            rows.append({"session": s.number, "table": place[0] if place else None,
                         "seat": place[1] if place else None, "games": won,
                         "total": sum(won), "running": running})
        guest = state.guests[state.holders[card]]
        cards.append({"card": card, "number": number(card), "label": label(card),
                      "colour": colour(card), "guest": guest.name,
                      "left": guest.left is not None, "sessions": rows,
                      "total": running, "punch_holes": holes.get(card, [])})
    return cards


def _awards_json(state: PartyState) -> list[dict]:
    name = {c: state.holders[c] for c in state.holders}
    out = []
    for a in awards(state):
        po = next((p for p in state.play_offs if p.prize == a.prize), None)
        out.append({"prize": a.prize, "amount": a.amount,
                    "candidates": [name[c] for c in a.cards],
                    "winner": name[a.winner] if a.winner else None,
                    "play_off": None if po is None else {
                        "table": po.table, "games": len([e for e in po.entries if e.counts])},
                    "needs_play_off": a.needs_play_off})
    return out


class Standings(NamedTuple):
    """The standings of one state, with what their rows were made from: the standings after
    the next event take the rows whose inputs did not change (issue 25: 200 tables' and 800
    players' rows made anew at every entry kept the hub's one interpreter busy ~10 ms, when
    one entry changes one table and moves its four players)."""
    page: dict
    tables: dict               # table -> (made from, row)
    order: list                # the cards as ranked, those of page["leaders"]
    ranked_from: tuple | None  # (amounts, places, guests, holders, lowest wins): the leaders' inputs
    sessions: tuple = ()       # the state's sessions they were made at
    cards: dict | None = None  # card -> (number, holder's name, colour, left): `_cards`
    places: dict | None = None  # card -> its row's "place" ("Table 3 A"), while the seating is the same


def standings(state: PartyState) -> dict:
    return standings_after(state).page


def standings_after(state: PartyState, before: Standings | None = None) -> Standings:
    """The standings of `state`, the same as made from nothing; with `before` (the standings
    of any earlier state) the rows whose inputs are the same are `before`'s own, not copies.
    A row's inputs are compared, not the events between: a pure function of `state`."""
    setup = state.setup
    if setup is None:
        return Standings({"party": None}, {}, [], None)
    s = state.session
    out = {"form": setup.form, "measure": setup.measure, "tables": setup.tables,
           "lowest_wins": setup.lowest_wins,
           "session": None, "progress": [], "leaders": [], "moves": [], "prizes": [],
           "prizes_count": prize_count(state) if state.sessions else None,
           "final_count": state.final_count is not None,
           "calls": sorted(n for n, c in state.calls.items() if c)}
    if s is None:
        out["guests"] = {"listed": len(state.guests),
                         "checked_in": sum(g.checked_in for g in state.guests.values())}
        return Standings(out, {}, [], None)
    bell = current_bell(state)
    if bell is not None:
        acked = sorted(n for n, t in s.tables.items() if bell["id"] in t.acks)
        bell = dict(bell, acknowledged=acked,
                    unacknowledged=[n for n, t in sorted(s.tables.items())
                                    if in_play(setup, t) and n not in acked])
    out["session"] = {"number": s.number, "state": session_phase(state, s), "bell": bell,
                      "missing": missing(setup, s)}
    old_tables = before.tables if before else {}
    tables = {}
    for n in sorted(s.tables):
        t = s.tables[n]
        if not t.players:
            continue
        # a table's row is made from its own value, the session's start and bell, the setup and
        # who holds the cards: immutable values, so the same object is the same input (an equal
        # other table is made anew: a table's dataclass equality cost more than its row)
        key = (t, s.started, s.bell, setup, state.holders)
        kept = old_tables.get(n)
        if kept is not None and kept[0][0] is t and kept[0] == key:
            row = kept[1]
        else:   # the seats' names the same where the seats and their holders are: one dict for both rows
            same_seats = kept is not None and kept[0][0].seats is t.seats and kept[0][4] is state.holders
            row = _progress(state, s, n, t, kept[1]["seats"] if same_seats else None)
        tables[n] = (key, row)
        out["progress"].append(row)
    order, out["leaders"], ranked_from, cards, places = _leaders(state, s, before)
    out["moves"] = [str(m) for m in moves(state, s)]
    if state.final_count is not None:
        out["prizes"] = _awards_json(state)
    out["over"] = party_over(state)
    return Standings(out, tables, order, ranked_from, state.sessions, cards, places)


def _amounts(state: PartyState, s, before: Standings | None) -> tuple[dict, dict]:
    """(each card's total, where each card sits in session `s`) — `totals(state)` and
    `seated_cards(s)`; from `before`'s, where only tables of the same session in play changed
    since (the other sessions, the guests and the holders the same values), by those tables'
    results and seats alone: an entry changes one table, and summing 200 tables' results and
    seating 800 cards again at each was a fifth of the standings (issue 25). A table that only
    had results added (a rush: every table one more) adds those results' gains alone."""
    was = before.ranked_from if before else None
    if (was is None or state.setup.partnership or was[2] is not state.guests or was[3] is not state.holders
            or len(before.sessions) != len(state.sessions) or before.sessions[:-1] != state.sessions[:-1]
            or before.sessions[-1].number != s.number or state.sessions[-1] is not s):
        return totals(state), seated_cards(s)
    old = before.sessions[-1]
    added, changed = [], []
    for n in old.tables.keys() | s.tables.keys():
        t, o = s.tables.get(n), old.tables.get(n)
        if t is o:
            continue
        if t is not None and o is not None and t.seats is o.seats and t.entries[:len(o.entries)] == o.entries:
            added += t.entries[len(o.entries):]   # its results so far the same ones: the new ones' gains added
        else:
            changed.append((n, t, o))
    if 2 * len(changed) > len(s.tables):
        # most tables' results mended or reseated: each one's taken out and put back cost more
        # than summing the session whole (its gains kept on it)
        return totals(state), seated_cards(s)
    amount, seated = dict(was[0]), dict(was[1]) if changed else was[1]
    for e in added:
        if e.counts:
            for card, g in zip(e.seats, e.gains):
                if card is not None:
                    if card not in amount:
                        return totals(state), seated_cards(s)
                    amount[card] += g
    for n, t, o in changed:
        for table, sign in ((o, -1), (t, 1)):
            for card, g in table_gains(table) if table is not None else ():
                if card not in amount:
                    return totals(state), seated_cards(s)
                amount[card] += sign * g
        for i, c in enumerate(o.seats if o is not None else ()):
            if c is not None and seated.get(c) == (n, SEATS[i]):
                del seated[c]
        for i, c in enumerate(t.seats if t is not None else ()):
            if c is not None:
                seated[c] = (n, SEATS[i])
    return amount, seated


def _leaders(state: PartyState, s, before: Standings | None) -> tuple[list, list, tuple, dict, dict]:
    """(the cards ranked, their rows, what they were made from, what each card's row says of
    it, each card's place as its row says it). From `before`: the cards whose amount changed are taken out of its order and put back
    at their place, their rows made anew, the rows between their old and new ranks given their
    new rank, and those of cards moved to another seat made anew;
    the others are before's rows, their rank, card, amount, place and guest the same."""
    (amount, seated), low = _amounts(state, s, before), state.setup.lowest_wins
    ranked_from = (amount, seated, state.guests, state.holders, low)   # the train games: the lowest leads
    was = before.ranked_from if before else None
    same = was is not None and was[2:] == ranked_from[2:] and was[0].keys() == amount.keys()
    cards = before.cards if same and before.cards else _cards(state)
    # each seated card's place spelled once a seating (800 spelled at every rush's view were a
    # tenth of its leaders' rows, session 17)
    places = before.places if same and before.places is not None and (seated is was[1] or seated == was[1]) \
        else {c: _place(p) for c, p in seated.items()}
    sign = 1 if low else -1

    def rank_key(c):
        return (sign * amount[c], cards[c][0])

    def rows_of(order: list, start: int = 0) -> list:
        """The rows of the cards of `order`, ranked from `start` + 1: one dict each, made straight."""
        return [{"rank": i, "guest": card[1], "card": c, "colour": card[2], "amount": amount[c],
                 "place": places.get(c), "left": card[3]}
                for i, c, card in zip(range(start + 1, start + len(order) + 1), order, map(cards.__getitem__, order))]

    moved = {c for c in amount if amount[c] != was[0][c]} if same else None
    if moved is None or 8 * len(moved) > len(amount):
        # a rush (most cards moved, most rows made anew whichever way), or the first: ranked
        # whole, by keys made once and compared by the sort itself
        order = [c for _, _, c in sorted([(sign * a, cards[c][0], c) for c, a in amount.items()])]
        return order, rows_of(order), ranked_from, cards, places
    order = [c for c in before.order if c not in moved] if moved else before.order
    for c in moved:
        insort(order, c, key=rank_key)
    # every card ranked otherwise than before lies between the moved ones' old and new ranks
    # (one pass over each order: a list's index a moved card was a rush's view's largest cost)
    span = [i for i, c in enumerate(before.order) if c in moved] + [i for i, c in enumerate(order) if c in moved]
    lo, hi = (min(span), max(span) + 1) if span else (0, 0)
    rows = before.page["leaders"]
    # the same cards hold the span's places before and after: the unmoved ones only changed rank
    shifted = {r["card"]: r for r in rows[lo:hi]}
    rows = rows[:lo] + [rows_of([c], i)[0] if c in moved else {**shifted[c], "rank": i + 1}
                        for i, c in enumerate(order[lo:hi], start=lo)] + rows[hi:]
    if seated != was[1]:
        at = {c: i for i, c in enumerate(order)}
        for c in amount.keys() - moved:
            if seated.get(c) != was[1].get(c):
                rows[at[c]] = rows_of([c], at[c])[0]
    return order, rows, ranked_from, cards, places


def _cards(state: PartyState) -> dict:
    """Each card's (number, its holder's name, colour, whether the holder left): what its row
    says besides its rank, amount and place, the same while the guests and holders are."""
    return {c: (number(c), state.guests[g].name, colour(c), state.guests[g].left is not None)
            for c, g in state.holders.items()}


def _progress(state: PartyState, s, n: int, t, seats: dict | None = None) -> dict:
    setup = state.setup
    row = {"table": n, "state": table_state(setup, s, n),
           "seats": {x: state.holders[c] for x, c in zip(SEATS, t.seats) if c} if seats is None else seats,
           "games": t.entered, "counted": sum(e.counts for e in t.entries),
           "pending": t.pending.id if t.pending else None,
           "seat_check": t.seat_check is not None, "done": table_done(setup, s, t)}
    if setup.partnership:
        row["points"] = dict(zip(("AC", "BD"), t.counted.points))
    return row


def to_json(state: PartyState) -> dict:
    """Everything derived from the journal, as JSON-able data."""
    setup = state.setup
    if setup is None:
        return {"setup": None, "seq": state.seq, "anomalies": [list(a) for a in state.anomalies]}
    sessions = []
    for s in state.sessions:
        sessions.append({
            "number": s.number,
            "seated_by": s.seated.by,
            "seating": {str(n): {x: state.holders[c] for x, c in zip(SEATS, t.seats) if c}
                        for n, t in sorted(s.tables.items()) if t.players},
            "moves": [{"guest": m.guest, "card": m.card, "from": _place(m.before), "to": m.to}
                      for m in moves(state, s)],
            "lots": list(s.lots),
            "started_by": s.started.by if s.started else None,
            "bells": [{"id": b.id, "meaning": b.meaning, "by": b.rung.by, "cause": b.rung.why,
                       "final": b.final, "undone": None if b.undone is None else
                       {"by": b.undone.by, "why": b.undone.why}} for b in s.bells],
            "mends": [{"table": n, "game": e.game, "entry": e.id,
                       "annulled": None if e.annulled is None else
                       {"by": e.annulled.by, "why": e.annulled.why},
                       "corrections": [{"by": m.by, "why": m.why} for m in e.corrections]}
                      for n, t in sorted(s.tables.items()) for e in t.entries
                      if e.annulled or e.corrections] + [
                      {"table": n, "game": None, "annulled": {"by": m.by, "why": m.why}}
                      for n, t in sorted(s.tables.items()) for m in t.annulled_in_hand] + [
                      {"table": n, "closed": {"by": t.closed.by, "why": t.closed.why}}
                      for n, t in sorted(s.tables.items()) if t.closed],
        })
    return {
        "seq": state.seq,
        "setup": setup.to_json(),
        "staff": dict(state.staff),
        "guests": [{"name": g.name, "checked_in": g.checked_in, "card": g.card,
                    "left": None if g.left is None else {"by": g.left.by, "why": g.left.why}}
                   for g in state.guests.values()],
        "sessions": sessions,
        "score_cards": score_cards(state),
        "standings": standings(state),
        "prizes": _awards_json(state) if state.final_count is not None else [],
        "play_offs": [{"prize": p.prize, "table": p.table,
                       "players": [state.holders[c] for c in p.cards],
                       "games": [dict(zip((state.holders[c] for c in e.seats if c), e.gains))
                                 for e in p.entries if e.counts]} for p in state.play_offs],
        "standings_hidden": None if state.standings_hidden is None else {"by": state.standings_hidden.by},
        "changes": [{"what": what, "by": m.by, "why": m.why, "seq": m.seq} for what, m in state.changes],
        "anomalies": [list(a) for a in state.anomalies],
    }
