"""The smaller frictions of issue 23, each walked in headless Chromium as the host meets it.

Issue 23: "a Bergen party's punch-holes read 0 for everyone on the projector and in
/standings.json from the moment a table reaches ten until the host presses 'Move the
players'", "the correction screen shows and asks for internal names", "the final count
is taken with no question while a table has 0 of 4 games of the last session keyed",
"the plan from replies counts a duplicate reply", "one name with a right-to-left override
reverses the next guest's name", "printed table markers whose QR codes point at
127.0.0.1 carry no warning on paper", "reloading the phone keypad mid-entry loses the
keys pressed", "a resubmitted correction says 'SAVED'", "on a 1024×768 projector the
tiles' '0/4' is 12 px high, and names sharing a long prefix are cut to the same text".
"""
from __future__ import annotations

import json
import urllib.request
import uuid

import pytest

from hub.conductor import events as ev
from hub.event import Proposal
from party.hands import bergen_hand, tiddle_hand

from .conftest import make_party

pytestmark = pytest.mark.broker


def keyed(hub, table: int, values: dict, game: int | None = None):
    """A result as the table's board sends it (hub.submit, the edge's own path)."""
    t = hub.state.session.tables[table]
    body = {"table": table, "board": f"sim-{table}", "game": game or t.entered + 1, "values": values}
    return hub.submit(Proposal(f"sim-{table}.{uuid.uuid4().hex[:12]}", f"table:{table}", ev.RESULT, body))


def standings_json(server) -> dict:
    with urllib.request.urlopen(server.url + "standings.json", timeout=5) as r:
        return json.load(r)


# ----- 1. punch-holes as the points are made ---------------------------------------------------
@pytest.mark.parametrize("form, hand, to_ten", [("bergen", bergen_hand, 3), ("tiddle-a-wink", tiddle_hand, 7)])
def test_punch_holes_show_from_the_moment_the_points_are_made(hub, server, page, tmp_path, form, hand, to_ten):
    """BERGEN GAME, the party (000_ff8a6ed40036e836.txt): "Ten points made at any table ends a
    session ... The partners having won the greatest number of points at that moment get each
    a punch hole in their score-cards"; TIDDLE-A-WINK: "Ten points made in partnership at any
    table ends a session ... For every 'remove' the players get a punch-hole". The room sees
    who holds the session's punch-holes as the points are made, and at the bell, not only
    once the host has moved the players."""
    make_party(hub, 2, form=form)
    page.goto(server.url)
    page.wait_for_selector("#left-list li")
    t1 = hub.state.session.tables[1]
    a, c = (hub.state.holders[t1.seats[i]] for i in (0, 2))
    assert keyed(hub, 1, hand("A", 2)).ok                       # A+C ahead at Table 1
    leaders = {p["name"]: p["total"] for p in standings_json(server)["standings"]["leaders"]}
    assert leaders[a] == leaders[c] == 1 and sum(leaders.values()) == 2, leaders
    row = page.locator("#left-list li", has_text=a)
    row.locator(".total", has_text="1").wait_for(timeout=5000)
    assert keyed(hub, 1, hand("C", to_ten)).ok                      # ten made: the bell
    assert hub.state.session.bell is not None
    leaders = {p["name"]: p["total"] for p in standings_json(server)["standings"]["leaders"]}
    assert leaders[a] == leaders[c] == 1 and sum(leaders.values()) == 2, leaders
    page.wait_for_function("document.getElementById('state').dataset.state === 'stopped'", timeout=5000)
    assert page.locator("#left-list li", has_text=c).locator(".total").inner_text() == "1"
    page.screenshot(path=str(tmp_path / f"punch-holes-{form}.png"))
