"""Security of the screens (issue 6): login for every console action, CSRF on every form,
no state change by GET, the password stored only as a hash.

The routes are taken from the app's own URL map, so a view added later is
covered without editing these tests.
"""
from __future__ import annotations

import json

import pytest
from .conftest import CONDUCTOR, PASSWORD, action_id_of, csrf_of, make_party, sign_in

from party.setup import create_party
from web.actions import ACTIONS

pytestmark = pytest.mark.broker

PUBLIC = {"standings.page", "standings.snapshot", "standings.stream", "static",
          "console.login", "console.setup", "keypad.page", "keypad.stream", "keypad.event",
          "season.page", "season.member"}   # the club's season on the projector, as its standings
STREAMS = {"standings.stream", "keypad.stream"}


def rules(app, method: str):
    for rule in app.url_map.iter_rules():
        if method in rule.methods:
            args = {a: (1 if a in ("table", "number") else "x") for a in rule.arguments}
            yield rule.endpoint, rule.rule, args


def url(app, endpoint: str, args: dict) -> str:
    with app.test_request_context():
        from flask import url_for
        return url_for(endpoint, **args)


def test_every_console_and_print_page_needs_a_login(app, client, hub):
    make_party(hub, 2)
    sign_in(client)              # the conductor exists ...
    client.post("/console/logout", data={"csrf_token": csrf_of(client.get("/console/").get_data(as_text=True))})
    checked = 0
    for endpoint, rule, args in rules(app, "GET"):  # ... but this browser is signed out
        if endpoint in PUBLIC:
            continue
        r = client.get(url(app, endpoint, args))
        assert r.status_code == 302 and "/console/login" in r.headers["Location"], (rule, r.status_code)
        checked += 1
    assert checked >= 12


def test_every_console_action_without_login_is_refused_and_nothing_is_recorded(app, client, hub):
    make_party(hub, 2)
    seq = hub.seq
    sign_in(client)
    client.post("/console/logout", data={"csrf_token": csrf_of(client.get("/console/").get_data(as_text=True))})
    token = csrf_of(client.get("/console/login").get_data(as_text=True))   # a valid CSRF token, no login
    posted = 0
    for endpoint, rule, args in rules(app, "POST"):
        if endpoint in PUBLIC:
            continue
        r = client.post(url(app, endpoint, args), data={"csrf_token": token, "action_id": "0" * 16,
                                                         "meaning": "stop", "guest": "Ann Ray", "why": "test"})
        assert r.status_code == 401, (rule, r.status_code)
        posted += 1
    for name in ("bell", "check-in", "annul", "correct", "add-staff", "draw-seats"):
        assert client.post(f"/console/act/{name}", data={"csrf_token": token}).status_code == 401
    assert posted >= 7 and hub.seq == seq


def test_every_form_without_its_csrf_token_is_refused(app, console, hub):
    make_party(hub, 2)
    seq = hub.seq
    for endpoint, rule, args in rules(app, "POST"):
        target = url(app, endpoint, args)
        assert console.post(target, data={"action_id": "0" * 16, "meaning": "stop"}).status_code == 400, rule
        assert console.post(target, data={"csrf_token": "forged", "meaning": "stop"}).status_code == 400, rule
    assert hub.seq == seq


def test_a_malformed_csrf_token_is_refused_as_a_wrong_one(app, console, hub):
    """Issue 24: a token with a character that is not ASCII (sent by anyone, signed in or not)
    made `hmac.compare_digest` raise, a 500 and a traceback on every POST; it is a 400 like
    any wrong token, by form field and by header, and nothing is recorded."""
    make_party(hub, 2)
    seq, posted = hub.seq, 0
    signed_out = app.test_client()
    signed_out.get("/console/login")                       # a session with its own token
    targets = [url(app, endpoint, args) for endpoint, rule, args in rules(app, "POST")]
    targets += [f"/console/act/{name}" for name in ACTIONS]      # each console action by its name
    for target in targets:
        for client in (console, signed_out):
            for token in ("é" * 43, "\u2603", "\x00\xff"):
                r = client.post(target, data={"csrf_token": token, "action_id": "0" * 16, "meaning": "stop"})
                assert r.status_code == 400 and "security token" in r.get_data(as_text=True), (target, token)
            r = client.post(target, data="{}", content_type="application/json",
                            headers={"X-CSRF-Token": "\xe9t\xe9"})
            assert r.status_code == 400, target
        posted += 1
    assert posted >= 45 and hub.seq == seq


