"""The conductor's door to the scoring engine (hub/scoring).

A table's seats are named A-D as the book seats them, but a short table (three
or two players, or a seat left empty by a guest who left) has the engine's seats
A, B, C ... in order of play. This module translates both ways: the board sees
fields named by the table's own seats, the engine sees its seats; and it turns
the engine's `HandOutcome` into what a score-card records for the party's form:
sixteenths (Block, Draw), quarters (All Quarters), a game won (Sebastopol) or the
partnership's points (Bergen, Tiddle-a-wink: "Whatever points the partners win,
they win conjointly").
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Callable

from hub.refusal import Refusal
from hub.scoring import get_form
from hub.scoring.values import seats_for

from .cards import SEATS
from .events import Outcome
from .frozen import EMPTY, FrozenMap
from .leads import LEAD_FIELD
from .setup import Setup

_tuple_new = tuple.__new__


def variant(setup: Setup, play_off: bool = False) -> str:
    """The engine's variant a table of the party plays: the party form's reading (forms/). A
    play-off among players tied for a prize is "a game among themselves", each for himself:
    in the partnership forms that is the game without sides."""
    book = setup.party_form
    if play_off and book.play_off_game:
        return book.play_off_variant or get_form(book.play_off_game).default
    if play_off and book.play_off_variant:
        # the party's reading of a tie on doubles holds in its play-off (Bergen's "-sum")
        tie = "-sum" if (setup.variant or "").endswith("-sum") else ""
        return book.play_off_variant + tie
    if setup.variant:
        return setup.variant
    form = get_form(setup.game)
    return book.variant or ("grimm" if "grimm" in form.variants else form.default)


def game(setup: Setup, play_off: bool = False) -> str:
    """The engine's form a table plays: the party form's game, or its play-off's (partners
    tied for a prize play "a game among themselves" each for himself, in a game that has
    no sides where the party's game has only partners: Texas 42)."""
    return (play_off and setup.party_form.play_off_game) or setup.game


@lru_cache(maxsize=64)
def rules(setup: Setup, players: int, play_off: bool = False):
    # a session's tables follow the party rules (a short table draws more); a play-off is
    # "a game among themselves"
    each = {"in_play": "each"} if setup.in_play == "each" and not play_off else {}
    if setup.hand and not play_off:
        each["hand"] = setup.hand   # a club's own deal ("deal 11")
    if setup.blanks:
        each["blanks"] = setup.blanks   # the house rule for blanks ("the double-blank 50")
    return get_form(game(setup, play_off)).rules(players=players, variant=variant(setup, play_off),
                                      tile_set=setup.tile_set, party=not play_off, **each)


@lru_cache(maxsize=64)
def _seat_fields(setup: Setup, players: int, play_off: bool) -> tuple[str, ...]:
    """The engine's fields keyed as a seat (1-4): these carry seat numbers to translate."""
    r = rules(setup, players, play_off)
    return tuple(f.k for f in get_form(r.form).entry_form(r).fields if f.seat)


def seats_taken(seats) -> tuple[str, ...]:
    """The table's seats that hold a card, in order of play."""
    if None not in seats:
        return SEATS   # a full table, as most are
    return tuple(s for s, card in zip(SEATS, seats) if card is not None)


@dataclass(frozen=True)
class _Door:
    """What scoring at a table needs besides its values: the seat map, the rules, the form
    and the engine's seat fields. A pure function of the set-up and the seats occupied,
    asked for every result scored: made once per set-up and seats (docs/performance.md)."""
    seats: "SeatMap"
    rules: object
    form: object
    seat_keys: tuple[str, ...]
    keys: dict              # the form's fields: table key -> engine key (never changed)
    score: Callable         # the engine's values of a hand (or a count) -> its Outcome, or Refusal


@lru_cache(maxsize=256)
def _door(setup: Setup, occupied: tuple[str, ...], play_off: bool) -> _Door:
    m = SeatMap(occupied)
    players = len(occupied)
    r = rules(setup, players, play_off)
    form = get_form(r.form)
    keys = {m.key_to_table(f.k): f.k for f in form.entry_form(r).fields}
    keys = {k: ek for k, ek in keys.items() if m.key_to_engine(k) == ek}   # as translated key by key
    return _Door(m, r, form, _seat_fields(setup, players, play_off), keys,
                 form.scorer(r, made_as=_outcome_at(m)))


class SeatMap:
    """Engine seat <-> table seat, for the occupied seats in order of play."""

    def __init__(self, occupied: tuple[str, ...]):
        self.table = list(occupied)
        self.engine = list(seats_for(len(self.table)))
        self.to_table = dict(zip(self.engine, self.table))
        self.to_engine = dict(zip(self.table, self.engine))
        # an occupied seat's number as the table keys it (1-4 for A-D) -> the engine's
        self.numbers = {SEATS.index(s) + 1: self.engine.index(e) + 1 for s, e in self.to_engine.items()}
        # every seat taken: the table's seats are the engine's, its keys and numbers the same
        self.full = self.table == list(SEATS)

    def table_number(self, n: int) -> int:
        """An engine seat's number (1, 2 ...; 0 none) as the table keys it (1-4 for A-D)."""
        return SEATS.index(self.to_table[self.engine[n - 1]]) + 1 if n else 0

    def key_to_table(self, k: str) -> str:
        head, sep, rest = k.partition("_")
        return self.to_table[head] + sep + rest if head in self.to_table else k

    def key_to_engine(self, k: str) -> str | None:
        head, sep, rest = k.partition("_")
        if head in SEATS:
            return self.to_engine[head] + sep + rest if head in self.to_engine else None
        return k


