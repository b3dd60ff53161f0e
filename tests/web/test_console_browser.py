"""The conductor's console in headless Chromium: the bell, from the button to every table.

Tables 1-3 are virtual boards (the real firmware on the MicroPython unix port);
table 4 speaks the protocol but its acknowledgement never arrives, so the
console must show it as not having seen the bell.

Issue 6, done when: "the console's bell reaches every virtual table in the
meaning the party form gives it (finish the game in hand, or stop now), and the
console shows which tables acknowledged it".

The meaning per form, 000_ff8a6ed40036e836.txt: Block ("he requests the other
tables to finish the games they are playing, but he does not permit a new game
to be started") — finish; Bergen and Tiddle-a-wink ("Ten points made at any
table ends a session, whereupon the bell is rung, and all tables stop playing
at once") — stop.
"""
from __future__ import annotations

import pytest
from .conftest import CONDUCTOR, PASSWORD, make_party


pytestmark = pytest.mark.broker


def sign_in_page(page, base: str) -> None:
    page.goto(base + "console/")
    page.fill("input[name=login]", CONDUCTOR)
    page.fill("input[name=password]", PASSWORD)
    if page.locator("input[name=password2]").count():
        page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/console/")


# what the firmware's display says for each meaning (firmware/screen.py BELL_WORDS)
BELL_WORDS = {"finish": "FINISH GAME", "stop": "STOP NOW"}


@pytest.mark.parametrize("form, meaning", [("draw", "finish"), ("bergen", "stop")])
def test_the_bell_reaches_every_table_in_the_forms_meaning_and_the_console_shows_who_saw_it(
        hub, server, room, boards, page, form, meaning):
    make_party(hub, 4, form=form)
    virtual = boards(1, 2, 3)
    mute = room(1, first=4, ack_bells=False)[0]   # table 4 sees the bell, its acknowledgement never arrives
    for b in virtual:
        b.wait_for("SESSION 1", timeout=20)
    sign_in_page(page, server.url)
    # Before the bell every table is simply playing: none is late.
    page.goto(server.url + "console/tables")
    page.wait_for_selector('#tables tr[data-table="4"]')
    assert page.locator("#tables tr.missing").count() == 0
    assert "missing" not in page.locator("#tables").inner_text() + page.locator("#summary").inner_text()
    page.goto(server.url + "console/")

    bell_form = page.locator("form[data-action=bell]")
    assert bell_form.locator(f"input[name=meaning][value={meaning}]").is_checked()
    bell_form.locator("button[type=submit]").click()
    page.wait_for_selector(".flash.ok")
    assert "Ring the bell: done" in page.locator(".flash.ok").inner_text()

    for b in virtual:
        b.wait_for(BELL_WORDS[meaning], timeout=10)
    assert list(mute.wait_bell().values()) == [meaning]

    page.goto(server.url + "console/tables")
    for n in (1, 2, 3):
        page.wait_for_selector(f'#tables tr[data-table="{n}"] td.acked', timeout=10000)
    assert page.locator('#tables tr[data-table="4"] td.not-acked').inner_text().startswith("✘")
    assert page.locator("#summary").inner_text().startswith("Bell seen at 3 of 4 tables.")
    assert "missing" in page.locator('#tables tr[data-table="4"]').get_attribute("class")


def test_a_refusal_is_shown_on_the_page_in_the_conductors_words(hub, server, page):
    """Two helpers, one bell: the second press comes from a page loaded before the first."""
    make_party(hub, 2)
    sign_in_page(page, server.url)
    second = page.context.new_page()
    second.goto(server.url + "console/")
    page.locator("form[data-action=bell] button").click()
    page.wait_for_selector(".flash.ok")
    second.locator("form[data-action=bell] button").click()
    alert = second.locator(".flash.refused[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == "Ring the bell: refused — the bell has already rung for this session."
    assert [e.kind for e in hub.journal.events()].count("conductor.bell") == 1


def test_a_bergen_tables_points_reach_the_console_and_the_projector_as_they_are_made(
        hub, server, boards, page):
    """BERGEN GAME party: "Ten points made at any table ends a session": each header is keyed
    on the table's board as it is made (a double-header counts two, a triple-header three;
    partners A with C, B with D), and the console's tables and the projector show the sides'
    points at once, before any hand is over."""
    make_party(hub, 2, form="bergen", in_play="each")
    (board,) = boards(1)
    board.wait_for("A-D: POINTS MADE", timeout=20)
    sign_in_page(page, server.url)
    page.goto(server.url + "console/tables")
    projector = page.context.new_page()
    projector.set_viewport_size({"width": 1920, "height": 1080})
    projector.goto(server.url)
    games = page.locator('#tables tr[data-table="1"] td.games')
    page.wait_for_function("document.querySelector('#tables tr[data-table=\"1\"] td.games')"
                           ".textContent.includes('A+C 0 · B+D 0')")
    board.press("C3")                  # C made a triple-header
    board.wait_for("COUNTED", timeout=10)
    board.press("B2")                  # B a double-header
    board.wait_for(lambda lines: "A+C 3 B+D 2" in lines, timeout=10)
    page.wait_for_function("document.querySelector('#tables tr[data-table=\"1\"] td.games')"
                           ".textContent.includes('A+C 3 · B+D 2')", timeout=5000)
    projector.wait_for_function("document.body.innerText.includes('A+C 3 · B+D 2')", timeout=5000)
    assert not [e for e in hub.journal.events() if e.kind == "table.result"]   # mid-hand
    assert games.inner_text().startswith("0")
    for width, height in ((1920, 1080), (1280, 720)):   # the host's laptop and a small projector
        for name, view in (("console", page), ("projector", projector)):
            view.set_viewport_size({"width": width, "height": height})
            view.screenshot(path=f"/tmp/h11-{name}-bergen-points-{width}x{height}.png")
