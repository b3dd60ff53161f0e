"""Movement between sessions, for each party form, exactly as the book says.

Pure functions: from the session that ended (its seating and results), the
cumulative totals and a seeded generator for lots, to the next session's
seating, the lots drawn and the punch-holes earned. The judge records the
outcome in the `players-moved` event; a replay reads it and never moves again.

Book: 000_ff8a6ed40036e836.txt, "HOW TO GIVE MUSICAL DOMINO PARTIES".
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from hub.speed import remembered

from . import lots
from .frozen import FrozenMap, frozen, thawed
from .cards import SEATS, colour
from .setup import Setup
from .state import Session, in_play


@dataclass(frozen=True)
class Movement:
    """The next session's seats and what decided them: a value (immutable, hashable)."""
    seats: Mapping[int, tuple]   # table -> (card | None) * 4
    lots: tuple                  # the draws made, for the record (frozen JSON)
    punches: tuple               # cards that earn a punch-hole (partnership forms)

    def __post_init__(self):
        object.__setattr__(self, "seats", FrozenMap((n, tuple(row)) for n, row in self.seats.items()))
        object.__setattr__(self, "lots", frozen(self.lots))
        object.__setattr__(self, "punches", tuple(self.punches))

    def record(self) -> dict:
        """The seats, lots and punch-holes as a decision's body records them (events.py)."""
        return {"seats": {str(n): list(row) for n, row in sorted(self.seats.items())},
                "lots": thawed(self.lots), "punches": list(self.punches)}


def session_gains(s: Session) -> Mapping[str, int]:
    """What each card won in session `s` (counted results only). Kept on the session value
    (a new value when a result of it is mended): every movement and every standings page
    sums all sessions so far, which made the start-up audit of a long party quadratic in
    its sessions (docs/performance.md)."""
    return remembered(s, "gains", _gains)


def _gains(s: Session) -> Mapping[str, int]:
    gains: dict[str, int] = {}
    get = gains.get
    for t in s.tables.values():
        pairs = t.gains_kept()   # the table's own sums, where it keeps them
        for card, g in table_gains(t) if pairs is None else pairs:
            if card is not None:
                gains[card] = get(card, 0) + g
    return MappingProxyType(gains)


def table_gains(t) -> list[tuple[str, int]]:
    """(card, gain) of each counted result at table `t` (a TableSession), in order: a list
    (every card-seat of a session's results at each move)."""
    return [(card, g) for e in t.entries if e.counts
            for card, g in zip(e.seats, e.gains) if card is not None]


def by_amount(setup: Setup, cards, places: dict, amount: Mapping[str, int], highest_first: bool) -> list:
    """`cards` (seated at `places`: card -> (table, seat index)) by their `amount` (0 where
    none), the highest first or the lowest; equal amounts in order of precedence: "the card
    with a higher table-number has the precedence; if from the same table ... the higher
    seat" (FIRST SESSION). The higher seat is A (the head of the table). See setup.py for
    the option. Sorted as plain tuples, without a call a card (the ranking after session II
    sorts every card at each move); a card's place is its own, so no two are compared."""
    way = -1 if highest_first else 1
    first = 1 if setup.precedence == "table-1-first" else -1
    get = amount.get
    keyed = sorted((way * get(c, 0), first * places[c][0], places[c][1], c) for c in cards)
    return [k[3] for k in keyed]


def move(setup: Setup, ended: Session, totals: dict[str, int], rng: random.Random) -> Movement:
    """The seating for the session after `ended`; `totals`: every card's amount over all
    sessions so far."""
    # each card's (table, seat index): A 0 .. D 3
    places = {c: (n, i) for n, t in ended.tables.items() for i, c in enumerate(t.seats) if c}
    by = setup.moving   # each form's own (hub/conductor/forms/), or the set-up's choice
    if by == "by-gains" and ended.number >= 2:
        return _rank(setup, places, totals)
    # players at a table that did not play (Bergen's table short of four) keep their seats
    idle = {n: t.seats for n, t in ended.tables.items() if t.players and not in_play(setup, t)}
    if by == "by-gains":
        m = _promote_by_gains(setup, ended, places)
    elif by == "sebastopol":
        m = _sebastopol(setup, ended, places, rng)
    elif by in ("three-lowest", "winner"):
        m = _lowest_move(setup, ended, places, 3 if by == "three-lowest" else 1)
    else:
        m = _partners(setup, ended, places, rng)
    return Movement({**idle, **m.seats}, m.lots, m.punches)


