"""Printed pages: the book's score-cards and table markers, on A4 and Letter.

Book: 000_ff8a6ed40036e836.txt, "SCORE-CARDS" (the pattern: "TABLE 1 A. Name, .....
NUMBER OF SIXTEENTHS WON:— I SESSION 1 Game ... 4 Game, II SESSION: Table..... ,
Total"; "Number the score-cards successively Table 1 A, B, C, D; Table 2 A ...") and
"TABLE MARKERS" ("cards having on both sides large numbers").
"""
from __future__ import annotations

import re

import pytest

from party.hands import draw_game

from .conftest import make_party
from .test_console_browser import sign_in_page

pytestmark = pytest.mark.broker

A4, LETTER = (595, 842), (612, 792)   # points


def pdf_pages(page, path: str) -> list[tuple[int, int]]:
    page.goto(path)
    pdf = page.pdf(prefer_css_page_size=True)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([0-9.]+) ([0-9.]+)\s*\]", pdf)
    return [(round(float(w)), round(float(h))) for w, h in boxes]


def test_score_cards_follow_the_books_pattern(hub, console, room):
    make_party(hub, 2)
    t = room(1)[0]
    assert t.ack_for(t.key_form(draw_game(1, 1), game=1))["ok"]
    html = console.get("/print/score-cards").get_data(as_text=True)
    labels = re.findall(r'data-card="([^"]+)"', html)
    assert labels == [f"TABLE {n} {s}" for n in (1, 2) for s in "ABCD"]
    card = " ".join(html.split('data-card="TABLE 1 A"')[1].split("</table>")[0].split())
    assert "<h2>TABLE 1 A.</h2>" in card and "Name, <span>" in card
    assert "NUMBER OF NOTE-VALUES WON:—" in card
    assert card.count("1 Game") == 3 and card.count("4 Game") == 3   # three sessions of four games
    assert "I SESSION" in card and "II SESSION<br><span class=\"place\">Table .....</span>" in card
    assert "Total," in card


@pytest.mark.parametrize("paper, size", [("a4", A4), ("letter", LETTER)])
def test_markers_and_cards_print_on_the_chosen_paper(hub, server, page, paper, size):
    make_party(hub, 3)
    sign_in_page(page, server.url)
    assert pdf_pages(page, f"{server.url}print/markers?paper={paper}") == [size] * 3    # one marker a page
    assert pdf_pages(page, f"{server.url}print/score-cards?paper={paper}") == [size] * 3  # four cards a page
    assert len(pdf_pages(page, f"{server.url}print/results?paper={paper}")) == 1


def test_the_markers_warn_in_red_when_their_codes_point_to_this_machine_itself(hub, app, console):
    """Issue 10: "the QR codes on the table markers point to http://127.0.0.1:… when the
    console is opened on the hub machine, with no option and no warning"."""
    make_party(hub, 2)
    page = console.get("/print/markers").get_data(as_text=True)   # the test client asks for localhost
    assert 'class="noprint loopback" role="alert"' in page and "a guest's phone cannot reach it" in page
    app.config["PUBLIC_URL"] = "http://192.168.1.10:8080/"
    page = console.get("/print/markers").get_data(as_text=True)
    assert "loopback" not in page
    assert re.findall(r'<p class="noprint url">([^<]+)</p>', page)[0].startswith("http://192.168.1.10:8080/keypad/1/")


def test_the_public_address_is_the_one_given_else_the_lan_address_when_listening_everywhere():
    from web.server import is_loopback, lan_address, public_url
    assert public_url("0.0.0.0", 8080, "http://party.local:8080") == "http://party.local:8080/"
    assert public_url("127.0.0.1", 8080) == "http://127.0.0.1:8080/" and is_loopback("http://127.0.0.1:8080/")
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no network route")
    assert public_url("0.0.0.0", 8080) == f"http://{lan}:8080/" and not is_loopback(f"http://{lan}:8080/")
