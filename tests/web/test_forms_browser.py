"""A refused form keeps what was typed, and says what is wrong in the host's words with the field named.

Issue 10: "a form error throws away what was typed (the invitation plan with its
13 replies, a correction's values, the login)"; refusals must name the field as
the page does, "never internal ids like `A_pieces`, `BAD SESSIONS`".
"""
from __future__ import annotations

import pytest

from party.hands import draw_game as game

from .conftest import CONDUCTOR, PASSWORD, make_party
from .test_console_browser import sign_in_page

pytestmark = pytest.mark.broker


def test_a_refused_plan_keeps_its_thirteen_replies_and_names_the_line_it_cannot_read(server, page):
    sign_in_page(page, server.url)
    replies = "\n".join(f"Guest {i}, yes" for i in range(12)) + "\nMrs Henry Vane maybe"
    plan = page.locator("form[data-action=plan]")
    plan.locator("input[name=host]").fill("Miss Florence Walker")
    plan.locator("input[name=when]").fill("Thursday Evening, February 22")
    plan.locator("textarea[name=address]").fill("at her home, 61 Dayton Street.")
    plan.locator("select[name=form]").select_option("bergen")
    plan.locator("textarea[name=replies]").fill(replies)
    plan.locator("button[type=submit]").click()

    alert = page.locator(".flash.refused[role=alert]")
    alert.wait_for()
    assert alert.inner_text().startswith("Save the plan: refused — Replies: cannot read 'Mrs Henry Vane maybe'")
    plan = page.locator("form[data-action=plan]")
    assert plan.locator("textarea[name=replies]").input_value() == replies
    assert plan.locator("input[name=host]").input_value() == "Miss Florence Walker"
    assert plan.locator("select[name=form]").input_value() == "bergen"
    assert plan.locator("textarea[name=replies]").get_attribute("aria-invalid") == "true"


def test_a_refused_correction_keeps_its_values_in_its_own_row_and_names_the_field(hub, server, page, room):
    make_party(hub, 2)
    entry = ""
    for t in room(2):
        keyed = t.key_form(game(t.table, 1), game=1)
        assert t.ack_for(keyed)["ok"]
        entry = entry if t.table > 1 else keyed   # table 1's result is corrected
    sign_in_page(page, server.url)
    page.goto(server.url + "console/corrections")
    row = page.locator(f'tr[data-entry="{entry}"] form[data-action=correct]')
    row.locator("input[name='value.B_pieces']").fill("two")
    row.locator("input[name=why]").fill("B's pieces recounted")
    row.locator("button[type=submit]").click()

    alert = page.locator(".flash.refused[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == "Correct a result: refused — B pieces: a whole number, please (you typed 'two')."
    row = page.locator(f'tr[data-entry="{entry}"] form[data-action=correct]')
    assert row.locator("input[name='value.B_pieces']").input_value() == "two"
    assert row.locator("input[name=why]").input_value() == "B's pieces recounted"
    other = page.locator(f'tr:not([data-entry="{entry}"]) form[data-action=correct]')
    assert other.locator("input[name=why]").input_value() == ""   # the other result's form is untouched
    assert [e.kind for e in hub.journal.events()].count("conductor.result-corrected") == 0


def test_a_wrong_password_keeps_the_login_and_never_the_password(server, page):
    sign_in_page(page, server.url)   # sets up the conductor
    page.context.clear_cookies()
    page.goto(server.url + "console/login")
    page.fill("input[name=login]", CONDUCTOR)
    page.fill("input[name=password]", PASSWORD + "x")
    page.click("button[type=submit]")
    alert = page.locator(".flash.refused[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == "Sign in: refused — wrong login or password."
    assert page.locator("input[name=login]").input_value() == CONDUCTOR
    assert page.locator("input[name=password]").input_value() == ""
    assert PASSWORD not in page.content()