def entry_form(setup: Setup, seats, play_off: bool = False, lead: bool = False) -> list[dict]:
    """The protocol's `form.fields`, named by the table's seats; with `lead`, first the
    seat that led (leads.py)."""
    return [dict(f) for f in entry_fields(setup, seats, play_off, lead)]


def entry_fields(setup: Setup, seats, play_off: bool = False, lead: bool = False) -> tuple[dict, ...]:
    """`entry_form`'s fields as made once for every table seated alike, not copied: for
    a screen, which is spelled and compared, never changed (one per result keyed)."""
    return _fields(setup, seats_taken(seats), play_off, lead)


@lru_cache(maxsize=256)
def _fields(setup: Setup, occupied: tuple[str, ...], play_off: bool, lead: bool) -> tuple:
    """The fields for a table with these seats occupied (cached: every board's screen asks)."""
    m = SeatMap(occupied)
    fields = [dict(LEAD_FIELD)] if lead else []
    r = rules(setup, len(m.table), play_off)
    engine_form = get_form(r.form).entry_form(r)
    seat_keys = {f.k for f in engine_form.fields if f.seat}
    for f in engine_form.to_json():
        k = m.key_to_table(f["k"])
        label = f["label"]
        if k != f["k"]:
            label = k.partition("_")[0] + label[1:]
        field = dict(f, k=k, label=label)
        if f.get("seat"):
            field["max"] = 4    # keyed as the table's seats 1-4 (A-D), translated back on scoring
        if "when" in f and f["when"][0] in seat_keys:   # the seats it names, as the table's
            on, values = f["when"]
            field["when"] = [on, [m.table_number(v) for v in values]]
        fields.append(field)
    return tuple(fields)


def score(setup: Setup, seats, values, play_off: bool = False, lead: bool = False) -> Outcome:
    """Score one game keyed at a table whose seats hold `seats` (card or None for A-D): the
    engine's outcome in the table's seats (its `gains` the form's measure for seats A-D).
    With `lead`, `values` also names the seat that led; the engine does not see it.
    The judge scores each result once; its outcome is journaled with it, and folded."""
    door, engine_values = _to_engine(setup, seats, values, play_off, lead, whole=True)
    try:
        return door.score(engine_values)
    except Refusal as e:
        raise Refusal(_table_why(door.seats, e.why)) from None


def count_form(setup: Setup, seats) -> list[dict] | None:
    """The protocol's fields for one count made in play (set-up `in_play` "each"), named by
    the table's seats; None where the form scores nothing in play."""
    fields = _count_fields(setup, seats_taken(seats))
    return None if fields is None else [dict(f) for f in fields]


@lru_cache(maxsize=256)
def _count_fields(setup: Setup, occupied: tuple[str, ...]) -> tuple[dict, ...] | None:
    """`count_form`'s fields for a table with these seats occupied, made once (every screen
    of a table keying counts asks: they were made anew each time, 8-11 us)."""
    m = SeatMap(occupied)
    form = get_form(setup.game).play_entry_form(rules(setup, len(m.table)))
    if form is None:
        return None
    # a count is made by a seat: keyed A-D, never "none"
    return tuple(dict(f, k=m.key_to_table(f["k"]), **({"min": 1, "max": 4} if f.get("seat") else {}))
                 for f in form.to_json())


def score_count(setup: Setup, seats, values) -> Outcome:
    """Score one count made in play (a Bergen header, a Tiddle-a-wink double) keyed at a
    table: the points go to the side that made it, as a hand's do."""
    if not isinstance(values, Mapping):
        raise Refusal("BAD MESSAGE")
    door = _count_door(setup, seats_taken(seats))
    if door is None:
        raise Refusal("NOTHING IN PLAY")
    engine_values = _engine_values(door.seats, dict(values), door.seat_keys, door.keys)
    try:
        return door.score(engine_values)
    except Refusal as e:
        raise Refusal(_table_why(door.seats, e.why)) from None


@lru_cache(maxsize=256)
def _count_door(setup: Setup, occupied: tuple[str, ...]) -> _Door | None:
    """`_door` for a count made in play, at a session's table (None: the form scores nothing
    in play): made once, as a hand's is (a seat map, the rules and the count's form were
    made for every count, and the engine's checker of the form written out again)."""
    m = SeatMap(occupied)
    r = rules(setup, len(occupied))
    form = get_form(setup.game)
    play = form.play_entry_form(r)
    if play is None:
        return None
    keys = {m.key_to_table(f.k): f.k for f in play.fields}
    keys = {k: ek for k, ek in keys.items() if m.key_to_engine(k) == ek}   # as translated key by key
    return _Door(m, r, form, tuple(f.k for f in play.fields if f.seat), keys,
                 partial(_count_outcome, form.score_play, r, _outcome_at(m)))


