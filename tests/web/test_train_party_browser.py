"""A Mexican Train party on the projector and on its printed score-cards, at 1920×1080 and
1280×720 (issue 27: "the projector shows totals with 'lowest wins' made plain"): six tables
keyed a whole game (thirteen rounds: "Number of Rounds: 13", https://mexicantrain.com/rules.html)
through the protocol, the three lowest of each moved up a table (the club's rule, hub/conductor/
forms/trains.py), a late-comer seated with his table's highest score, four rounds of session
II keyed. The leaders are ranked lowest first and say so; no text over other text; the
screenshots go to docs/img (docs/screens.md shows them)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from hub.conductor import events as ev
from hub.conductor.prizes import totals
from party.hands import played_values

from .conftest import make_party, submit
from .test_console_browser import sign_in_page
from .test_projector import check_layout

pytestmark = pytest.mark.broker

IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
TABLES = 6


def _key_round(hub, t, rng) -> None:
    s = hub.state.session
    game = s.tables[t.table].entered + 1
    values = played_values(hub.state.setup, s.tables[t.table].seats, rng, game=game)
    assert t.ack_for(t.key_form(values, game=game))["ok"]


def _a_party_in_session_two(hub, room) -> None:
    make_party(hub, TABLES, form="mexican-train", guests=TABLES * 4 - 1, late_score="table-highest")
    tables = room(TABLES)
    rng = random.Random(27)
    for _ in range(13):
        for t in tables:
            _key_round(hub, t, rng)
    submit(hub, ev.RESEAT, {"seed": 5})
    submit(hub, ev.SESSION_STARTED, {"session": 2})
    for _ in range(3):
        for t in tables:
            if hub.state.session.tables[t.table].players >= 2:
                _key_round(hub, t, rng)
    submit(hub, ev.WALK_IN, {"guest": "Lou Late"})   # the last table's empty seat
    for t in tables:
        _key_round(hub, t, rng)


def test_a_mexican_train_partys_projector_ranks_the_lowest_first_and_says_so(hub, server, room, page):
    _a_party_in_session_two(hub, room)
    lou = hub.state.guests["Lou Late"]
    assert lou.start > 0 and totals(hub.state)[lou.card] >= lou.start   # seated with the table's highest
    for width, height in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(server.url)
        page.wait_for_selector(f'#tables .tile[data-table="{TABLES}"]')
        page.wait_for_function("document.querySelectorAll('#left-list li').length > 0")
        assert "the lowest total wins" in page.inner_text("#title")
        assert "lowest first" in page.inner_text("#left-title")
        shown = [int(x) for x in page.eval_on_selector_all("#left-list li .total", "els => els.map(e => e.textContent)")]
        assert shown == sorted(shown) and shown[0] == min(totals(hub.state).values())
        page.screenshot(path=str(IMG / f"projector-mexican-train-{width}x{height}.png"))
        check_layout(page, width, height)


def test_a_mexican_train_partys_score_cards_say_rounds_and_the_lowest_total(hub, server, room, page):
    _a_party_in_session_two(hub, room)
    sign_in_page(page, server.url)
    for width, height in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(server.url + "print/score-cards")
        first = page.locator('[data-card="TABLE 1 A"]')
        assert "SPOTS LEFT IN HAND, EACH ROUND — THE LOWEST TOTAL WINS" in first.inner_text()
        assert "13 Round" in first.inner_text()
        page.screenshot(path=str(IMG / f"score-cards-mexican-train-{width}x{height}.png"))
    late = page.locator('.score-card:has-text("Lou Late")')
    assert f"Seated late, with the table's highest,\t{hub.state.guests['Lou Late'].start}" in late.inner_text()
