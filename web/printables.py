"""Pages to print (A4 or Letter, print CSS): invitations, score-cards, table markers, results.

All of them are the book's (000_ff8a6ed40036e836.txt, "HOW TO GIVE MUSICAL
DOMINO PARTIES"): the invitation with the form chosen, the prizes and a reply
by a date ("INVITATIONS"); four score-cards a table, "Table 1 A, B, C, D"
("SCORE-CARDS"); "cards having on both sides large numbers" ("TABLE MARKERS"),
here folded as a tent, each side with the QR code of the table's phone keypad.
Every page is behind the console's login: a marker carries its keypad's token.
"""
from __future__ import annotations

import segno
from flask import Blueprint, current_app, render_template, request, url_for

from . import security
from .pages import console as console_page, printables as printables_page, results as results_page
from .security import login_required
from .server import is_loopback

bp = Blueprint("printables", __name__, url_prefix="/print")

PAPERS = {"a4": "A4", "letter": "letter"}


def _hub():
    return current_app.extensions["party.hub"]


def _paper() -> str:
    return PAPERS.get(request.args.get("paper", "a4"), "A4")


def public_base() -> str:
    """The hub's address as a phone must reach it: PUBLIC_URL (`party run` sets it: --public-url,
    or the LAN address), else the address this page was asked for."""
    return (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/") + "/"


def keypad_url(table: int) -> str:
    path = url_for("keypad.page", table=table, token=security.keypad_token(table))
    return public_base().rstrip("/") + path


def qr_svg(data: str) -> str:
    return segno.make(data, error="m").svg_inline(border=2, dark="#000", light="#fff", omitsize=True)


@bp.get("/invitations")
@login_required
def invitations():
    plan = security.store().plan()
    copies = max(1, min(int(request.args.get("copies", 2) or 2), 200))
    return render_template("print/invitations.html", paper=_paper(), plan=plan,
                           invitation=printables_page.invitation_text(plan), copies=copies)


@bp.get("/score-cards")
@login_required
def score_cards():
    return render_template("print/score_cards.html", paper=_paper(), cards=printables_page.score_cards(_hub().state))


@bp.get("/markers")
@login_required
def markers():
    tables = console_page.table_numbers(_hub().state)
    only = request.args.get("table", type=int)
    if only:
        tables = [t for t in tables if t == only]
    marks = [{"table": t, "url": keypad_url(t), "qr": qr_svg(keypad_url(t))} for t in tables]
    return render_template("print/markers.html", paper=_paper(), markers=marks, base=public_base(),
                           loopback=is_loopback(public_base()))


@bp.get("/results")
@login_required
def results():
    return render_template("print/results.html", paper=_paper(), r=results_page.results(_hub()))
