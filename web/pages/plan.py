"""The plan (the console's first page): the invitation and its replies, from which the tables
are planned. The one thing computed here rather than asked of the conductor, because it
comes before there is a party."""
from __future__ import annotations

import math
import re

from hub.conductor.setup import FORMS, PARTNERSHIP_FORMS, book_prizes

from ..actions import BadForm, number, text
from .words import FORM_NAMES


REPLY = re.compile(r"^\s*(?P<name>[^,;:]+?)\s*[,;:]\s*(?P<answer>yes|no|y|n|coming|not coming)\s*$", re.I)


def plan_from_form(form) -> dict:
    game = text(form, "form", limit=20)
    if game not in FORMS:
        raise BadForm("form", "choose one of the book's forms.")
    replies, unread = [], []
    for line in (form.get("replies") or "").splitlines():
        if not line.strip():
            continue
        m = REPLY.match(line)
        if not m:
            unread.append(line.strip())
            continue
        replies.append({"name": " ".join(m["name"].split()),
                        "coming": m["answer"].lower() in ("yes", "y", "coming")})
    if unread:
        raise BadForm("replies", f"cannot read {unread[0]!r}: write one a line, 'Name, yes' or 'Name, no'.")
    replies, twice = once_each(replies)
    plan = {"title": text(form, "title", required=False, limit=60) or "Musical Domino Party",
            "host": text(form, "host", limit=120), "when": text(form, "when", limit=120),
            "hour": text(form, "hour", required=False, limit=60) or "at eight o'clock",
            "address": text(form, "address", limit=300), "form": game,
            "reply_days": number(form, "reply_days", required=False, low=1, high=60) or 2,
            "replies": replies}
    plan.update(plan_tables(game, sum(r["coming"] for r in replies)), twice=twice)
    return plan


def once_each(replies: list[dict]) -> tuple[list[dict], list[str]]:
    """Each person's reply once (the same name, whatever its spaces), his last answer standing
    where he first replied; and the names that replied more than once. A name spelled
    otherwise ("ann lee" beside "Ann Lee") may be another person: the guest list asks."""
    kept: dict[str, dict] = {}
    twice = []
    for r in replies:
        key = r["name"]
        if key not in kept:
            kept[key] = r
            continue
        first = kept[key]["name"]
        twice += [first] if first not in twice else []
        kept[key] = dict(r, name=first)
    return list(kept.values()), twice


def plan_tables(game: str, coming: int) -> dict:
    """Tables and prizes for `coming` guests. "In a party four persons play at a table";
    "three or two players may be seated" at the last one (LIST) — but "There must always
    be four players at each table" in the partnership forms (BERGEN GAME)."""
    tables = math.ceil(coming / 4) if coming else 0
    last = coming - 4 * (tables - 1) if tables else 0
    warning = ""
    if game in PARTNERSHIP_FORMS and coming % 4:
        warning = f"{FORM_NAMES[game]} needs four at every table: {4 - coming % 4} more guest(s) wanted."
    elif tables and last == 1:
        warning = "One guest would sit alone at the last table: invite one more, or ask one to stay out."
    return {"coming": coming, "tables": tables, "prizes": book_prizes(tables) if tables else 0,
            "last_table": last, "warning": warning}