def _tables(setup: Setup, ended: Session) -> list[int]:
    return sorted(n for n, t in ended.tables.items() if in_play(setup, t))


def _route(setup: Setup, tables: list[int], movers: dict, stayers: dict,
           head_table: str) -> dict[int, tuple[list, list]]:
    """Where everybody goes: movers to the next higher table (toward Table 1).

    Returns, per table, (those staying, those arriving). Table 1's movers go to
    the last table ("to-last"), or stay while Table 1's others go there ("stay")."""
    out = {n: (list(stayers[n]), []) for n in tables}
    for above, n in zip(tables, tables[1:]):
        out[above][1].extend(movers[n])
    first, last = tables[0], tables[-1]
    if head_table == "to-last":
        out[last][1].extend(movers[first])
    else:
        out[last][1].extend(stayers[first])
        out[first] = (list(movers[first]), out[first][1])
    return out


def _promote_by_gains(setup: Setup, ended: Session, places: dict) -> Movement:
    """Block, Draw, All Quarters after session I: "the two luckiest of every table are
    promoted to the preceding table", Table 1's two "to the lowest table"; "The two
    old and the two new players are seated there according to their gains, the
    highest taking seat A"; equal amounts by precedence (FIRST SESSION)."""
    gains = session_gains(ended)
    tables = _tables(setup, ended)
    movers, stayers = {}, {}
    for n in tables:
        ranked = by_amount(setup, (c for c in ended.tables[n].seats if c), places, gains, True)
        movers[n], stayers[n] = ranked[:2], ranked[2:]
    routed = _route(setup, tables, movers, stayers, "to-last")
    seats = {n: _fill(by_amount(setup, stay + arrive, places, gains, True))
             for n, (stay, arrive) in routed.items()}
    return Movement(seats, [], [])


def _lowest_move(setup: Setup, ended: Session, places: dict, count: int) -> Movement:
    """The train games' clubs (forms/trains.py): "move the three lowest scores to another
    table after each game" — the `count` lowest of each table's game (the spots left against
    them; the lowest wins) move up one table, Table 1's to the last; equal amounts by
    precedence. Those staying keep their seats, those arriving take the seats left, the
    lowest first."""
    gains = session_gains(ended)
    tables = _tables(setup, ended)
    movers, stayers = {}, {}
    for n in tables:
        ranked = by_amount(setup, (c for c in ended.tables[n].seats if c), places, gains, False)
        movers[n], stayers[n] = ranked[:count], ranked[count:]
    routed = _route(setup, tables, movers, stayers, "to-last")
    seats = {}
    for n, (stay, arrive) in routed.items():
        row = [None] * 4
        for c in stay:
            row[places[c][1]] = c
        lowest = by_amount(setup, arrive, places, gains, False)
        for i, c in zip([i for i in range(4) if row[i] is None], lowest):
            row[i] = c
        seats[n] = tuple(row)
    return Movement(seats, [], [])


def _rank(setup: Setup, places: dict, totals: dict) -> Movement:
    """After session II: the cards arranged "according to the amounts of sixteenths won in
    these two sessions ... the highest above"; blank cards "according to the table-number
    and seat received for the second session"; "He puts the highest winner at Table 1,
    Seat A, and thus continues downward" (THIRD SESSION)."""
    return Movement(_deal_down(by_amount(setup, places, places, totals, True)), [], [])


