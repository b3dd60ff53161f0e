"""What a table's guests mean to key, as they would read it on their board: each value
by the label the rules give its field (the engine's entry form, as the conductor names
it by the table's seats), shown as the board shows it ("12", a seat "B" or "NONE"); the
seat check, each seat's card as printed on it. The one simulated guest
(hardware/sim/party.py) keys from this and from the display alone."""
from __future__ import annotations

from hardware.sim.party import EMPTY, NONE, SEATS
from hub.conductor.scoring import count_form, entry_form
from hub.conductor.setup import Setup


def as_seen(fields: list[dict], values: dict[str, int]) -> dict[str, str]:
    """`values` (by field key, as the engine's played hand gives them), by label, as shown."""
    return {f["label"]: shown(f, values[f["k"]]) for f in fields if f["k"] in values}


def shown(field: dict, value: int) -> str:
    """How a board shows a keyed value (firmware/entry.py): a seat by its letter."""
    if field.get("seat"):
        return SEATS[value - 1] if value else NONE
    return str(value)


def hand_as_seen(setup: Setup, seats, values: dict[str, int], *, lead: bool = False,
                 play_off: bool = False) -> dict[str, str]:
    """A hand's entry at a table whose seats hold `seats` (with `lead`: the form asks who led)."""
    return as_seen(entry_form(setup, seats, play_off=play_off, lead=lead), values)


def count_as_seen(setup: Setup, seats, count: dict[str, int]) -> dict[str, str]:
    """A count made in play ({"seat": 2, "header": 3}: "MADE BY" B, "HEADER" 3)."""
    return as_seen(count_form(setup, seats) or [], count)


def seats_as_seen(seats) -> dict[str, str]:
    """The seat check as a table's guests mean it: each seat's card as printed on it (a
    card's name is its print in short: "2C", "W1A", a spare "2C/2"), EMPTY where nobody sits."""
    return {x: card or EMPTY for x, card in zip(SEATS, seats)}