def _count_outcome(score_play, rules, made_as, values) -> Outcome:
    o = score_play(rules, values)   # the engine's HandOutcome of a count made in play
    return made_as(o.points, o.winners, o.blocked, o.side_points, o.tally)


def _outcome_at(m: "SeatMap") -> Callable[..., Outcome]:
    """The engine's outcome of a hand at a table seated as `m`, made as the conductor's own
    record of it, in the table's seats (`GameForm.scorer`'s `made_as`, called as the engine's
    `HandOutcome` is): its points are the card's measure: sixteenths, quarters, Sebastopol's
    game won (1 to the winner) or the partnership's points credited to both partners."""
    def made_as(points, winners=(), blocked=False, side_points=None, tally=EMPTY) -> Outcome:
        if m.full:
            winners, points = winners if type(winners) is tuple else tuple(winners), FrozenMap(points)
        else:
            winners = tuple(m.to_table[s] for s in winners)
            points = FrozenMap({m.to_table[s]: p for s, p in points.items()})
        # the tally: names -> whole numbers, copied as they are, not through `frozen`
        # (docs/performance.md, "The speed tricks in one module"); the named tuple made
        # without its `__new__` (a Python function), as the journal's reader makes it (body.py)
        return _tuple_new(Outcome, (points, winners, blocked, FrozenMap(tally) if tally else EMPTY))
    return made_as


def check_partial(setup: Setup, seats, values, play_off: bool = False, lead: bool = False) -> dict:
    """The fields a table has keyed so far (named by its seats), checked as `score` checks
    a whole entry: the engine's ranges and checks across fields (hub/scoring/bounds.py), for
    a board or a phone to refuse a field as it is keyed. Returns the values, or `Refusal`."""
    door, engine_values = _to_engine(setup, seats, values, play_off, lead, whole=False)
    try:
        door.form.check_partial(door.rules, engine_values)
    except Refusal as e:
        raise Refusal(_table_why(door.seats, e.why)) from None
    return dict(values)


def _to_engine(setup: Setup, seats, values, play_off: bool, lead: bool, whole: bool):
    """(the door, the values named by the engine's seats): a table's keys and seat numbers
    translated; the lead checked and left out (the engine does not see it)."""
    if type(values) is not FrozenMap and not isinstance(values, Mapping):
        raise Refusal("BAD MESSAGE")
    values = dict(values)   # the engine's own copy (of a FrozenMap or a dict: copied in C)
    if lead and (whole or "lead" in values):
        n = values.pop("lead", None)
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 4:
            raise Refusal("MISSING LEAD")
        if seats[n - 1] is None:
            raise Refusal("SEAT EMPTY")
    elif "lead" in values:
        # A board keying on through a hub outage reuses the last form it had (firmware
        # screen.form), which may ask who led game 1; a later game's lead follows from the
        # first, so the keyed value is ignored rather than the entry refused and lost.
        del values["lead"]
    door = _door(setup, seats_taken(seats), play_off)
    return door, _engine_values(door.seats, values, door.seat_keys, door.keys)


def _engine_values(m: "SeatMap", values: dict, seat_keys, keys: Mapping = EMPTY) -> dict:
    """A table's keyed values named by the engine's seats, the seat numbers in `seat_keys`
    translated too; `keys`: table key -> engine key for the form's fields, made once.
    `values`: a copy of the caller's own, which at a full table (every key and number the
    engine's already) is the engine's values."""
    if m.full:
        engine_values = values
    else:
        engine_values = {}
        for k, v in values.items():
            ek = keys.get(k) or m.key_to_engine(k)
            if ek is None:
                raise Refusal("SEAT EMPTY")
            engine_values[ek] = v
    for key in seat_keys:
        n = engine_values.get(key)
        if isinstance(n, int) and not isinstance(n, bool) and n:
            if n not in m.numbers:
                raise Refusal("SEAT EMPTY")
            engine_values[key] = m.numbers[n]
    return engine_values


def _table_why(m: "SeatMap", why: str) -> str:
    """A refusal that names engine seats ("B: 32 AT MOST", "MISSING B SPOTS") named by the
    table's seats."""
    return re.sub(r"^(MISSING )?([A-J])(?=[ :])",
                  lambda s: (s.group(1) or "") + m.to_table.get(s.group(2), s.group(2)), why)


def pieces_each(setup: Setup, players: int) -> int:
    """Pieces each player draws at a table of `players`, as the engine deals them: "The
    number of dominoes to be drawn by each player at that table will have to be increased,
    in order to make the number taken from the stock ... equal" (LIST)."""
    return get_form(setup.game).spec(rules(setup, players, False)).hand_size


def engine_double(setup: Setup, players: int, game: int) -> int | None:
    """The engine double of round `game` of a train game (the set's highest first, one lower
    each round); None past the last round."""
    form, r = get_form(setup.game), rules(setup, players, False)
    return form.engine(r, game) if 1 <= game <= form.rounds(r) else None
