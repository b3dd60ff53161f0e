"""An immutable mapping for the conductor's state values.

Python has no built-in frozen dict; the state must not be mutated in place, so
every change returns a new map (a copy of at most a few hundred entries: tables,
guests, staff), leaving the old state intact for replay comparisons.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from hub.speed import UNSET, drafted, restored

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

class Draft(FrozenMap):
    """A session's map of tables while a replay folds it (`fold.replay`), nobody else holding
    it: `set` puts the table in place and returns the same map, instead of copying every
    table per event (a quarter of a replay's instructions, docs/performance.md section 4).
    Each change is logged in `changes` (the map, the key, what it held), for the replay to put
    back where a step fails half-way; the replay freezes it (`FrozenMap(draft)`) before anyone
    sees its state. Read, it is a FrozenMap like any other.

    A table it takes is marked as its own (`hub.speed.drafted`): changed in place from then on
    (`TableSession.with_entry`, `with_mended`, `noted` through `hub.speed.changed`, logged in
    the same `changes`), and put back by the step (`set` of the same table) with nothing to do."""

    __slots__ = ("changes",)

    def __init__(self, items, changes: list):
        dict.__init__(self, items)
        self.changes = changes

    def set(self, key: K, value: V) -> "Draft[K, V]":
        was = dict.get(self, key, UNSET)
        if was is not value:   # else changed in place: logged as it was changed
            self.changes.append((self, key, was))
            dict.__setitem__(self, key, value)
            drafted(value, self.changes)
        return self

    def frozen(self) -> FrozenMap:
        """This draft's tables as a FrozenMap, each no longer the replay's (its mark taken off)."""
        for value in self.values():
            drafted(value, None)
        return FrozenMap(self)


def undo(changes: list) -> None:
    """The drafts and the tables they hold as they were before `changes` (logged by `Draft.set`
    and `hub.speed.changed`: a map, a key, what it held; or a table, None, what it held), the
    last undone first."""
    for held, key, was in reversed(changes):
        if type(held) is not Draft:
            restored(held, was)
        elif was is UNSET:
            dict.__delitem__(held, key)
        else:
            dict.__setitem__(held, key, was)
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
