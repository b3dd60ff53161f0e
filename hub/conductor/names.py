"""Guests' names as the door hears them: "Ann Lee", "ann lee" and "Ann  Lee" are one
person until the host says otherwise (a near-duplicate is flagged before it is added)."""
from __future__ import annotations


def normal(name: str) -> str:
    """The name with case and spacing set aside."""
    return " ".join(name.split()).casefold()


def similar(names, name: str, besides: str | None = None) -> str | None:
    """The listed name `name` is a near-duplicate of (other than `besides`), if any."""
    n = normal(name)
    return next((other for other in names if other != besides and normal(other) == n), None)