def test_a_keypad_link_with_a_malformed_token_is_not_found(app, hub):
    make_party(hub, 2)
    for token in ("\u00e9" * 20, "%C3%A9"):
        assert app.test_client().get(f"/keypad/1/{token}").status_code == 404


def test_a_get_changes_nothing(app, console, hub, room):
    make_party(hub, 2)
    room(2)
    seq, store = hub.seq, app.extensions["party.web_store"].path.read_bytes()
    for endpoint, rule, args in rules(app, "GET"):
        if endpoint in STREAMS or endpoint == "static":
            continue
        assert console.get(url(app, endpoint, args)).status_code < 500, rule
    assert hub.seq == seq and app.extensions["party.web_store"].path.read_bytes() == store


def test_the_password_is_kept_only_as_a_hash(app, client):
    sign_in(client)
    saved = app.extensions["party.web_store"].path.read_text()
    assert PASSWORD not in saved
    entry = json.loads(saved)["staff"][CONDUCTOR]
    assert entry["hash"].startswith(("scrypt:", "pbkdf2:"))
    assert "role" not in entry   # who may do what is the journal's alone (hub.role)


def test_a_wrong_password_does_not_sign_in(client):
    sign_in(client)
    client.post("/console/logout", data={"csrf_token": csrf_of(client.get("/console/").get_data(as_text=True))})
    html = client.get("/console/login").get_data(as_text=True)
    r = client.post("/console/login", data={"csrf_token": csrf_of(html), "login": CONDUCTOR, "password": "guess"})
    assert r.status_code == 200 and "Sign in: refused — wrong login or password." in r.get_data(as_text=True)
    assert client.get("/console/").status_code == 302


def test_the_console_cannot_be_set_up_twice(client):
    sign_in(client)
    other = client.application.test_client()
    html = other.get("/console/login").get_data(as_text=True)
    assert other.post("/console/setup", data={"csrf_token": csrf_of(html), "login": "mallory",
                                              "password": "x" * 10, "password2": "x" * 10}).status_code == 403


def test_a_party_created_from_the_command_line_keeps_its_conductor(client, hub):
    """`party run --tables` creates the party as staff:host; the console's first login must be host."""
    assert create_party(hub, tables=2, form="draw").ok
    html = client.get("/console/setup").get_data(as_text=True)
    assert 'value="host"' in html
    r = client.post("/console/setup", data={"csrf_token": csrf_of(html), "login": "florence",
                                            "password": PASSWORD, "password2": PASSWORD})
    assert "the party&#39;s conductor is host: use that login" in r.get_data(as_text=True)
    sign_in(client, "host")
    html = client.get("/console/guests").get_data(as_text=True)
    r = client.post("/console/act/list-guest", data={"csrf_token": csrf_of(html), "guest": "Ann Lee",
                                                     "action_id": action_id_of(html, "list-guest")},
                    follow_redirects=True)
    assert "Add a guest: done" in r.get_data(as_text=True)


def test_a_device_guessing_the_password_is_slowed_down_and_the_conductor_is_not(app, client, hub):
    """A guest's laptop on the party WiFi: after five wrong passwords it must wait, and is
    told so; even the right password is not checked meanwhile. Another device is not held up."""
    make_party(hub, 2)
    sign_in(client)
    client.post("/console/logout", data={"csrf_token": csrf_of(client.get("/console/").get_data(as_text=True))})
    now = [1000.0]
    app.extensions["party.login_throttle"].clock = lambda: now[0]

    def attempt(password: str, device: str = "10.0.0.66"):
        token = csrf_of(client.get("/console/login", environ_base={"REMOTE_ADDR": device}).get_data(as_text=True))
        return client.post("/console/login", data={"csrf_token": token, "login": CONDUCTOR, "password": password},
                           environ_base={"REMOTE_ADDR": device})

    for i in range(5):
        r = attempt(f"guess-{i}")
        assert r.status_code == 200 and "Sign in: refused — wrong login or password." in r.get_data(as_text=True)
    r = attempt(PASSWORD)
    assert r.status_code == 429 and "try again in 30 s" in r.get_data(as_text=True)
    assert client.get("/console/").status_code == 302          # not signed in
    assert attempt(PASSWORD, device="10.0.0.2").status_code == 302   # the conductor's own phone
    client.post("/console/logout", data={"csrf_token": csrf_of(client.get("/console/").get_data(as_text=True))})
    now[0] += 31
    assert attempt("guess-6").status_code == 200                  # one more try, wrong: wait again
    assert attempt(PASSWORD).status_code == 429
    now[0] += 31
    assert attempt(PASSWORD).status_code == 302                   # the right one, after the pause
