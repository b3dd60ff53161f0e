"""The door: the Guests page's list at a party of hundreds, found as a name is typed, each
action answered in place.

At a thousand guests the whole list, every row with its forms, was 1.85 MB of HTML that took
1.5 s to render and seconds more for the browser; every check-in reloaded it all. So the list
is never sent whole: the page holds the guests matching "Find a guest" (`?q=`), a page of
rows at a time (`?page=`); static/door.js asks `rows` for the matches as the name is typed,
and sends each action of the list (check in, walk-in, rename, has left, came back, undo...)
with the `X-Door` header, to which the console's view answers with `answer()`: only what
changed (the verdict, the rows of the guests concerned, the seats' section, the counts).
Without JavaScript each form is the plain POST it was, and the redirect brings the host back
to the same search and page, at the guest's row (`#g-...`).
"""
from __future__ import annotations

import hashlib
import unicodedata
from functools import lru_cache
from urllib.parse import parse_qs, urlsplit

from flask import Blueprint, current_app, get_flashed_messages, jsonify, render_template, request, url_for

from . import actions, security
from .pages import console as console_page, door as door_page
from .security import login_required
from .typed import kept_form

bp = Blueprint("door", __name__, url_prefix="/console/door")

PAGE = 25   # rows on a page: what a host scrolls at the door, and small enough to send at once


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """A name as it is looked for: case, accents and spacing aside ("jose  alvarez" finds José Álvarez)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def anchor(name: str) -> str:
    """A row's id, for the redirect's `#`: any name, in the characters an id allows."""
    return "g-" + hashlib.blake2s(name.encode(), digest_size=6).hexdigest()


class Listing:
    """Which guests the page shows: the search, the page of its matches, the printed cards' column."""

    def __init__(self, q: str = "", page: int = 1, cards: bool = False):
        self.q, self.page, self.cards = q.strip()[:100], max(1, page), cards

    @classmethod
    def of(cls, args) -> "Listing":
        page = args.get("page", "1")
        return cls(args.get("q", ""), int(page) if page.isdigit() else 1, args.get("cards") == "1")

    @classmethod
    def of_url(cls, url: str | None) -> "Listing":
        """The listing an action's `next` returns to (the page it was sent from)."""
        return cls.of({k: v[0] for k, v in parse_qs(urlsplit(url or "").query).items()})

    def url(self, page: int | None = None) -> str:
        page = self.page if page is None else page
        return url_for("console.guests", q=self.q or None, page=page if page > 1 else None,
                       cards=1 if self.cards else None)

    def names(self, state, also=()) -> list[str]:
        """The guests found, in the list's order; `also` those just acted on, found or not."""
        if not self.q:
            return list(state.guests)
        wanted = fold(self.q)
        return [n for n in state.guests if wanted in fold(n) or n in also]


def view(state, listing: Listing, also=()) -> dict:
    """The rows to show and what the page says of the rest."""
    names = listing.names(state, also)
    pages = max(1, -(-len(names) // PAGE))
    listing.page = min(listing.page, pages)
    shown = names[(listing.page - 1) * PAGE:listing.page * PAGE]
    return {"listing": listing, "guests": rows(state, shown), "matches": len(names), "pages": pages,
            "page_size": PAGE}


def rows(state, names: list[str]) -> list[dict]:
    return [{**g, "anchor": anchor(g["name"])} for g in door_page.guests(state, names)]


def by_hand(state, listing: Listing) -> bool:
    """The printed cards' forms: only while the host records them (a list of hundreds stays light)."""
    plan = door_page.draw_plan(state)
    return state.session is None and bool(plan and plan["in_hand"] or listing.cards)


def _hub():
    return current_app.extensions["party.hub"]


def _figures(hub) -> dict:
    """What the page's parts other than the list show, each check-in changing them: the counts,
    the seats section (console/door_draw.html), the last list's undo (console/door_batch.html)."""
    state = hub.state
    batch = security.store().last_batch()
    return {"p": console_page.overview(hub), "plan": door_page.draw_plan(state), "late": door_page.late_comer_plan(state),
            "partnership": bool(state.setup and state.setup.partnership),
            "batch": batch, "batch_removable": door_page.batch_removable(state, batch)}


def page_context(hub, listing: Listing) -> dict:
    """Everything console/guests.html shows."""
    state = hub.state
    return {**_figures(hub), **view(state, listing), "by_hand": by_hand(state, listing),
            "plan_coming": sum(r["coming"] for r in security.store().plan().get("replies", []))}


@bp.context_processor
def _globals():
    return {"new_action_id": actions.new_action_id}


@bp.get("/rows")
@login_required
def rows_found():
    """The rows matching the search as it is typed (static/door.js): the list's body and its pager."""
    hub, listing = _hub(), Listing.of(request.args)
    state = hub.state
    context = {**_figures(hub), **view(state, listing), "by_hand": by_hand(state, listing)}
    return jsonify(rows=render_template("console/door_rows.html", **context),
                   pager=render_template("console/door_pager.html", **context),
                   url=listing.url())


def in_place() -> bool:
    """The action was sent by static/door.js, which shows the answer where the host is."""
    return request.headers.get("X-Door") == "1"


def answer():
    """An action sent in place, answered with what it changed: the verdict (the flashes), the
    rows of the page it was sent from as they are now (a walk-in takes a seat another guest's
    row spoke of), the seats' section and the counts. A refused form stays on the page as typed
    (its kept copy is dropped: no page will be loaded to put it back), its wrong field named."""
    hub = _hub()
    state = hub.state
    listing = Listing.of_url(request.form.get("next"))
    kept = kept_form()
    flashes = get_flashed_messages(with_categories=True)
    # the guest acted on stays in sight: renamed out of the search, in its place; a walk-in
    # (the list's last) first on the page
    concerned = [n for n in (request.form.get("guest"), request.form.get("new_name")) if n in state.guests]
    shown = view(state, listing, also=concerned)
    on_page = {g["name"] for g in shown["guests"]}
    context = {**_figures(hub), **shown, "by_hand": by_hand(state, listing)}
    context["guests"] = rows(state, [n for n in dict.fromkeys(concerned) if n not in on_page]) + shown["guests"]
    p = context["p"]
    return jsonify(ok=not any(kind == "refused" for kind, _ in flashes),
                   flashes=render_template("console/flashes.html", messages=flashes),
                   rows=render_template("console/door_rows.html", **context),
                   pager=render_template("console/door_pager.html", **context),
                   seats=render_template("console/door_draw.html", **context),
                   last_list=render_template("console/door_batch.html", **context),
                   count=f"{p.get('checked_in', 0)} of {p.get('listed', 0)} checked in",
                   wrong=kept and kept.get("wrong"))
