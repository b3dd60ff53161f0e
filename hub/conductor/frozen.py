"""An immutable mapping for the conductor's state values.

Python has no built-in frozen dict; the state must not be mutated in place, so
every change returns a new map (a copy of at most a few hundred entries: tables,
guests, staff), leaving the old state intact for replay comparisons.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(dict):
    """A dict that cannot be changed: its look-ups are the dict's own, in C (the judge, the
    fold, the engine and the screens read a result's values and the party's tables about
    ten times per result); every mutator refuses. Equal to a dict with the same items."""

    __slots__ = ()

    def _refused(self, *args, **kwargs):
        raise TypeError("a FrozenMap cannot be changed: `set` returns a new one")

    __setitem__ = __delitem__ = __ior__ = _refused
    update = pop = popitem = clear = setdefault = _refused

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"

    def __reduce__(self):
        # pickle and copy would rebuild it item by item through the refused __setitem__
        return FrozenMap, (dict(self),)

    def set(self, key: K, value: V) -> "FrozenMap[K, V]":
        new = FrozenMap(self)
        dict.__setitem__(new, key, value)
        return new


EMPTY: FrozenMap = FrozenMap()

_NONE = object()   # a key the draft did not hold


class Draft(FrozenMap):
    """A session's map of tables while a replay folds it (`fold.replay`), nobody else holding
    it: `set` puts the table in place and returns the same map, instead of copying every
    table per event (a quarter of a replay's instructions, docs/performance.md section 4).
    Each change is logged in `changes` (the map, the key, what it held), for the replay to put
    back where a step fails half-way; the replay freezes it (`FrozenMap(draft)`) before anyone
    sees its state. Read, it is a FrozenMap like any other."""

    __slots__ = ("changes",)

    def __init__(self, items, changes: list):
        dict.__init__(self, items)
        self.changes = changes

    def set(self, key: K, value: V) -> "Draft[K, V]":
        self.changes.append((self, key, dict.get(self, key, _NONE)))
        dict.__setitem__(self, key, value)
        return self


def undo(changes: list) -> None:
    """The drafts as they were before `changes` (logged by `Draft.set`), the last undone first."""
    for draft, key, was in reversed(changes):
        if was is _NONE:
            dict.__delitem__(draft, key)
        else:
            dict.__setitem__(draft, key, was)
    changes.clear()


def frozen(value):
    """A JSON value as an immutable, hashable one: objects as FrozenMap, arrays as tuples."""
    if isinstance(value, Mapping):
        return FrozenMap((k, frozen(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    return value


def thawed(value):
    """`frozen`'s value as JSON again (dicts and lists), for an event's body."""
    if isinstance(value, Mapping):
        return {k: thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thawed(v) for v in value]
    return value
