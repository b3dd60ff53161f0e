"""What was typed into a refused form, given back to the page so nothing is typed twice.

A refused form redirects back to its page (a reload never repeats an action),
so what was typed is kept on the server for that browser's next page, keyed by
a random token in its session cookie (a plan with its replies would not fit in
a cookie). The page puts it back into the form of that name (`data-action`)
whose hidden fields match (the row's guest, the result's entry), and marks the
field that was wrong (static/typed.js): every console form, with no template of
its own to change. Passwords and the form's one-time ids are never kept.
"""
from __future__ import annotations

import secrets
from collections import OrderedDict

from flask import current_app, session

NEVER_KEPT = frozenset({"csrf_token", "action_id", "password", "password2", "next"})
_KEEP_AT_MOST = 200   # browsers with a refused form waiting to be shown again


def keep(name: str, form, wrong: str | None = None) -> None:
    """Remember what was typed into the form `name` (and which field was wrong) for this browser's next page."""
    kept = current_app.extensions.setdefault("party.typed", OrderedDict())
    token = session.get("typed") or secrets.token_urlsafe(12)
    session["typed"] = token
    kept[token] = {"form": name, "wrong": wrong,
                   "values": {k: form.get(k) for k in form if k not in NEVER_KEPT}}
    kept.move_to_end(token)
    while len(kept) > _KEEP_AT_MOST:
        kept.popitem(last=False)


def kept_form() -> dict | None:
    """The refused form kept for this browser, once: {"form", "wrong", "values"}; None if there is none."""
    token = session.pop("typed", None)
    return current_app.extensions.get("party.typed", {}).pop(token, None) if token else None
