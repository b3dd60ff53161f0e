"""Who may do what is the journal's (issue 21, "roles only from the journal"): the console asks
the hub (`hub.role`) and checks a conductor's action in one place (web/security.py,
`conductor_only`); the web store keeps the passwords, and what it says of a role decides nothing.

"When the party is very large he may require an ASSISTANT" (000_ff8a6ed40036e836.txt, "HOW TO
GIVE MUSICAL DOMINO PARTIES"): the conductor adds the staff; an assistant does not.
"""
from __future__ import annotations

import json

import pytest

from hub.conductor import events as ev
from web import create_app
from web.actions import new_action_id

from .conftest import CONDUCTOR, csrf_of, make_party, sign_in
from .test_console import act, journal

pytestmark = pytest.mark.broker


def send(client, url: str, data: dict) -> str:
    """A console form posted with this browser's CSRF token and a fresh one-time id."""
    token = csrf_of(client.get("/console/staff").get_data(as_text=True))
    r = client.post(url, data={"csrf_token": token, "action_id": new_action_id(), "next": "/console/staff", **data},
                    follow_redirects=True)
    return r.get_data(as_text=True)


def test_an_assistant_is_refused_a_conductors_action_whatever_the_web_store_says(app, hub, console):
    make_party(hub, 2, start=False)
    act(console, "/console/staff", "add-staff", {"login": "stella", "password": "hackberry-193",
                                                 "role": "assistant"}, url="/console/staff")
    # the web store's note of her role rewritten, the web started again on it: she is still
    # the journal's assistant
    path = app.extensions["party.web_store"].path
    data = json.loads(path.read_text())
    data["staff"]["stella"]["role"] = "conductor"
    path.write_text(json.dumps(data))
    again = create_app(hub, TESTING=True, WEB_STORE=path)
    assistant = sign_in(again.test_client(), "stella", "hackberry-193")

    page = assistant.get("/console/staff").get_data(as_text=True)
    assert '<span class="who">stella (assistant)</span>' in page and "A login for an assistant" not in page
    # her pages offer none of these forms: sent all the same, as a forged page would
    html = send(assistant, "/console/staff", {"login": "mallory", "password": "hackberry-194", "role": "conductor"})
    assert "Add to the staff: refused — only the conductor may do this." in html
    html = send(assistant, "/console/act/undo-draw", {"why": "drawn twice"})
    assert "Undo the draw: refused — only the conductor may do this." in html
    html = send(assistant, "/console/staff/remove", {"login": CONDUCTOR, "why": "a coup"})
    assert "Take off the staff: refused — only the conductor may do this." in html
    assert [e.body["login"] for e in journal(hub, ev.STAFF_ADDED)] == ["stella"]
    assert journal(hub, ev.DRAW_UNDONE) == [] and journal(hub, ev.STAFF_REMOVED) == []
    assert not again.extensions["party.web_store"].signs_in("mallory")


def test_a_conductor_added_by_the_conductor_may_do_what_he_does(app, hub, console):
    make_party(hub, 2, start=False)
    act(console, "/console/staff", "add-staff", {"login": "otto", "password": "hackberry-195",
                                                 "role": "conductor"}, url="/console/staff")
    assert hub.role("otto") == "conductor"
    second = sign_in(app.test_client(), "otto", "hackberry-195")
    page = second.get("/console/staff").get_data(as_text=True)
    assert '<span class="who">otto (conductor)</span>' in page and "A login for an assistant" in page
    html = act(second, "/console/", "undo-draw", {"why": "drawn before the last guests came"})
    assert "Undo the draw: done" in html
    assert [e.source for e in journal(hub, ev.DRAW_UNDONE)] == ["staff:otto"]


def test_in_the_browser_the_conductor_adds_an_assistant_whose_console_says_her_role(hub, server, page):
    """The Staff page as each role sees it, in Chromium: the conductor adds an assistant with
    the page's form; she signs in and her console names her role (the journal's) and offers
    her no staff forms; the staff listed are the journal's."""
    from .test_console_browser import sign_in_page
    make_party(hub, 2, start=False)
    sign_in_page(page, server.url)
    assert page.locator(".who").inner_text() == f"{CONDUCTOR} (conductor)"
    page.goto(server.url + "console/staff")
    form = page.locator("form[data-action=add-staff]")
    form.locator("input[name=login]").fill("stella")
    form.locator("input[name=password]").fill("hackberry-193")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".flash.ok")
    assert "Add stella to the staff: done" in page.locator(".flash.ok").inner_text()
    logins = page.locator("#staff li").evaluate_all("items => items.map(li => li.dataset.login)")
    assert logins == [CONDUCTOR, "stella"]
    assert page.locator("#staff li[data-login=stella]").inner_text().startswith("stella — assistant")

    context = page.context.browser.new_context(viewport={"width": 1280, "height": 720})
    theirs = context.new_page()
    theirs.goto(server.url + "console/login")
    theirs.fill("input[name=login]", "stella")
    theirs.fill("input[name=password]", "hackberry-193")
    theirs.click("button[type=submit]")
    theirs.wait_for_url("**/console/")
    assert theirs.locator(".who").inner_text() == "stella (assistant)"
    theirs.goto(server.url + "console/staff")
    assert theirs.locator("form[data-action=add-staff]").count() == 0
    assert theirs.locator("form[data-action=remove-staff]").count() == 0
    context.close()
    assert hub.staff() == {CONDUCTOR: "conductor", "stella": "assistant"}
