"""An immutable mapping for the conductor's state values.

Python has no built-in frozen dict; the state must not be mutated in place, so
every change returns a new map (a copy of at most a few hundred entries: tables,
guests, staff), leaving the old state intact for replay comparisons.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Iterator, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    __slots__ = ("_d",)

    def __init__(self, items=()):
        self._d = dict(items)

    def __getitem__(self, key: K) -> V:
        return self._d[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    # Mapping's own get, `in`, keys, items and values go through __getitem__ key by key (a
    # miss raising KeyError inside): the dict's, which cannot change it, in C. The judge and
    # the fold ask them of every result's values and of the party's tables.
    def __contains__(self, key) -> bool:
        return key in self._d

    def get(self, key, default=None):
        return self._d.get(key, default)

    def keys(self):
        return self._d.keys()

    def items(self):
        return self._d.items()

    def values(self):
        return self._d.values()

    def __eq__(self, other) -> bool:
        # two FrozenMaps compare their dicts in C (Mapping's copies both into new dicts first):
        # the audit compares every journaled outcome and decision with the judge's
        if type(other) is FrozenMap:
            return self._d == other._d
        return self._d == other if isinstance(other, dict) else Mapping.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(frozenset(self._d.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._d!r})"

    def set(self, key: K, value: V) -> "FrozenMap[K, V]":
        d = self._d.copy()
        d[key] = value
        new = FrozenMap.__new__(FrozenMap)
        new._d = d
        return new


EMPTY: FrozenMap = FrozenMap()


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