def _deal_down(ranked: list[str]) -> dict:
    """Seat `ranked` from Table 1 A downward, four to a table; with one player over,
    the last two tables take three and two (a table of one cannot play)."""
    sizes = [4] * (len(ranked) // 4) + ([len(ranked) % 4] if len(ranked) % 4 else [])
    if len(sizes) >= 2 and sizes[-1] == 1:
        sizes[-2:] = [3, 2]
    seats, i = {}, 0
    for n, size in enumerate(sizes, start=1):
        seats[n] = _fill(ranked[i:i + size])
        i += size
    return seats


def _fill(cards: list) -> tuple:
    row = tuple(cards[:4])
    return row + (None,) * (4 - len(row))


def _sebastopol(setup: Setup, ended: Session, places: dict, rng: random.Random) -> Movement:
    """"after every session two players of each table move to the next (higher) one.
    Those two always move who have won the most games in the session ended." A tie
    "among three players at one table" is settled by dominoes drawn from the
    reshuffled set, "the holders of the dominoes with the most note-values move"
    (SEBASTOPOL); any tie across the two moving places is drawn the same way.
    Those staying keep their seats; those arriving take the seats left, the one
    with more games first (the book does not say where they sit)."""
    won = session_gains(ended)
    tables = _tables(setup, ended)
    movers, stayers, drawn = {}, {}, []
    for n in tables:
        order, record = _top_two(ended.tables[n].seats, won, rng)
        movers[n], stayers[n] = order[:2], order[2:]
        if record:
            drawn.append({"table": n, "why": "equal games won", "draws": record,
                          "moved": order[:2]})
    routed = _route(setup, tables, movers, stayers, setup.head_table)
    seats = {}
    for n, (stay, arrive) in routed.items():
        row = [None] * 4
        for c in stay:
            if places[c][0] == n:
                row[places[c][1]] = c
        rest = [c for c in stay if row.count(c) == 0] + arrive
        free = [i for i in range(4) if row[i] is None]
        for i, c in zip(free, rest):
            row[i] = c
        seats[n] = tuple(row)
    return Movement(seats, drawn, [])


def _top_two(seats, won: dict, rng: random.Random) -> tuple[list[str], list]:
    cards = [c for c in seats if c]
    ranked = sorted(cards, key=lambda c: -won.get(c, 0))
    if len(ranked) <= 2:
        return ranked, []
    boundary = won.get(ranked[1], 0)
    if won.get(ranked[2], 0) != boundary:
        return ranked, []
    tied = [c for c in ranked if won.get(c, 0) == boundary]
    above = [c for c in ranked if won.get(c, 0) > boundary]
    below = [c for c in ranked if won.get(c, 0) < boundary]
    order, record = lots.draw(rng, tied)
    return above + order + below, record


def _partners(setup: Setup, ended: Session, places: dict, rng: random.Random) -> Movement:
    """Bergen and Tiddle-a-wink: "The partners having won the greatest number of points
    at that moment get each a punch hole in their score-cards and move to the next
    (higher) table. Here they separate and take a new partner, but always one of the
    opposite color." Equal points: "the partners who won their number first move on"
    (BERGEN GAME); equal still (neither scored, or both reached it with one result):
    a lot. At the new table the staying white keeps A with the arriving red in C, the
    arriving white takes B with the staying red in D: partners sit opposite."""
    tables = _tables(setup, ended)
    movers, stayers, drawn, punches = {}, {}, [], []
    for n in tables:
        t = ended.tables[n]
        side, record = _winning_side(t, rng)
        win = winners(t, side)
        movers[n], stayers[n] = win, [c for c in t.seats if c and c not in win]
        punches += win
        if record:
            drawn.append({"table": n, "why": "equal points", "draws": record,
                          "moved": win})
    routed = _route(setup, tables, movers, stayers, setup.head_table)
    seats = {}
    for n, (stay, arrive) in routed.items():
        whites = [c for c in stay + arrive if colour(c) == "White"]
        reds = [c for c in arrive + stay if colour(c) == "Red"]
        seats[n] = (tuple(whites[:2]) + (None,) * (2 - len(whites[:2])) +
                    tuple(reds[:2]) + (None,) * (2 - len(reds[:2])))
    return Movement(seats, drawn, punches)


def _winning_side(t, rng: random.Random) -> tuple[str, list]:
    side = side_by_play(t)
    if side is not None:
        return side, []
    order, record = lots.draw(rng, ["AC", "BD"])
    return order[0], record


def side_by_play(t) -> str | None:
    """The partners ("AC" or "BD") the table's counted results make the winners of its
    session: the most points, equal points the partners who won their number first;
    None when only a lot can tell (neither scored, or both reached it with one result)."""
    points = {"AC": 0, "BD": 0}
    reached = {"AC": 0, "BD": 0}     # the result after which the side last scored
    for i, e in enumerate((e for e in t.entries if e.counts), start=1):
        for side, seat in (("AC", 0), ("BD", 1)):
            if e.gains[seat]:
                points[side] += e.gains[seat]
                reached[side] = i
    if points["AC"] != points["BD"]:
        return max(points, key=points.get)
    if reached["AC"] != reached["BD"] and points["AC"]:
        return min(reached, key=reached.get)
    return None


def winners(t, side: str) -> list[str]:
    """The cards seated on `side` ("AC" or "BD") at table session `t`."""
    return [c for c, s in zip(t.seats, SEATS) if c and s in side]
