"""CSRF on every state-changing request, the console's login, and who may do what.

CSRF: one random token per browser session, kept in the signed session cookie;
every POST must carry it back, as the form field `csrf_token` or the header
`X-CSRF-Token` (the phone keypad's fetch). A page from another site cannot read
it, so it cannot forge a console action or a keypad entry. GET never changes
anything, so only POST (and the other unsafe methods) are checked.

Roles: a login signs in with its password (web/store.py); what it may do is its role as the
journal has it, asked of the hub (`hub.role`: the party's creator its conductor, then the
staff events). A view for the conductor alone says so with `@conductor_only`, the one check.
"""
from __future__ import annotations

import functools
import hmac
import secrets

from flask import abort, current_app, g, redirect, request, session, url_for

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def check_csrf() -> None:
    """before_request: refuse an unsafe request whose token is missing or wrong."""
    if request.method in SAFE_METHODS:
        return
    sent = request.form.get("csrf_token") or request.headers.get("X-CSRF-Token") or ""
    expected = session.get("csrf") or ""
    if not expected or not same_secret(sent, expected):
        abort(400, description="The form's security token is missing or out of date: reload the page and try again.")


def same_secret(sent: str, expected: str) -> bool:
    """A constant-time comparison of a secret as sent with the one expected. As bytes:
    `hmac.compare_digest` raises TypeError on a str that is not ASCII, and a token sent by
    anyone is anything (a 500 where a wrong token is a 400)."""
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def store():
    return current_app.extensions["party.web_store"]


def load_login() -> None:
    """before_request: `g.login` is the signed-in staff login, if it still signs in."""
    login = session.get("login")
    g.login = login if login and store().signs_in(login) else None


def role() -> str | None:
    """The signed-in login's role, as the journal has it; None signed out or off the staff."""
    return current_app.extensions["party.hub"].role(g.get("login"))


def staff() -> dict[str, str]:
    """login -> role, as the journal has it (`hub.staff`)."""
    return current_app.extensions["party.hub"].staff()


def conductors() -> list[str]:
    """The logins the journal has as the party's conductors, sorted."""
    return sorted(who for who, r in staff().items() if r == "conductor")


class ConductorOnly(Exception):
    """A conductor's action asked by a login that is not one: the console refuses it in the
    host's words, as it refuses any action (web/console.py)."""

    def __init__(self, title: str):
        super().__init__(title)
        self.title = title


def conductor_only(title, when=None):
    """A view for the signed-in conductor alone. `title` names the action refused (or makes
    the name from the view's arguments); `when`, from the same arguments, says whether this
    request is one for the conductor alone (by default every one)."""
    def decorate(view):
        @functools.wraps(view)
        @login_required
        def wrapped(*args, **kwargs):
            if (when is None or when(**kwargs)) and role() != "conductor":
                raise ConductorOnly(title(**kwargs) if callable(title) else title)
            return view(*args, **kwargs)
        return wrapped
    return decorate


def login_required(view):
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if g.login is None:
            if request.method in SAFE_METHODS:
                return redirect(url_for("console.login", next=request.path))
            abort(401, description="Sign in to the console first.")
        return view(*args, **kwargs)
    return wrapped


def sign_in(login: str) -> None:
    session.clear()  # a fresh session (and CSRF token) at every sign-in
    session["login"] = login
    session.permanent = True


def sign_out() -> None:
    session.clear()


def keypad_token(table: int) -> str:
    """The token in a table's keypad URL (its QR code): binds a phone to that table only."""
    key = store().secret.encode()
    return hmac.new(key, f"keypad:{table}".encode(), "sha256").hexdigest()[:20]


def keypad_table(table: int, token: str) -> bool:
    return same_secret(token, keypad_token(table))
