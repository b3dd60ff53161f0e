"""A phone keypad's page (web/keypad.py): what its table's board would show."""
from __future__ import annotations

from hub import conductor
from hub.conductor.screens import screen as table_screen


def screen(state, table: int) -> dict:
    """What the table's board is told to show (its retained screen), for its phone keypad."""
    return table_screen(state, table) if table in conductor.tables(state) else {}
