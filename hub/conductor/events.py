"""Every kind of event the journal holds: the one place that defines them.

Each kind is one frozen value, its body's fields in the domain's words, registered
under its kind (`BODIES`: kind -> class, as python-chess keeps its variants).
A body is read (`read`) once, at the journal's edge: a row read back (replay, the
audit) or a proposal entering the conductor (a table's event over MQTT, the
console's action, a test's dict); after that the judge, the fold and the audit
read attributes. A malformed body is a `Refusal` with a reason the table's display
can show; nothing of it is journaled. `Body.to_json()` is the body as the journal
stores it (JSON, docs/journal.md): the hub's own decisions are made as values and
spelled once for the journal; an input keeps the JSON it was sent in, so the digest
is that of the body as sent.

Table kinds are the protocol's event kinds prefixed `table.` (docs/protocol.md);
their body is the protocol body plus "table" and "board". Staff kinds come from
the console, with source 'staff:<login>', so every action is recorded under its
author's name. Hub kinds are decisions the hub takes on its own (source 'hub'),
each naming "by": the source of the request or result that brought it about.
A decision's outcome, and a result's score (`outcome`), are filled in by the judge
and recorded, never recomputed on replay (docs/journal.md).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, NamedTuple

from hub.refusal import Refusal

from .cards import SEATS
from .frozen import EMPTY, FrozenMap, frozen, thawed

BAD = "BAD MESSAGE"
_SEATS = frozenset(SEATS)


class Body:
    """What every kind's body answers: who brought a decision about (`by`, else the
    event's source), why a mend was made (`why`) and a result's score (`outcome`), where
    the kind has them."""
    __slots__ = ()
    KIND: ClassVar[str]
    FIELDS: ClassVar[tuple[str, ...]]
    SPELLING: ClassVar[dict]   # field -> (how its value is spelled in JSON, required)
    make: ClassVar[Callable[..., "Body"]]   # the value of its fields' values, in order (_maker)
    field_values: ClassVar[Callable[["Body"], list]]   # its fields' values, in order (_field_values)
    by: str | None = None
    why: str = ""
    outcome: "Outcome | None" = None

    def replaced(self, **changes) -> "Body":
        """This body with `changes` (`dataclasses.replace` without its walk over the fields'
        metadata: the judge fills in every result's outcome this way)."""
        values = self.field_values()
        for name, value in changes.items():
            values[self.FIELDS.index(name)] = value
        return self.make(*values)

    def to_json(self) -> dict:
        """The body as the journal stores it: required fields always, the others where given
        (an optional field is None where the body leaves it out)."""
        out = {}
        for name, (spell, required) in self.SPELLING.items():
            value = getattr(self, name)
            if value is not None or required:
                out[name] = spell(value)
        return out


BODIES: dict[str, type[Body]] = {}


def kind(kind_: str, /, **reasons: str) -> Callable[[type], type]:
    """Registers a body class for `kind_`; `reasons`: the refusal for a field of the wrong
    shape where it is not BAD MESSAGE (the reason the judge always gave for it)."""
    def register(cls):
        for name in cls.__dict__.get("__annotations__", {}):
            if name not in cls.__dict__:   # required: Body's class defaults are not this field's
                setattr(cls, name, dataclasses.field())
        cls = dataclass(frozen=True, slots=True)(cls)
        cls.KIND, cls.FIELDS = kind_, tuple(f.name for f in dataclasses.fields(cls))
        cls.SPELLING = {f.name: (_SPELL.get(f.type, _plain), f.default is dataclasses.MISSING)
                        for f in dataclasses.fields(cls)}
        cls.make = staticmethod(_maker(cls))
        cls.field_values = _field_values(cls)
        if "read" not in cls.__dict__:   # a kind may read its body itself (PartyCreated)
            cls.read = staticmethod(_reader(cls, reasons))
        BODIES[kind_] = cls
        return cls
    return register


def read(kind_: str, body: Any) -> Body:
    """`body` (JSON, as sent or as journaled) as its kind's value; `Refusal` if it is not one."""
    cls = BODIES.get(kind_)
    if cls is None:
        raise Refusal("UNKNOWN KIND", f"kind {kind_!r}")
    if type(body) is not dict and not isinstance(body, FrozenMap):
        raise Refusal(BAD, f"{kind_}: the body is not an object")
    return cls.read(body)


class _Missing(Exception):
    pass


def _reader(cls, reasons: dict) -> Callable[[Mapping], Body]:
    """The function that reads a body of `cls` from JSON, written out field by field as
    `dataclass` writes `__init__` (a loop over the fields took twice as long: the fold reads
    every event of a journal once, at start-up), and setting the value's slots as `__init__`
    does, without its call (half the cost of making the value). A field annotated `X | None`
    may be null; one with a default may be left out (None)."""
    env = {"cls": cls, "new": object.__new__, "ABSENT": _ABSENT, "Missing": _Missing, "Refusal": Refusal,
           "reasons": reasons, "BAD": BAD, "kind": cls.KIND}
    code, args = ["def read(body):", "    f = v = None", "    try:"], []
    for i, f in enumerate(dataclasses.fields(cls)):
        base = f.type.removesuffix(" | None")
        nullable, required = base != f.type, f.default is dataclasses.MISSING
        env[f"r{i}"] = _READ[base]
        code.append(f"        f, v = {f.name!r}, body.get({f.name!r}, ABSENT)")
        if required:
            code.append("        if v is ABSENT: raise Missing")
        read_it = f"r{i}(v)" if base not in _EXACT else "v"
        if base in _EXACT:
            code.append(f"        if type(v) is not {base}{' and v is not None' if nullable else ''}"
                        f"{' and v is not ABSENT' if not required else ''}: raise TypeError('not {_EXACT[base]}')")
        if nullable or not required:
            absent = " or v is ABSENT" if not required else ""
            code.append(f"        a{i} = None if v is None{absent} else {read_it}")
        else:
            code.append(f"        a{i} = {read_it}")
        args.append(f"a{i}")
    if not args:   # a kind with no fields: any object will do
        code.append("        pass")
    code += ["    except Missing:",
             "        raise Refusal(reasons.get(f, BAD), f'{kind}: no {f!r}') from None",
             "    except (TypeError, ValueError) as e:",
             "        raise Refusal(reasons.get(f, BAD), f'{kind}: {f} {v!r}: {e}') from None",
             f"    return make({', '.join(args)})"]
    env["make"] = cls.make
    exec("\n".join(code), env)
    return env["read"]


def _maker(cls) -> Callable[..., Body]:
    """The function that makes a value of `cls` from its fields' values in order, setting
    its slots as `__init__` does without its call (a frozen dataclass's sets each through
    object.__setattr__): half the cost of making the value, one per body read or judged."""
    env = {"cls": cls, "new": object.__new__}
    args = [f"a{i}" for i in range(len(cls.FIELDS))]
    code = [f"def make({', '.join(args)}):", "    value = new(cls)"]
    for i, name in enumerate(cls.FIELDS):
        env[f"s{i}"] = getattr(cls, name).__set__
        code.append(f"    s{i}(value, a{i})")
    code.append("    return value")
    exec("\n".join(code), env)
    return env["make"]


def _field_values(cls) -> Callable[[Body], list]:
    """The function that lists a value's fields' values in order, written out field by field
    (`replaced` read them one `getattr` at a time, asking for each whether it was changed)."""
    env: dict = {}
    exec(f"def field_values(value): return [{', '.join(f'value.{name}' for name in cls.FIELDS)}]", env)
    return env["field_values"]


_ABSENT = object()
_EXACT = {"int": "a whole number", "str": "a text", "bool": "true or false"}   # JSON's own types


# -- the shapes a field takes: read from JSON, spelled back to it -----------------------

def _is_object(v) -> bool:
    return type(v) is dict or isinstance(v, FrozenMap)


_CONTAINERS = frozenset({dict, list, tuple, FrozenMap})


def _seat(v) -> str:
    if v not in SEATS:
        raise ValueError("not a seat")
    return v


def _object(v) -> FrozenMap:
    if not _is_object(v):
        raise TypeError("not an object")
    if _CONTAINERS.isdisjoint(map(type, v.values())):
        return FrozenMap(v)   # a table's keyed values: flat, one copy
    return frozen(v)


def _texts(v) -> tuple:
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
        raise TypeError("not a list of texts")
    return tuple(v)


def _cards(v) -> FrozenMap:
    """{guest: card}: the cards drawn."""
    if not _is_object(v) or {type(c) for c in v.values()} - {str}:
        raise TypeError("not the cards of the guests")
    return FrozenMap(v)


def _seat_numbers(v) -> FrozenMap:
    """{seat: card number} keyed at a seat check (0: the seat is empty)."""
    if not _is_object(v) or not v.keys() <= _SEATS:
        raise TypeError("not card numbers by seat")
    if {type(n) for n in v.values()} - {int} or any(n < 0 for n in v.values()):
        raise ValueError("not card numbers")
    return FrozenMap(v)


def _tables_seats(v) -> FrozenMap:
    """{table: [card | null] * 4}, the table's number spelled as text in JSON."""
    if not _is_object(v):
        raise TypeError("not seats by table")
    return FrozenMap((int(n), tuple(row)) for n, row in v.items())


class Outcome(NamedTuple):
    """What the scoring engine made of a result's values, in the table's seats: recorded
    with the result, read back on replay (docs/journal.md). A named tuple, not a dataclass:
    one is made per result read, and a tuple is made at a fifth of the cost."""
    points: FrozenMap      # seat -> the form's measure won
    winners: tuple         # seats
    blocked: bool
    tally: FrozenMap

    @property
    def gains(self) -> tuple:
        """The points of seats A-D, 0 where none."""
        get = self.points.get
        return get("A", 0), get("B", 0), get("C", 0), get("D", 0)

    @staticmethod
    def of(json: Mapping) -> "Outcome":
        points, winners, tally = json["points"], json["winners"], json.get("tally")
        if not _is_object(points) or not points.keys() <= _SEATS or {type(g) for g in points.values()} - {int} \
                or type(winners) not in (list, tuple) or not _SEATS.issuperset(winners):
            raise ValueError(f"not an outcome: {json!r}")
        return Outcome(FrozenMap(points), tuple(winners), bool(json.get("blocked", False)),
                       frozen(tally) if tally else EMPTY)

    def to_json(self) -> dict:
        # the tally most often empty
        return {"points": dict(self.points), "winners": list(self.winners),
                "blocked": self.blocked, "tally": thawed(self.tally) if self.tally else {}}


def _outcome(v) -> Outcome:
    if not _is_object(v):
        raise TypeError("not an outcome")
    try:
        return Outcome.of(v)
    except (KeyError, AttributeError) as e:
        raise ValueError(f"not an outcome: {e}") from None


def _plain(v):
    return v


# Field types (as annotated below) -> how a body's JSON value is read, and spelled back.
Json = Any             # any JSON value, frozen (objects as FrozenMap, arrays as tuples)
Values = FrozenMap     # the values a table keyed, by field
Cards = FrozenMap      # {guest: card}
SeatNumbers = FrozenMap
TablesSeats = FrozenMap
Texts = tuple

_READ = {
    "int": int, "str": str, "bool": bool,   # checked by type in the reader (_EXACT)
    "Json": frozen, "Values": _object, "Seat": _seat, "Cards": _cards,
    "SeatNumbers": _seat_numbers, "TablesSeats": _tables_seats, "Texts": _texts, "Outcome": _outcome,
}
_SPELL = {
    "Json": thawed, "Values": thawed, "Cards": dict, "SeatNumbers": dict, "Texts": list,
    "TablesSeats": lambda v: {str(n): list(row) for n, row in sorted(v.items())},
    "Outcome | None": Outcome.to_json,
}
Seat = str


# -- from the tables ---------------------------------------------------------
RESULT = "table.result"
CONFIRM = "table.confirm"
SEAT_CHECK = "table.seat-check"
TABLE_BELL = "table.bell"
BELL_ACK = "table.bell-ack"
CALL = "table.call"
NO_GAME = "table.no-game"
COUNT = "table.count"
COUNT_UNDONE = "table.count-undone"

TABLE_KINDS = frozenset({RESULT, CONFIRM, SEAT_CHECK, TABLE_BELL, BELL_ACK, CALL, NO_GAME, COUNT,
                         COUNT_UNDONE})


@dataclass(frozen=True, slots=True)
class Keyed(Body):
    """The values a table keyed for a game (`outcome` filled in by the judge)."""
    table: int
    game: int
    values: Values
    board: str | None = None   # the board that sent it (the MQTT edge adds it)
    outcome: Outcome | None = None


@kind(RESULT, table="WRONG TABLE")
class Result(Keyed):
    """A game's result as keyed (a play-off's too)."""


@kind(COUNT, table="WRONG TABLE")
class Count(Keyed):
    """A count made in play (set-up in_play "each"): an entry of the game in hand."""


@kind(COUNT_UNDONE, table="WRONG TABLE", count="NO SUCH COUNT")
class CountUndone(Body):
    """The table takes back its count `count` (the count's event id) of game `game`; the
    count stays on record, annulled by the table (`why` filled in by the judge)."""
    table: int
    game: int
    count: str
    board: str | None = None   # the board that sent it (the MQTT edge adds it)
    why: str | None = None


@kind(CONFIRM, table="WRONG TABLE")
class Confirm(Body):
    """A player of the other side confirms a result, by his seat."""
    table: int
    entry: str
    seat: Seat
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(SEAT_CHECK, table="WRONG TABLE")
class SeatCheck(Body):
    table: int
    cards: SeatNumbers
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(TABLE_BELL, table="WRONG TABLE")
class TableBell(Body):
    """A table claims the end of the session."""
    table: int
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(BELL_ACK, table="WRONG TABLE", bell="NO SUCH BELL")
class BellAck(Body):
    table: int
    bell: str
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(CALL, table="WRONG TABLE")
class Call(Body):
    """The table calls the conductor."""
    table: int
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(NO_GAME, table="WRONG TABLE")
class NoGame(Body):
    """After a finish bell: between games, no game in hand."""
    table: int
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


# -- from the staff (the conductor and assistants) ----------------------------
# A decision the hub takes on a staff request (a draw, a movement) follows it as
# a `hub.` event: the request is journaled exactly as the console sent it, so a
# resent request is recognised, and the outcome is journaled, never recomputed.
PARTY_CREATED = "conductor.party-created"
STAFF_ADDED = "conductor.staff-added"
STAFF_REMOVED = "conductor.staff-removed"
GUEST_LISTED = "conductor.guest-listed"
CHECKED_IN = "conductor.guest-checked-in"
DRAW_SEATS = "conductor.draw-seats"
GUEST_SEATED = "conductor.guest-seated"
GUEST_LEFT = "conductor.guest-left"
GUEST_BACK = "conductor.guest-back"
SESSION_STARTED = "conductor.session-started"
BELL = "conductor.bell"
BELL_UNDONE = "conductor.bell-undone"
RESULT_CORRECTED = "conductor.result-corrected"
GAME_ANNULLED = "conductor.game-annulled"
TABLE_CLOSED = "conductor.table-closed"
CALL_ANSWERED = "conductor.call-answered"
RESEAT = "conductor.reseat"
FINAL_COUNT = "conductor.final-count"
PLAY_OFF = "conductor.play-off"
WALK_IN = "conductor.walk-in"
CHECK_IN_UNDONE = "conductor.check-in-undone"
ALL_CHECKED_IN = "conductor.all-checked-in"
GUEST_RENAMED = "conductor.guest-renamed"
GUEST_REMOVED = "conductor.guest-removed"
CARD_DRAWN = "conductor.card-drawn"
TABLE_ADDED = "conductor.table-added"
TABLE_REMOVED = "conductor.table-removed"
PARTY_CHANGED = "conductor.party-changed"
DRAW_UNDONE = "conductor.draw-undone"
DISPLAY_CHANGED = "conductor.display-changed"

STAFF_KINDS = frozenset({
    PARTY_CREATED, STAFF_ADDED, GUEST_LISTED, CHECKED_IN, DRAW_SEATS, GUEST_SEATED, GUEST_LEFT,
    SESSION_STARTED, BELL, BELL_UNDONE, RESULT_CORRECTED, GAME_ANNULLED, TABLE_CLOSED,
    CALL_ANSWERED, RESEAT, FINAL_COUNT, PLAY_OFF, WALK_IN, CHECK_IN_UNDONE, ALL_CHECKED_IN,
    GUEST_RENAMED, GUEST_REMOVED, CARD_DRAWN, TABLE_ADDED, PARTY_CHANGED, DISPLAY_CHANGED,
    DRAW_UNDONE, GUEST_BACK, TABLE_REMOVED, STAFF_REMOVED,
})

# A mend names why (a text; the judge refuses an empty one with SAY WHY); a name on the
# guest list is a text (BAD NAME).


@kind(PARTY_CREATED)
class PartyCreated(Body):
    """The set-up's keys as the console sent them (form, tables, variant, tile_set,
    games_per_session, sessions, time_limit, prizes, booby, confirm, seat_check,
    precedence, head_table, in_play): read by hub/conductor/setup.py, the one place that
    knows them and their defaults."""
    setup: Json

    @staticmethod
    def read(body: Mapping) -> "PartyCreated":
        return PartyCreated(frozen(body))

    def to_json(self) -> dict:
        return thawed(self.setup)


@kind(STAFF_ADDED, login="BAD LOGIN", role="BAD LOGIN")
class StaffAdded(Body):
    login: str
    role: str | None = None   # "assistant" (None) or "conductor"


@kind(STAFF_REMOVED, login="NO SUCH LOGIN", why="SAY WHY")
class StaffRemoved(Body):
    """A login added by mistake, or no longer trusted; what it did stays on record under its name."""
    login: str
    why: str


@kind(GUEST_LISTED, guest="BAD NAME")
class GuestListed(Body):
    guest: str
    similar_ok: bool | None = None   # the host says a near-duplicate name is another person


@kind(CHECKED_IN, guest="BAD NAME")
class CheckedIn(Body):
    """After the draw it is followed by hub.guest-placed."""
    guest: str


@kind(DRAW_SEATS)
class DrawSeats(Body):
    """The hub draws the cards (followed by hub.seats-drawn), or `by_hand`: the seats
    follow the printed cards drawn from the tray."""
    seed: int | None = None
    by_hand: bool | None = None


@kind(GUEST_SEATED, guest="BAD NAME", table="NO SUCH SEAT", seat="NO SUCH SEAT", why="SAY WHY")
class GuestSeated(Body):
    """The conductor moves a guest to a vacant seat (a mistake, an empty seat)."""
    guest: str
    table: int
    seat: Seat
    why: str


@kind(GUEST_LEFT, guest="BAD NAME", why="SAY WHY")
class GuestLeft(Body):
    guest: str
    why: str


@kind(GUEST_BACK, guest="BAD NAME", why="SAY WHY")
class GuestBack(Body):
    """A guest who left comes back (or the leaving was pressed on the wrong row); after the
    draw followed by hub.guest-placed: his own card, a seat."""
    guest: str
    why: str


@kind(SESSION_STARTED, session="WRONG SESSION")
class SessionStarted(Body):
    """The bell that starts play."""
    session: int


@kind(BELL, why="SAY WHY")
class ConductorBell(Body):
    meaning: str   # "finish" | "stop"
    final: bool | None = None
    why: str | None = None


@kind(BELL_UNDONE, bell="NO SUCH BELL", why="SAY WHY")
class BellUndone(Body):
    bell: str
    why: str


@kind(RESULT_CORRECTED, entry="NO SUCH GAME", why="SAY WHY")
class ResultCorrected(Body):
    entry: str
    values: Values
    why: str
    outcome: Outcome | None = None


@kind(GAME_ANNULLED, table="NOT IN SESSION", entry="NO SUCH GAME", why="SAY WHY")
class GameAnnulled(Body):
    """A result (`entry`), or the game in hand at `table`."""
    why: str
    table: int | None = None   # with `entry`, the entry's table, checked against it
    entry: str | None = None


@kind(TABLE_CLOSED, table="NOT IN SESSION", why="SAY WHY")
class TableClosed(Body):
    """No game in hand: the session is over at that table."""
    table: int
    why: str


@kind(CALL_ANSWERED, table="NO CALL")
class CallAnswered(Body):
    table: int


@kind(RESEAT)
class Reseat(Body):
    """Followed by hub.players-moved."""
    seed: int | None = None


@kind(FINAL_COUNT)
class FinalCount(Body):
    """Every card accounted for, every game counted; in a Bergen or Tiddle-a-wink party
    followed by hub.punched (its lots drawn with `seed`, if given)."""
    seed: int | None = None


@kind(PLAY_OFF, prize="NO TIE", table="UNKNOWN TABLE")
class PlayOff(Body):
    """Followed by hub.play-off-seated."""
    prize: str
    table: int


@kind(WALK_IN, guest="BAD NAME")
class WalkIn(Body):
    """Listed and checked in at once; after the draw followed by hub.guest-placed."""
    guest: str
    similar_ok: bool | None = None


@kind(CHECK_IN_UNDONE, guest="BAD NAME", why="SAY WHY")
class CheckInUndone(Body):
    """Before the guest has a card."""
    guest: str
    why: str


@kind(ALL_CHECKED_IN)
class AllCheckedIn(Body):
    """Every listed guest not yet in, before the draw."""


@kind(GUEST_RENAMED, guest="BAD NAME", name="BAD NAME", why="SAY WHY")
class GuestRenamed(Body):
    guest: str
    name: str
    why: str
    similar_ok: bool | None = None


@kind(GUEST_REMOVED, guest="BAD NAME", why="SAY WHY")
class GuestRemoved(Body):
    """A guest who never had a card."""
    guest: str
    why: str


@kind(CARD_DRAWN, guest="BAD NAME", card="NO SUCH CARD")
class CardDrawn(Body):
    """A printed card drawn from the tray, recorded by hand (None: the record undone)."""
    guest: str
    card: str | None


@kind(TABLE_ADDED, why="SAY WHY")
class TableAdded(Body):
    """A new last table, at any time before the count."""
    why: str


@kind(TABLE_REMOVED, why="SAY WHY")
class TableRemoved(Body):
    """The last table, nobody ever seated there (one added by mistake)."""
    why: str


@kind(PARTY_CHANGED, changes="NO CHANGE", why="SAY WHY")
class PartyChanged(Body):
    changes: Values   # {setup key: value}, read by hub/conductor/setup.py
    why: str


@kind(DRAW_UNDONE, why="SAY WHY")
class DrawUndone(Body):
    """Every card back in the tray, before play begins."""
    why: str


@kind(DISPLAY_CHANGED)
class DisplayChanged(Body):
    """The projector's standings hidden for the last session's suspense, or shown."""
    standings: str   # "hidden" | "shown"


# -- the hub's own decisions (source 'hub') -------------------------------------
HUB_BELL = "hub.bell-rung"
SEATS_DRAWN = "hub.seats-drawn"
GUEST_PLACED = "hub.guest-placed"
PLAYERS_MOVED = "hub.players-moved"
PLAY_OFF_SEATED = "hub.play-off-seated"
PUNCHED = "hub.punched"

HUB_KINDS = frozenset({HUB_BELL, SEATS_DRAWN, GUEST_PLACED, PLAYERS_MOVED, PLAY_OFF_SEATED,
                       PUNCHED})


@kind(HUB_BELL)
class HubBell(Body):
    """The bell the hub rings: a table's counted results ({table, game}) or the clock ("time")."""
    meaning: str
    cause: Json
    final: bool | None = None
    by: str | None = None


@kind(SEATS_DRAWN)
class SeatsDrawn(Body):
    seed: int | None   # None: by hand, the seats follow the cards drawn from the tray
    cards: Cards
    by_hand: bool | None = None
    by: str | None = None


@kind(GUEST_PLACED)
class GuestPlaced(Body):
    """A late-comer's card and seat."""
    guest: str
    card: str
    table: int
    seat: Seat
    by: str | None = None


@kind(PLAYERS_MOVED)
class PlayersMoved(Body):
    """The next session's seats, the lots drawn and the punch-holes earned."""
    session: int
    seed: int
    seats: TablesSeats
    lots: Json
    punches: Texts
    by: str | None = None


@kind(PLAY_OFF_SEATED)
class PlayOffSeated(Body):
    prize: str
    table: int
    cards: Texts
    by: str | None = None


@kind(PUNCHED)
class Punched(Body):
    """The last session's removes, at the final count of a Bergen or Tiddle-a-wink party."""
    session: int
    seed: int
    lots: Json
    punches: Texts
    by: str | None = None
