"""The door of a 1,000-guest party in Chromium (issue 23): the host finds each guest by typing
part of the name and acts on the row; every action is answered in place, the search and the
scroll kept, the cursor back in "Find a guest" for the next. Without JavaScript the same
forms come back to the same search, at the guest's row.

Book: 000_ff8a6ed40036e836.txt. LIST: the conductor "checks off the names of the persons who
have arrived". "Late-comers will have to be satisfied to receive vacant seats at the last
tables."
"""
from __future__ import annotations

import uuid
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs, urlsplit

import pytest

from hub.conductor import events as ev
from hub.event import Proposal

from web.door import PAGE

from .conftest import guest_name, make_party
from .test_console_browser import sign_in_page

pytestmark = pytest.mark.broker
GUESTS = 1000
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def list_many(hub, names: list[str]) -> None:
    """Many guests listed at once (the writer judges them in batches), as an import would list them."""
    def one(name):
        return hub.submit(Proposal(f"staff.florence.{uuid.uuid4().hex[:16]}", "staff:florence", ev.GUEST_LISTED,
                                   {"guest": name}), timeout=60)
    with ThreadPoolExecutor(32) as pool:
        assert all(v.ok for v in pool.map(one, names))


def shown(page) -> list[str]:
    return page.locator("#guests tbody tr").evaluate_all("rs => rs.map(r => r.dataset.guest)")


def find(page, text: str) -> None:
    page.locator("#find").fill("")
    page.locator("#find").press_sequentially(text)
    page.wait_for_function("t => document.getElementById('shown').textContent.includes(`match “${t}”`)", arg=text)


WHERE = """guest => [document.querySelector(`#guests tr[data-guest="${guest}"]`)?.getBoundingClientRect().top,
                      document.getElementById('find').value, location.search, performance.timeOrigin]"""


def in_place(page, button, expect: str, kind: str = "ok", row: str | None = None, then: str = "") -> str:
    """Press `button` as the host would; the answer comes where the host is: the same page (no
    load), the same search in the box and the address, the guest's `row` where it was on the
    screen (`then` its name after a rename), the
    cursor back in the box (the next guest one key away). The answer's words."""
    button.scroll_into_view_if_needed()
    before = page.evaluate(WHERE, row)
    button.click()
    answer = page.locator(f"#answer .flash.{kind}")
    answer.wait_for()
    after = page.evaluate(WHERE, then or row)
    if row:
        assert abs(after[0] - before[0]) <= 2, f"{row} moved from {before[0]} to {after[0]} on the screen"
    assert after[1:] == before[1:], "the search, the address or the page changed"
    if kind == "ok":
        assert page.evaluate("document.activeElement.id") == "find"
    text = answer.inner_text()
    assert expect in text, text
    return text


def open_tools(page, guest: str):
    r = page.locator(f'#guests tr[data-guest="{guest}"]')
    r.locator("summary").click()
    return r


