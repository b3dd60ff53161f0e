"""The host sees, in the console's guest list, how each name will look on a table's board
(hub/conductor/on_board.py: the font has printable ASCII only), and which names would
come out empty or the same as another's at a table, in time to rename them (issue 22)."""
from __future__ import annotations

import pytest

from hub.conductor import events as ev

from .conftest import submit
from .test_console_browser import sign_in_page
from .test_door_browser import door, flash, row

pytestmark = pytest.mark.broker
SHOTS = "/tmp/door-shots"
GUESTS = ["Ann Lee", "Ольга Петрова", "李雷", "José Núñez", "Bob Ray", "Cora Fox", "Jose Nunez"]   # and Zoë: 8


def board_cell(page, guest: str) -> str:
    return row(page, guest).locator("td.board").inner_text()


def flagged(page) -> set[str]:
    return {r.get_attribute("data-guest") for r in page.locator("#guests tbody tr").all()
            if r.locator("[data-board-flag]").count()}


def test_the_guest_list_shows_each_name_as_a_board_will_and_flags_what_it_cannot_tell_apart(hub, server, page):
    submit(hub, ev.PARTY_CREATED, {"form": "draw", "tables": 2})
    for name in GUESTS[:-1]:
        submit(hub, ev.GUEST_LISTED, {"guest": name})
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    door(page, "list-guest", guest="Zoë Łukasz")            # as the host types them at the door
    assert "done" in flash(page)
    door(page, "list-guest", guest=GUESTS[-1])
    assert "done" in flash(page)

    assert board_cell(page, "Zoë Łukasz") == "ZOE LUKASZ"
    assert board_cell(page, "Ольга Петрова") == "OLGA PETROVA"
    assert board_cell(page, "李雷") == "LI LEI"
    assert board_cell(page, "Ann Lee") == "ANN LEE"
    # before the draw any two guests may sit at one table: the two Joses cannot be told apart
    assert flagged(page) == {"José Núñez", "Jose Nunez"}
    assert "Jose Nunez's" in board_cell(page, "José Núñez")
    page.screenshot(path=f"{SHOTS}/names-on-board-before-draw.png", full_page=True)

    door(page, "list-guest", guest="\U0001f600")            # a name of a symbol alone
    assert "done" in flash(page)
    assert "nothing" in board_cell(page, "\U0001f600")
    assert flagged(page) == {"José Núñez", "Jose Nunez", "\U0001f600"}

    for name in GUESTS + ["Zoë Łukasz"]:
        submit(hub, ev.CHECKED_IN, {"guest": name})
    submit(hub, ev.DRAW_SEATS, {"seed": 1896})
    page.goto(server.url + "console/guests")
    # once seated, a clash matters only at the same table
    tables = {name: row(page, name).locator("td").nth(3).inner_text().split(" ")[1]
              for name in ("José Núñez", "Jose Nunez")}
    together = tables["José Núñez"] == tables["Jose Nunez"]
    assert flagged(page) == ({"José Núñez", "Jose Nunez"} if together else set()) | {"\U0001f600"}
    page.screenshot(path=f"{SHOTS}/names-on-board-seated.png", full_page=True)
