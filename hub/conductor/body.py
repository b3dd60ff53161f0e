"""How a kind's body is declared, read and spelled: the machinery behind the kinds'
values (hub/conductor/events.py lists the book's kinds; a kind added later may declare its
body beside its check and fold, hub/conductor/kinds/).

Each kind is one frozen value, its body's fields in the domain's words, registered under
its kind by `kind` (`BODIES`: kind -> class, as python-chess keeps its variants; its
reader in hub.event.READERS). A body is read once, at the journal's edge (hub.event's
`what`); a malformed one is a `Refusal` with a reason the table's display can show.
`Body.to_json()` is the body as the journal stores it (JSON, docs/journal.md).
"""
from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, NamedTuple

from hub.event import READERS, read_body
from hub.refusal import Refusal
from hub.speed import compiled, fields_getter, slot_maker, slots_set

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
        cls.make = staticmethod(slot_maker(cls))
        cls.field_values = fields_getter(cls)
        if "read" in cls.__dict__:   # a kind may read its body itself (PartyCreated)
            cls.read = staticmethod(_an_object_first(kind_, cls.__dict__["read"]))
        else:
            cls.read = staticmethod(_reader(cls, reasons))
        BODIES[kind_] = cls
        READERS[kind_] = cls.read
        return cls
    return register


read = read_body   # `body` (JSON, as sent or as journaled) as its kind's value, or Refusal


def _an_object_first(kind_: str, read_it: Callable[[Mapping], Body]) -> Callable[[Any], Body]:
    """A kind's own reader, given only an object (as `_reader`'s check it first)."""
    def read_object(body):
        if type(body) is not dict and not isinstance(body, FrozenMap):
            raise Refusal(BAD, f"{kind_}: the body is not an object")
        return read_it(body)
    return read_object


def _reader(cls, reasons: dict) -> Callable[[Mapping], Body]:
    """The function that reads a body of `cls` from JSON, written out field by field as
    `dataclass` writes `__init__`, compiled once (hub/speed.py says why), and making the value
    as `slot_maker` does, in its own lines (`slots_set`: the fold reads every event of a
    journal once, at start-up; the figures are in docs/performance.md). A field annotated
    `X | None` may be null; one with a default may be left out (None). What is not an
    object is refused first."""
    env = {"ABSENT": _ABSENT, "Refusal": Refusal, "FrozenMap": FrozenMap, "frozen": frozen, "EMPTY": EMPTY,
           "SEATS": SEATS, "SEAT_SET": _SEATS, "INT": _INT, "CONTAINERS": _CONTAINERS,   # _INLINE's
           "Outcome": Outcome, "tuple_new": tuple.__new__, "reasons": reasons, "BAD": BAD, "kind": cls.KIND}
    code, args = ["def read(body):",
                  "    if type(body) is not dict and not isinstance(body, FrozenMap):",
                  "        raise Refusal(BAD, f'{kind}: the body is not an object')",
                  "    f = v = None", "    try:"], []
    for i, f in enumerate(dataclasses.fields(cls)):
        base = f.type.removesuffix(" | None")
        nullable, required = base != f.type, f.default is dataclasses.MISSING
        if base not in _INLINE:
            env[f"r{i}"] = _READ[base]
        if required:   # a subscript, not a call: a missing field is the KeyError caught below
            code.append(f"        f = {f.name!r}; v = body[f]")
        else:
            code.append(f"        f, v = {f.name!r}, body.get({f.name!r}, ABSENT)")
        read_it = f"r{i}(v)" if base not in _EXACT else "v"
        if base in _INLINE:   # the shape's check in the reader's own lines: a call less a field
            check, read_it = _INLINE[base]
            code.append(f"        if v is not None and v is not ABSENT:{check}" if nullable or not required
                        else textwrap.indent(textwrap.dedent(check).strip(), " " * 8))
        elif base in _EXACT:
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
    code += ["    except KeyError:",
             "        if f in body: raise   # not the field missing: a reader's own bug, not the sender's",
             "        raise Refusal(reasons.get(f, BAD), f'{kind}: no {f!r}') from None",
             "    except (TypeError, ValueError) as e:",
             "        raise Refusal(reasons.get(f, BAD), f'{kind}: {f} {v!r}: {e}') from None",
             *slots_set(cls, env), "    return value"]
    return compiled("\n".join(code), "read", env)


