"""CSRF on every state-changing request, and the console's login.

CSRF: one random token per browser session, kept in the signed session cookie;
every POST must carry it back, as the form field `csrf_token` or the header
`X-CSRF-Token` (the phone keypad's fetch). A page from another site cannot read
it, so it cannot forge a console action or a keypad entry. GET never changes
anything, so only POST (and the other unsafe methods) are checked.
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
    """before_request: `g.login` is the signed-in staff login, if it still exists."""
    login = session.get("login")
    g.login = login if login and login in store().staff() else None


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
