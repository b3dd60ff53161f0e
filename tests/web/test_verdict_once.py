"""A verdict is shown once. The console's pages ask the hub every second and a half
(static/console.js); the session is a signed cookie, so an answer that set the cookie
as that request read it, arriving after a page had taken the verdict out, would put
the verdict back: the next action's answer showed the old one first (door.js shows
the flashes in place)."""
from __future__ import annotations

import pytest

from hub.conductor import events as ev

from .conftest import action_id_of, csrf_of, submit

pytestmark = pytest.mark.broker


def test_a_poll_answered_after_the_page_does_not_bring_back_its_verdict(hub, app, console):
    submit(hub, ev.PARTY_CREATED, {"form": "block", "tables": 2, "seat_check": False})
    html = console.get("/console/").get_data(as_text=True)
    r = console.post("/console/act/add-table", data={
        "csrf_token": csrf_of(html), "action_id": action_id_of(html, "add-table"), "next": "/console/", "why": "late-comers"})
    assert r.status_code == 302   # the verdict waits in the session for the page it goes back to
    # the page's poll, sent while the browser follows the redirect, with the session as it was
    poll = app.test_client()
    poll.set_cookie("session", console.get_cookie("session").value)
    polled = poll.get("/console/hub.json")
    assert polled.status_code == 200
    assert "Add a table: done" in console.get("/console/").get_data(as_text=True)
    for header in polled.headers.getlist("Set-Cookie"):   # ...and answered after it: the browser keeps what it sets
        if header.startswith("session="):
            console.set_cookie("session", header.split(";")[0].split("=", 1)[1])
    assert "Add a table: done" not in console.get("/console/").get_data(as_text=True)