_ABSENT = object()
_EXACT = {"int": "a whole number", "str": "a text", "bool": "true or false"}   # JSON's own types


# -- the shapes a field takes: read from JSON, spelled back to it -----------------------

def _is_object(v) -> bool:
    return type(v) is dict or isinstance(v, FrozenMap)


_CONTAINERS = frozenset({dict, list, tuple, FrozenMap})
_INT = frozenset({int})   # each value's type in it, by map(type, ...): no Python frame per value (a result read)


# The shapes read in the reader's own lines (`_reader`), not by a call: a seat (a
# confirmation's), a table's keyed values and outcome (a result's) and the card numbers by
# seat (a seat check's), one each per row read.
# Shape -> (the check, raising as a reader in _READ would; the value read from `v`).
_INLINE = {
    "Seat": ("""
            if v not in SEATS: raise ValueError('not a seat')""", "v"),
    "Values": ("""
            if type(v) is not dict and not isinstance(v, FrozenMap): raise TypeError('not an object')""",
               # a table's keyed values: flat, one copy
               "FrozenMap(v) if CONTAINERS.isdisjoint(map(type, v.values())) else frozen(v)"),
    # {seat: card number} keyed at a seat check (0: the seat is empty)
    "SeatNumbers": ("""
            if type(v) is not dict and not isinstance(v, FrozenMap) or not v.keys() <= SEAT_SET:
                raise TypeError('not card numbers by seat')
            if not INT.issuperset(map(type, v.values())) or min(v.values(), default=0) < 0:
                raise ValueError('not card numbers')""", "FrozenMap(v)"),
    # an outcome as journaled (`Outcome`): made as Outcome(...) makes it, without the named
    # tuple's `__new__` (a Python lambda)
    "Outcome": ("""
            if type(v) is not dict and not isinstance(v, FrozenMap): raise TypeError('not an outcome')
            try:
                points, winners = v['points'], v['winners']
            except KeyError as e:
                raise ValueError(f'not an outcome: {e}') from None
            if (type(points) is not dict and not isinstance(points, FrozenMap)) or not points.keys() <= SEAT_SET \\
                    or not INT.issuperset(map(type, points.values())) \\
                    or type(winners) not in (list, tuple) or not SEAT_SET.issuperset(winners):
                raise ValueError(f'not an outcome: {v!r}')
            tally = v.get('tally')""",
                "tuple_new(Outcome, (FrozenMap(points), tuple(winners), bool(v.get('blocked', False)), "
                "frozen(tally) if tally else EMPTY))"),
}


def _texts(v) -> tuple:
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
        raise TypeError("not a list of texts")
    return tuple(v)


def _cards(v) -> FrozenMap:
    """{guest: card}: the cards drawn."""
    if not _is_object(v) or {type(c) for c in v.values()} - {str}:
        raise TypeError("not the cards of the guests")
    return FrozenMap(v)


def _tables_seats(v) -> FrozenMap:
    """{table: [card | null] * 4}, the table's number spelled as text in JSON."""
    if not _is_object(v):
        raise TypeError("not seats by table")
    return FrozenMap((int(n), tuple(row)) for n, row in v.items())


class Outcome(NamedTuple):
    """What the scoring engine made of a result's values, in the table's seats: recorded
    with the result, read back on replay (docs/journal.md). A named tuple, not a dataclass:
    one is made per result read (docs/performance.md)."""
    points: FrozenMap      # seat -> the form's measure won
    winners: tuple         # seats
    blocked: bool
    tally: FrozenMap

    @property
    def gains(self) -> tuple:
        """The points of seats A-D, 0 where none."""
        get = self.points.get
        return get("A", 0), get("B", 0), get("C", 0), get("D", 0)

    def to_json(self) -> dict:
        # the tally most often empty
        return {"points": dict(self.points), "winners": list(self.winners),
                "blocked": self.blocked, "tally": thawed(self.tally) if self.tally else {}}


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
    "Json": frozen, "Cards": _cards, "TablesSeats": _tables_seats, "Texts": _texts,
}
_SPELL = {
    "Json": thawed, "Values": thawed, "Cards": dict, "SeatNumbers": dict, "Texts": list,
    "TablesSeats": lambda v: {str(n): list(row) for n, row in sorted(v.items())},
    "Outcome | None": Outcome.to_json,
}
Seat = str
