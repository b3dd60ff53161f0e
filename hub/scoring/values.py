"""The small values the engine hands out: rules of a game, the entry form a table keys in,
a refusal, a move, a hand's outcome and a played hand."""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from types import FunctionType
from typing import Any, Callable

from hub.speed import compiled, derived, derived_by_setattr, fill
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

    def __hash__(self) -> int:
        # Asked on every look-up of the caches keyed by the rules (a hand's settling, checks,
        # entry form): the options, a tuple of pairs, were hashed pair by pair each time.
        # Equal rules have the same form, variant and players, so this hash is sound.
        return hash((self.form, self.variant, self.players))

    def option(self, name: str, default=None):
        return self._options.get(name, default)

    # Each answer below is kept as a field is (`derived_by_setattr`): a write to the rules'
    # `__dict__` would make every later read of its fields the slow one, and they are read
    # a dozen times a hand scored (its hash, the seats, the players).
    @derived_by_setattr   # asked up to a dozen times a hand (Bergen's headers): made once per rules
    def _options(self) -> dict[str, Any]:
        return dict(self.options)

    @derived_by_setattr   # asked several times for every hand scored: spelled once per rules
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
        return self.checker(whole=True)(values)

    def check_partial(self, values: dict) -> dict[str, int]:
        """The values keyed so far (any of the fields) checked as `check` checks a whole entry:
        the first field out of its range, or the first check across fields that they fail."""
        return self.checker(whole=False)(values)

    def checker(self, whole: bool) -> Callable[[dict], dict[str, int]]:
        """`check` (`whole`) or `check_partial` as one function of the values, written out
        field by field for this form: a caller that checks many entries of one form (the
        conductor, once per seating) keeps it."""
        return self._checkers[whole]

    @derived
    def _checkers(self) -> tuple[Callable, Callable]:
        return _checker(self, whole=False), _checker(self, whole=True)


def _checker(form: EntryForm, whole: bool) -> Callable[[dict], dict[str, int]]:
    """The function that checks an entry of `form`, each field's key, range and `when`
    written out as constants (as hub/conductor/body.py writes a body's reader), in the
    fields' order, then the checks across fields: the first field out of its range, a field
    missing (`whole`) or the first check they fail refuses. A field not asked (its `when`)
    and not keyed follows as 0 once the checks are made. A loop over the fields reading
    each one's attributes was a tenth of a result's scoring at the hub."""
    env = {"Refusal": Refusal, "ABSENT": _ABSENT, "known": frozenset(f.k for f in form.fields),
           # a whole entry that passes holds every field but those not asked: they are 0
           "ZEROS": dict.fromkeys((f.k for f in form.fields), 0)}
    code = ["def checked(values):",
            "    if not known.issuperset(values):",
            "        raise Refusal('UNKNOWN FIELD')",
            "    out, get = {}, values.get"]
    for i, f in enumerate(form.fields):
        text = f.refuse or f"{f.label} {f.min}-{f.max}"
        env[f"missing{i}"] = f"MISSING {f.label}"
        env[f"range{i}"] = text if len(text) <= 16 else "OUT OF RANGE"
        code += [f"    v = get({f.k!r}, ABSENT)",
                 "    if v is ABSENT:"]
        if f.when and whole:
            env[f"on{i}"], env[f"asked{i}"] = f.when
            code += [f"        if get(on{i}) in asked{i}:   # asked, so keyed",
                     f"            raise Refusal(missing{i})"]
        elif whole:
            code.append(f"        raise Refusal(missing{i})")
        else:
            code.append("        pass")
        code += ["    else:",
                 "        if type(v) is not int and (not isinstance(v, int) or isinstance(v, bool)):",
                 "            raise Refusal('NOT A NUMBER')",
                 f"        if not {f.min!r} <= v <= {f.max!r}:",
                 f"            raise Refusal(range{i})",
                 f"        out[{f.k!r}] = v"]
    for j, check in enumerate(form.checks):
        # a check that is a value with `__call__` (HandBounds) called as its bound method: a
        # value's call goes through its type's slot, a look-up more every entry checked
        env[f"c{j}"] = check if isinstance(check, FunctionType) else check.__call__
        code.append(f"    c{j}(out)")
    code.append("    return ZEROS | out" if whole else "    return out")
    return compiled("\n".join(code), "checked", env)


class Counts(dict):
    """Points or tallies by name: a mapping that cannot be changed and can be hashed, so that
    a hand's outcome is a value (equal to a dict with the same items). A dict, so that it is
    made, read and copied in C (one or two a hand scored; the conductor copies its points
    into its own record of the result); every mutator refuses."""

    __slots__ = ()

    def _refused(self, *args, **kwargs):
        raise TypeError("Counts cannot be changed")

    __setitem__ = __delitem__ = __ior__ = _refused
    update = pop = popitem = clear = setdefault = _refused

    def __hash__(self):
        return hash(frozenset(self.items()))

    def __reduce__(self):
        # pickle and copy would rebuild it item by item through the refused __setitem__
        return Counts, (dict(self),)


_NO_TALLY = Counts()


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
    tally: Mapping[str, int] = _NO_TALLY

    def __init__(self, points: Mapping[str, int], winners: tuple[str, ...] = (), blocked: bool = False,
                 side_points: Mapping[str, int] | None = None, tally: Mapping[str, int] = _NO_TALLY):
        # dataclass's __init__ and a __post_init__ setting each field again through
        # object.__setattr__, at once: every hand scored makes one. A Counts is kept as it is
        # (it cannot change): the tally is most often the empty default.
        fill(self, {"points": points if type(points) is Counts else Counts(points),
                    "winners": winners if type(winners) is tuple else tuple(winners), "blocked": blocked,
                    "side_points": side_points if side_points is None or type(side_points) is Counts
                    else Counts(side_points),
                    "tally": tally if type(tally) is Counts else Counts(tally)})


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
