"""The club's season in Chromium, walked as a host walks it between parties (issue 26): the
projector's season page (standings, ratings, the chart) at 1920×1080 and 1280×720 and on a
phone, a member's page (his nights, his rating over the season), the CSV; then the console's
season page, where tonight's guests are linked to the roster (a sure match, a near one the
host confirms, a newcomer added), and tonight's party joins the season. Screenshots in
docs/img (docs/screens.md, "The season")."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from web import create_app
from web.server import WebServer

from ..season.club_nights import CAST, P, build_club
from .conftest import make_party
from .test_console_browser import sign_in_page

pytestmark = pytest.mark.broker

IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
TONIGHT = ["Ann Parker", "Clara Parkr", "Dora Bradley", "Zelda Quinn"]   # sure, near, sure, new


@pytest.fixture
def season_server(hub, tmp_path):
    club, _, _ = build_club(tmp_path)
    make_party(hub, tables=1, names=TONIGHT)
    app = create_app(hub, TESTING=True, WEB_STORE=tmp_path / "web.json", CLUB=str(club))
    s = WebServer(app).start()
    yield s
    s.stop()


def shot(page, name: str) -> None:
    page.screenshot(path=str(IMG / name), full_page=False)


def walk_projector(page, base: str, size: str) -> None:
    page.goto(base + "season/")
    assert page.locator("h1").inner_text() == "Season 2026"
    rows = page.locator(".standings tbody tr")
    # 41 members played: the cast and Bertha Howe (not merged in this club's record)
    assert rows.count() == 41
    assert rows.first.locator(".name a").inner_text() == "Ann Parker"
    # a projector is never scrolled: the standings a page at a time where they do not fit
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    assert page.locator("#pager").inner_text() == "page 1 of 2"   # 41 rows, about 30 a screen
    assert rows.nth(40).is_hidden() and rows.first.is_visible()
    assert page.locator("figure.chart svg polyline").count() == 8   # the eight best rated
    shot(page, f"season-{size}.png")
    page.locator(".ratings tbody tr").first.locator("a").click()
    page.wait_for_url("**/season/member/*")
    assert page.locator(".nights tbody tr").count() >= 3
    assert page.locator("figure.chart svg polygon").count() == 1   # his band, mu ± sigma
    shot(page, f"season-member-{size}.png")


def test_a_host_walks_the_season(season_server, chromium):
    base = season_server.url
    for size, viewport in (("1920x1080", {"width": 1920, "height": 1080}),
                           ("1280x720", {"width": 1280, "height": 720})):
        context = chromium.new_context(viewport=viewport)
        walk_projector(context.new_page(), base, size)
        context.close()

    phone = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = phone.new_page()
    page.goto(base + "season/")
    # one column: nothing wider than the phone; the nights' columns left to the member's page
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not page.locator(".standings th.night").first.is_visible()
    shot(page, "season-phone.png")
    page.locator(".standings tbody tr").first.locator("a").click()
    page.wait_for_url("**/season/member/1")
    assert page.locator(".nights tbody tr").count() == 5   # Ann: nights 1, 2, 3, 4, 6
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "season-member-phone.png")
    phone.close()

    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    sign_in_page(page, base)
    got = page.request.get(base + "console/season/season.csv")   # the console's, as the party's CSV
    assert got.headers["content-disposition"] == 'attachment; filename="season-2026.csv"'
    rows = list(csv.reader(io.StringIO(got.text())))
    assert rows[1][:3] == ["1", "1", "Ann Parker"] and len(rows) == 42
    page.click("text=Season")
    page.wait_for_url("**/console/season")
    tonight = page.locator("#tonight")
    assert tonight.locator("tr[data-guest='Clara Parkr'] td").nth(1).inner_text() == "near: #3 Clara Parker"
    assert tonight.locator("tr[data-guest='Zelda Quinn'] td").nth(1).inner_text() == "not on the roster"
    tonight.scroll_into_view_if_needed()
    shot(page, "season-console-link-1280x720.png")
    page.click("text=Link every sure match")
    assert "2 guests linked" in page.locator(".flash.ok").inner_text()
    page.locator("tr[data-guest='Clara Parkr']").locator("text=Is #3").click()
    assert "Clara Parkr is member 3, Clara Parker" in page.locator(".flash.ok").inner_text()
    page.locator("tr[data-guest='Zelda Quinn']").locator("text=Add to the roster").click()
    assert "Zelda Quinn is member 42, Zelda Quinn" in page.locator(".flash.ok").inner_text()
    # tonight's party joined the season: its column, its four players (no game yet: all equal)
    assert page.locator(".standings th.night").count() == 7
    assert page.locator(".standings tbody tr").count() == 42
    page.locator(".standings tbody tr").first.locator(".name a").click()
    page.wait_for_url("**/console/season/member/1")
    assert page.locator(".nights tbody tr").count() == 6
    shot(page, "season-console-member-1280x720.png")
    page.goto(base + "console/season")
    shot(page, "season-console-1280x720.png")
    # printed: black on white, the whole standings
    page.goto(base + "season/")
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    assert page.locator(".standings tbody tr").nth(41).is_visible()   # every member on paper
    assert not page.locator("nav").is_visible()
    context.close()
    assert CAST[P] == "Ann Lee"
