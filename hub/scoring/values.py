"""The small values the engine hands out: rules of a game, the entry form a table keys in,
a refusal, a move, a hand's outcome and a played hand."""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, Callable

from hub.derived import derived
from hub.refusal import Refusal

SEATS = ("A", "B", "C", "D")  # Grimm: B left of A, C opposite A, D right of A
SIDES = ("AC", "BD")          # partners sit opposite (Texas 42, Pell's Match, Grimm's sides)
_ABSENT = object()


def seats_for(players: int) -> tuple[str, ...]:
    """Seat names in order of play; beyond four (Tiddle-a-wink, Matador) E, F, ... follow D."""
    return tuple("ABCDEFGHIJ"[:players])


def side_of(seat: str) -> str:
    return SIDES[0] if seat in SIDES[0] else SIDES[1]


@dataclass(frozen=True)
class Rules:
    """What a table plays: the form, the book's variant, the players, the set, agreed options."""

    form: str
    variant: str
    players: int
    tile_set: str
    options: tuple[tuple[str, Any], ...] = ()

    def option(self, name: str, default=None):
        return dict(self.options).get(name, default)

    @property
    def seats(self) -> tuple[str, ...]:
        return seats_for(self.players)


@dataclass(frozen=True)
class Field:
    """One keyed number. A seat field is keyed A-D and sent as 1-4 (0 = none)."""

    k: str
    label: str
    min: int
    max: int
    seat: bool = False
    refuse: str = ""   # the refusal for a value out of range, when the book has words for it
    # (k, values): asked only while field k holds one of `values`; otherwise the value follows
    # from field k, is not keyed and counts as 0 (the spots of the seat that went out; what
    # only a comparison of hands needs, after a domino)
    when: tuple = ()
    # the fields of a form with the same `total` hold at most that many together (all the
    # seats' spots, pieces, doubles played): checked on the board as each is keyed, as the
    # form's checks do at the hub (0: no such total)
    total: int = 0

    def __post_init__(self):
        if len(self.label) > 16:
            raise AssertionError(f"label longer than 16: {self.label!r}")

    def to_json(self) -> dict:
        d = {"k": self.k, "label": self.label, "min": self.min, "max": self.max}
        if self.seat:
            d["seat"] = True
        if self.when:
            d["when"] = [self.when[0], list(self.when[1])]
        if self.total:
            d["sum"] = self.total
        return d

    def asked(self, values: dict) -> bool:
        return not self.when or values.get(self.when[0]) in self.when[1]


@dataclass(frozen=True)
class EntryForm:
    """The fields a table keys, in order, and the checks across fields (`checks`): each check
    is a pure function of the values keyed so far that raises `Refusal` when they cannot be
    true together, and looks only at the keys present, so that a board or a phone can check
    each field as it is keyed (`check_partial`)."""

    title: str
    fields: tuple[Field, ...]
    checks: tuple[Callable[[dict[str, int]], None], ...] = ()

    def to_json(self) -> list[dict]:
        """Exactly the protocol's `form.fields` (docs/protocol.md, screen)."""
        return [f.to_json() for f in self.fields]

    def field(self, k: str) -> Field:
        for f in self.fields:
            if f.k == k:
                return f
        raise KeyError(k)

    def check(self, values: dict) -> dict[str, int]:
        """Refuse missing, unknown, out-of-range or impossible keys; return the values as ints."""
        return self._checked(values, whole=True)

    def check_partial(self, values: dict) -> dict[str, int]:
        """The values keyed so far (any of the fields) checked as `check` checks a whole entry:
        the first field out of its range, or the first check across fields that they fail."""
        return self._checked(values, whole=False)

    @derived
    def _known(self) -> frozenset[str]:
        """The fields' keys: asked for every entry checked, made once per form."""
        return frozenset(f.k for f in self.fields)

    @derived
    def _ranges(self) -> tuple[tuple[str, int, int, Field], ...]:
        """(key, min, max, field) of each field: read once per form, not per entry checked."""
        return tuple((f.k, f.min, f.max, f) for f in self.fields)

    def _checked(self, values: dict, whole: bool) -> dict[str, int]:
        if not self._known.issuperset(values):
            raise Refusal("UNKNOWN FIELD")
        out, follows = {}, []
        for k, low, high, f in self._ranges:
            v = values.get(k, _ABSENT)
            if v is _ABSENT:
                if not f.asked(values):
                    follows.append(k)   # not asked, so not keyed: 0 once the checks are made
                elif whole:
                    raise Refusal(f"MISSING {f.label}")
                continue
            if type(v) is not int and (not isinstance(v, int) or isinstance(v, bool)):
                raise Refusal("NOT A NUMBER")
            if not low <= v <= high:
                text = f.refuse or f"{f.label} {f.min}-{f.max}"
                raise Refusal(text if len(text) <= 16 else "OUT OF RANGE")
            out[k] = v
        for check in self.checks:
            check(out)
        return {**out, **dict.fromkeys(follows, 0)} if whole else out


class Counts(Mapping):
    """Points or tallies by name: a mapping that cannot be changed and can be hashed, so that
    a hand's outcome is a value (equal to a dict with the same items)."""

    __slots__ = ("_items",)

    def __init__(self, items=()):
        self._items = dict(items)

    def __getitem__(self, k):
        return self._items[k]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    # the dict's own look-ups, in C (Mapping's go through __getitem__ key by key)
    def __contains__(self, k):
        return k in self._items

    def get(self, k, default=None):
        return self._items.get(k, default)

    def keys(self):
        return self._items.keys()

    def items(self):
        return self._items.items()

    def values(self):
        return self._items.values()

    def __hash__(self):
        return hash(frozenset(self._items.items()))

    def __repr__(self):
        return repr(self._items)


@dataclass(frozen=True)
class HandOutcome:
    """What one hand gave. `points` per seat (in partnership forms each partner is credited the
    side's points, as Grimm's sides "win conjointly"); `side_points` per side or None; `winners`
    the seats that won the hand; `tally` what a party form also records (Bergen's headers,
    Sebastopol's game won, quarters and sixteenths...)."""

    points: Mapping[str, int]
    winners: tuple[str, ...] = ()
    blocked: bool = False
    side_points: Mapping[str, int] | None = None
    tally: Mapping[str, int] = Counts()

    def __post_init__(self):
        # a Counts is kept as it is (it cannot change): the tally is most often the empty default
        for name in ("points", "tally", "side_points"):
            value = getattr(self, name)
            if type(value) is not Counts and value is not None:
                object.__setattr__(self, name, Counts(value))
        if type(self.winners) is not tuple:
            object.__setattr__(self, "winners", tuple(self.winners))


@dataclass(frozen=True)
class Move:
    """One step of a hand: `action` is lead, play, draw, pass, bid, trump or declare. For a
    tile laid in a line `end` and `exposed` say where it went; for a bid `exposed` is the bid,
    for trump the trump number; `scored` is what the move counted in play."""

    seat: str
    action: str
    tile: Any = None
    end: int | None = None
    exposed: int | None = None
    scored: int = 0


@dataclass(frozen=True)
class PlayedHand:
    """A whole hand played by the engine's players, with what the table would key in."""

    rules: Rules
    moves: tuple[Move, ...]
    outcome: HandOutcome
    values: dict[str, int]
    hands: dict[str, tuple] = field(default_factory=dict)   # tiles left with each seat
    stock: tuple = ()                                       # tiles never drawn
    dealt: dict[str, tuple] = field(default_factory=dict)   # the deal, for checking
    # with the option in_play="each": each count made in play, as keyed on `play_entry_form`
    play_values: tuple[dict[str, int], ...] = ()