@pytest.mark.timeout(240)
def test_the_door_of_a_thousand_guests_keeps_the_search_and_the_scroll(hub, server, page):
    seated = make_party(hub, 3, form="block", guests=8)          # play on; Table 3 empty for late-comers
    names = [guest_name(i) for i in range(8, GUESTS)]
    list_many(hub, names)
    assert len(hub.state.guests) == GUESTS
    page.set_viewport_size({"width": 1280, "height": 700})
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    size = page.evaluate("performance.getEntriesByType('navigation')[0].decodedBodySize")
    assert size < 200_000, f"the Guests page is {size} bytes at {GUESTS} guests"
    assert len(shown(page)) == PAGE and f"1000 guests listed; these are 1–{PAGE}." in page.locator("#shown").inner_text()

    # find as the name is typed: the matches, a page of them, from the whole list
    find(page, "ann")
    every = [n for n in hub.state.guests if "ann" in n.lower()]
    assert len(every) > PAGE and shown(page) == every[:PAGE]
    assert parse_qs(urlsplit(page.url).query) == {"q": ["ann"]}          # a reload keeps it

    # check in, low on the page: the row says so, nothing else moves
    guest = shown(page)[PAGE - 5]
    row = page.locator(f'#guests tr[data-guest="{guest}"]')
    row.evaluate("r => r.scrollIntoView({block: 'center'})")   # scrolled down to her
    in_place(page, row.locator("form[data-action=check-in] button"), "Check in: done — TABLE 3 A", row=guest)
    assert row.locator("td").all_inner_texts()[1:4] == ["✔", "TABLE 3 A", "Table 3 A"]
    assert shown(page) == every[:PAGE]
    assert page.locator("#door-count").inner_text() == f"9 of {GUESTS} checked in"
    page.screenshot(path=str(IMG / "door-1000-desktop.png"))
    # the next one key away: Enter in the box goes to the first "Check in" found, Enter presses it
    find(page, "Kay Ash")
    kays = shown(page)
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.closest('tr').dataset.guest") == kays[0]
    page.keyboard.press("Enter")
    page.locator("#answer .flash.ok").wait_for()
    assert "Check in: done — TABLE 3 B" in page.locator("#answer").inner_text()
    assert hub.state.guests[kays[0]].checked_in and page.input_value("#find") == "Kay Ash"

    # a walk-in, typed whole and not found: offered there and then
    find(page, "Annabel Quince")
    assert shown(page) == []
    in_place(page, page.locator("#walk-in-found button"), "A walk-in: done — TABLE 3 C")
    assert shown(page) == ["Annabel Quince"] and page.input_value("#find") == "Annabel Quince"
    assert page.locator('#guests tr[data-guest="Annabel Quince"]').is_visible()

    # rename, low on the page; the renamed guest stays in sight though the search no longer finds her
    find(page, "ann")
    old = shown(page)[PAGE - 8]
    page.locator(f'#guests tr[data-guest="{old}"]').evaluate("r => r.scrollIntoView({block: 'center'})")
    r = open_tools(page, old)
    form = r.locator("form[data-action=rename]")
    form.locator("[name=new_name]").fill("Zelda Quarrie")
    form.locator("[name=why]").fill("her married name")
    in_place(page, form.locator("button"), "Rename a guest: done", row=old, then="Zelda Quarrie")
    assert "Zelda Quarrie" in shown(page) and old not in shown(page) and "Zelda Quarrie" in hub.state.guests

    # has left, came back: a seated guest, found by name
    leaver = seated[5]
    find(page, leaver)
    r = open_tools(page, leaver)
    form = r.locator("form[data-action=guest-left]")
    form.locator("[name=why]").fill("the last train")
    in_place(page, form.locator("button"), "A guest left: done", row=leaver)
    assert "(left)" in page.locator(f'#guests tr[data-guest="{leaver}"]').inner_text()
    r = open_tools(page, leaver)
    form = r.locator("form[data-action=guest-back]")
    form.locator("[name=why]").fill("missed the train")
    in_place(page, form.locator("button"), "A guest came back: done", row=leaver)
    assert "(left)" not in page.locator(f'#guests tr[data-guest="{leaver}"]').inner_text()
    # a refusal comes in place too, its form as typed
    find(page, "Zelda Quarrie")
    r = open_tools(page, "Zelda Quarrie")
    form = r.locator("form[data-action=rename]")
    form.locator("[name=new_name]").fill(every[0])
    form.locator("[name=why]").fill("typo")
    in_place(page, form.locator("button"), "Rename a guest: refused", kind="refused", row="Zelda Quarrie")
    assert form.locator("[name=why]").input_value() == "typo"

    kinds = [e.kind for e in hub.journal.events()]
    for kind in (ev.CHECKED_IN, ev.WALK_IN, ev.GUEST_RENAMED, ev.GUEST_LEFT, ev.GUEST_BACK):
        assert kind in kinds


@pytest.mark.timeout(120)
def test_without_javascript_a_check_in_comes_back_to_the_same_search_at_the_row(hub, server, chromium):
    make_party(hub, 3, form="block", guests=8)
    list_many(hub, [guest_name(i) for i in range(8, 300)])
    context = chromium.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 700})
    page = context.new_page()
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    page.locator("#find").fill("cora")
    page.locator("#finder button").click()
    page.wait_for_url("**/console/guests?q=cora")
    guest = shown(page)[10]
    page.locator(f'#guests tr[data-guest="{guest}"] form[data-action=check-in] button').click()
    page.wait_for_load_state()
    url = urlsplit(page.url)
    assert (url.path, parse_qs(url.query), url.fragment) == (
        "/console/guests", {"q": ["cora"]}, page.locator(f'#guests tr[data-guest="{guest}"]').get_attribute("id"))
    assert "Check in: done — TABLE 3 A" in page.locator(".flash.ok").inner_text()
    assert page.input_value("#find") == "cora" and hub.state.guests[guest].checked_in
    context.close()


@pytest.mark.timeout(120)
def test_the_door_in_one_hand_a_guest_found_and_changed_on_a_phone(hub, server, chromium):
    """At 390×844, touched: the list fits the phone, and a seated guest's "change" opens its
    panel (rename, seat here, has left) in view, no sideways scroll, each target 44×44 px."""
    from .test_phone_browser import MEASURE, PHONE, TARGET
    seated = make_party(hub, 3, form="block", guests=8)
    list_many(hub, [guest_name(i) for i in range(8, GUESTS)])
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    find(page, seated[2].split()[0])
    r = page.locator(f'#guests tr[data-guest="{seated[2]}"]')
    r.locator("summary").tap()
    panel = r.locator("details[open]")
    for action in ("rename", "seat-guest", "guest-left"):
        form = panel.locator(f"form[data-action={action}]")
        form.scroll_into_view_if_needed()
        box = form.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (action, box)
    r.scroll_into_view_if_needed()
    page.screenshot(path=str(IMG / "door-1000-phone.png"))
    found = page.evaluate(MEASURE, TARGET)
    assert found["scroll"] <= PHONE["width"] and not found["outside"] and not found["small"], found
    # checked in with a thumb, in place
    page.locator("#guests form[data-action=check-in] button").first.tap()
    page.locator("#answer .flash.ok").wait_for()
    assert "Check in: done" in page.locator("#answer").inner_text()
    context.close()
