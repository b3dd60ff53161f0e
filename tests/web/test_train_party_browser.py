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


def test_a_phone_keys_a_mexican_train_round_one_field_a_seat_the_one_out_in_one_tap(app, hub, server, chromium):
    """Issue 27: "Entry shaped to the game: one field per seat (spots left), checked as typed
    against what that seat could hold ..., the one who went out keyed as 0 in one key": a
    phone (390×844, touch) taps round 1 of a Mexican Train party at a table of four: A went
    out (0, one tap, taken); a seat holds at most 743 at a double-twelve table of four, so 80
    takes itself (no digit more fits); all the seats together at most 1,091 (the set less the
    engine and a piece played), so C's 400 after B's 700 is refused at C as typed, the rest
    kept; C 37, D 9: the round is saved as keyed."""
    from .test_keypad import keypad_url
    from .test_phone_browser import PHONE
    make_party(hub, 2, form="mexican-train")
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    phone = context.new_page()
    try:
        phone.goto(server.url.rstrip("/") + keypad_url(app, 1))
        phone.wait_for_selector("#entry:not([hidden])")
        fields = phone.evaluate("screen.form.fields.map((f) => [f.k, f.label, f.max])")
        assert [f[:2] for f in fields] == [[s, f"{s} SPOTS LEFT"] for s in "ABCD"]

        def tap(keys: str) -> None:
            for k in keys:
                phone.tap(f'button[data-key="{"ok" if k == "#" else k}"]')

        def field_is(label: str) -> None:
            phone.wait_for_function(f"document.getElementById('field').textContent.endsWith('{label}')")

        tap("0")                                   # opens the entry and keys A: taken at once
        field_is("B SPOTS LEFT")
        assert fields[1][2] == 743
        tap("80")                                  # 800 would pass 743: taken at 80
        field_is("C SPOTS LEFT")
        phone.tap('button[data-key="del"]')        # back to B, to key it again
        field_is("B SPOTS LEFT")
        for _ in range(2):
            phone.tap('button[data-key="del"]')
        tap("700#")
        field_is("C SPOTS LEFT")
        tap("400#")                                # 1,100 in all: more than the hands can hold
        phone.wait_for_function("document.getElementById('typed').textContent.includes('1091 AT MOST')")
        field_is("C SPOTS LEFT")
        assert phone.evaluate("JSON.stringify(walk.values)") == '{"A":0,"B":700}'
        for _ in range(3):
            phone.tap('button[data-key="del"]')
        tap("37#9#")
        phone.wait_for_function("document.getElementById('review').innerText.includes('D SPOTS LEFT')")
        phone.screenshot(path=str(IMG / "keypad-mexican-train-review.png"))
        phone.wait_for_timeout(800)                # the guest reads the review
        tap("#")
        phone.wait_for_function("document.getElementById('ack').textContent === 'GAME 1 SAVED'", timeout=5000)
        (entry,) = [e for e in hub.journal.events() if e.kind == ev.RESULT]
        assert entry.body["values"] == {"A": 0, "B": 700, "C": 37, "D": 9}
    finally:
        context.close()
