"""Guests' names as the door hears them: "Ann Lee", "ann lee" and "Ann  Lee" are one
person until the host says otherwise (a near-duplicate is flagged before it is added)."""
from __future__ import annotations

import re

from .frozen import FrozenMap

# Control characters (C0, DEL, C1) and the line and paragraph separators: a NUL, a tab, a
# line break in a name cuts it short or breaks its line on a board, a card, the projector,
# the CSV. Format characters (a joiner, a direction mark) are left to the screens, which
# isolate each name (issue 23).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def control_in(name: str) -> tuple[int, str] | None:
    """(where, which) of the first control character in `name`, if any."""
    found = _CONTROL.search(name)
    return (found.start(), found.group()) if found else None


def normal(name: str) -> str:
    """The name with case and spacing set aside."""
    return " ".join(name.split()).casefold()


def similar(index: FrozenMap, name: str, besides: str | None = None) -> str | None:
    """The listed name `name` is a near-duplicate of (other than `besides`), if any.
    `index` is the party's (PartyState.names): one look-up, not every listed name
    normalised again for each new one (quadratic in the list at the audit)."""
    return next((other for other in index.get(normal(name), ()) if other != besides), None)


def indexed(index: FrozenMap, name: str) -> FrozenMap:
    """`index` with `name` listed (after any listed name of the same normal form)."""
    n = normal(name)
    return index.set(n, index.get(n, ()) + (name,))


def unindexed(index: FrozenMap, name: str) -> FrozenMap:
    """`index` with `name` off the list."""
    n = normal(name)
    return index.set(n, tuple(other for other in index.get(n, ()) if other != name))
