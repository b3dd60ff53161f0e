"""The host's set-up steps from the command line (`party run --tables`, `party demo`).

Each step is a staff action submitted to the hub like any console action, so
it is judged and journaled the same way and recorded under the host's login.
"""
from __future__ import annotations

import uuid

from hub.conductor import events as k
from hub.event import Proposal, Verdict

HOST = "host"

_FIRST = ("Ann", "Bertha", "Clara", "Dora", "Edith", "Flora", "Grace", "Hattie", "Ida", "Jennie",
          "Albert", "Ben", "Carl", "David", "Ernest", "Frank", "George", "Henry", "Isaac", "John",
          "Kate", "Lucy", "Mabel", "Nellie", "Olive", "Pearl", "Rose", "Sarah", "Tillie", "Vera",
          "Karl", "Louis", "Martin", "Nathan", "Oscar", "Paul", "Ralph", "Samuel", "Thomas", "Walter")
_LAST = ("Lee", "Grimm", "Parker", "Bradley", "Pell", "Tandy", "Brown", "Clark", "Davis", "Evans",
         "Fisher", "Gray", "Hill", "King", "Moore", "Nash", "Price", "Reed", "Stone", "Young")


def staff_action(hub, kind: str, body: dict, login: str = HOST) -> Verdict:
    return hub.submit(Proposal(f"staff-{login}-{uuid.uuid4().hex}", f"staff:{login}", kind, body))


def create_party(hub, *, tables: int, form: str, login: str = HOST, **setup) -> Verdict:
    return staff_action(hub, k.PARTY_CREATED, {"form": form, "tables": tables, **setup}, login)


def guest_names(count: int) -> list[str]:
    """Distinct made-up guests, the same every time (for demos and tests)."""
    if count > len(_FIRST) * len(_LAST):
        raise ValueError(f"at most {len(_FIRST) * len(_LAST)} made-up guests")
    n, m = len(_FIRST), len(_LAST)
    # i -> (first i mod n, last (i + i div n) mod m): distinct for every i < n * m
    # (n a multiple of m), and neighbours at a table do not share a surname.
    return [f"{_FIRST[i % n]} {_LAST[(i + i // n) % m]}" for i in range(count)]


def seat_guests(hub, names: list[str], seed: int, login: str = HOST) -> Verdict:
    """List and check in every guest, then draw the score-cards."""
    for name in names:
        for kind in (k.GUEST_LISTED, k.CHECKED_IN):
            verdict = staff_action(hub, kind, {"guest": name}, login)
            if not verdict.ok:
                return verdict
    return staff_action(hub, k.DRAW_SEATS, {"seed": seed}, login)


def start_session(hub, number: int, login: str = HOST) -> Verdict:
    return staff_action(hub, k.SESSION_STARTED, {"session": number}, login)
