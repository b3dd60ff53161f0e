"""The console in one hand: every console page on a phone, in Chromium's phone emulation.

Issue 23, done when: "The phone test passes on every console page: no page wider
than the viewport, no target under 44×44 px" — a phone 390 CSS px wide, touched
(Playwright's has_touch, is_mobile), with the party in a state where each page has
real content: guests checked in and not, tables in play with results keyed, a
correction being previewed, prizes with candidates, an assistant on the staff.
44×44 CSS px is WCAG 2.1's target size (2.5.5) and Apple's. Every <details> is
opened first: a guest's "change" panel must fit as well as the row it is in.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from hub.conductor import events as ev
from party.hands import draw_game

from .conftest import make_party, submit
from .test_console_browser import sign_in_page

pytestmark = [pytest.mark.broker]

PHONE = {"width": 390, "height": 844}
TARGET = 44
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"

# What on a page is touched, and the box that takes the touch: a check box's label.
MEASURE = """(target) => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const small = [], outside = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll(
      "a[href], button, select, textarea, summary, input:not([type=hidden])")) {
    const box = (el.type === "checkbox" || el.type === "radio") ? (el.closest("label") || el) : el;
    const r = box.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;   // not shown (a row filtered out)
    const what = `${el.tagName.toLowerCase()} "${(el.textContent || el.name || el.placeholder || "").trim().slice(0, 40)}"`;
    if (r.width < target - 0.5 || r.height < target - 0.5) small.push(`${what} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    if (r.right > width + 0.5 || r.left < -0.5) outside.push(`${what} ${r.left.toFixed(0)}..${r.right.toFixed(0)}`);
  }
  return { scroll: document.documentElement.scrollWidth, width, small, outside };
}"""


@pytest.fixture
def phone(chromium):
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    p = context.new_page()
    yield p
    context.close()


def party_with_everything(hub, room) -> None:
    """Four tables in session 1, a game keyed at each; guests listed and not yet come,
    a long name."""
    names = make_party(hub, 4, names=[f"Guest {i}" for i in range(15)] + ["Maximiliana Wolkenstein-Trostburg"])
    for name in ("Late Comer", "Not Yet Here"):
        submit(hub, ev.GUEST_LISTED, {"guest": name})
    tables = room(4)
    for t in tables:
        t.ack_for(t.key_form(draw_game(t.table, 1), game=1))
    assert len(names) == 16


def check(page, name: str) -> None:
    found = page.evaluate(MEASURE, TARGET)
    page.screenshot(path=str(IMG / f"phone-{name}.png"), full_page=True)
    assert found["scroll"] <= PHONE["width"], f"{name}: {found['scroll']} px wide on a {PHONE['width']} px phone"
    assert not found["outside"], f"{name}: cut off at the screen's edge: {found['outside']}"
    assert not found["small"], f"{name}: targets under {TARGET}×{TARGET} px: {found['small']}"


@pytest.mark.timeout(120)
def test_every_console_page_fits_a_phone_and_every_target_takes_a_thumb(hub, server, room, phone, tmp_path):
    base = server.url
    phone.goto(base + "console/")
    phone.wait_for_url("**/console/setup")
    check(phone, "setup")
    sign_in_page(phone, base)

    check(phone, "party-before")          # the plan and the party's form
    party_with_everything(hub, room)
    phone.goto(base + "console/staff")   # an assistant, through the staff page's own form
    phone.fill("form[data-action=add-staff] input[name=login]", "ruth")
    phone.fill("form[data-action=add-staff] input[name=password]", "ruth-at-the-door")
    phone.click("form[data-action=add-staff] button")
    phone.wait_for_selector("li[data-login=ruth]")
    check(phone, "staff")

    for page, name in (("console/", "party"), ("console/guests", "guests"), ("console/prizes", "prizes"),
                       ("console/corrections", "corrections")):
        phone.goto(base + page)
        check(phone, name)

    phone.goto(base + "console/tables")
    phone.wait_for_selector("#tables tbody tr[data-table='4']")
    check(phone, "tables")

    # a correction, previewed before it is recorded
    phone.goto(base + "console/corrections")
    form = phone.locator("form[data-action=correct]").first
    form.locator("input[name=why]").fill("misread a six")
    form.locator("button").click()
    phone.wait_for_selector("#consequence")
    check(phone, "correction-preview")

    # the guest list's preview
    phone.goto(base + "console/guests")
    upload = tmp_path / "guests.csv"
    upload.write_text("Name\nZoë Quill\nGuest 1\nguest  2\n\n", encoding="utf-8")
    phone.locator("form[data-action=import-guests] input[type=file]").set_input_files(str(upload))
    phone.locator("form[data-action=import-guests] button").click()
    phone.wait_for_selector("form[data-action=add-guests]")
    check(phone, "import")

    phone.goto(base + "console/corrections?session=9")   # a page refused: its own template
    check(phone, "refused")
    phone.goto(base + "console/")

    # signed out: the login page
    phone.locator("header form button").click()
    phone.wait_for_url("**/console/login")
    check(phone, "login")
