"""The season's pages where something is missing or wrong: no club's record, a member who
played no night, a link the host got wrong; each said in words where the host is."""
from __future__ import annotations

import html as html_text
import io
import json

import pytest

from web import create_app

from ..season.club_nights import build_club
from .conftest import csrf_of, make_party, sign_in

pytestmark = pytest.mark.broker


def test_without_a_club_the_pages_say_how_to_have_one(client, console):
    for url in ("/season/", "/console/season"):
        html = client.get(url).get_data(as_text=True)
        assert "party run --club FILE" in html
    assert client.get("/console/season/season.csv").status_code == 404


def test_a_wrong_link_is_refused_and_the_club_unchanged(hub, tmp_path):
    club, _, _ = build_club(tmp_path)
    make_party(hub, tables=1, names=["Ann Parker", "Zelda Quinn", "Dora Bradley", "Edith Pell"])
    client = sign_in(create_app(hub, TESTING=True, WEB_STORE=tmp_path / "web.json", CLUB=str(club)).test_client())
    before = club.read_text()
    assert client.get("/season/member/99").status_code == 404   # no such member this season
    html = client.get("/console/season").get_data(as_text=True)
    for guest, member, said in (("Nobody", "1", "no guest 'Nobody' on tonight's list"),
                                ("Zelda Quinn", "x", "a member number or 'new', not 'x'"),
                                ("Zelda Quinn", "99", "no member number 99")):
        r = client.post("/console/season/link", data={"csrf_token": csrf_of(html), "guest": guest, "member": member},
                        follow_redirects=True)
        assert f"Link: refused — {said}" in html_text.unescape(r.get_data(as_text=True))
    assert club.read_text() == before
    r = client.post("/console/season/link", data={"csrf_token": csrf_of(html), "guest": "Zelda Quinn", "member": "new"},
                    follow_redirects=True)
    assert "Zelda Quinn is member 42" in r.get_data(as_text=True)
    doc = json.loads(club.read_text())
    assert doc["parties"][-1] == {"name": "journal", "journal": "journal.sqlite3", "links": {"Zelda Quinn": 42}}
    assert doc["seasons"][0]["parties"][-1] == "journal"


def test_tonights_guests_linked_by_the_member_numbers_of_their_list(hub, tmp_path):
    """The guest list as the club exports it, with its members' numbers: each guest on tonight's
    list linked to his number; a number the roster lacks, or a name not on tonight's list, said."""
    club, _, _ = build_club(tmp_path)
    make_party(hub, tables=1, names=["Ann Parker", "Zelda Quinn", "Dora Bradley", "Edith Pell"])
    client = sign_in(create_app(hub, TESTING=True, WEB_STORE=tmp_path / "web.json", CLUB=str(club)).test_client())
    html = client.get("/console/season").get_data(as_text=True)
    assert "Link by member numbers" in html
    # a Windows-1252 file, semicolons, as a European Excel writes it
    data = "Name;Member number\r\nAnn Parker;1\r\nZelda Quinn;77\r\nNobody;3\r\nEdith Pell;\r\nDora Bradley;4\r\n"
    r = client.post("/console/season/numbers", data={"csrf_token": csrf_of(html),
                    "file": (io.BytesIO(data.encode("cp1252")), "guests.csv")},
                    content_type="multipart/form-data", follow_redirects=True)
    said = html_text.unescape(r.get_data(as_text=True))
    assert "Link by member numbers: done — 2 guests linked" in said
    assert "Not linked: line 3: no member number '77'; line 4: 'Nobody' is not on tonight's list" in said
    assert json.loads(club.read_text())["parties"][-1]["links"] == {"Ann Parker": 1, "Dora Bradley": 4}
    r = client.post("/console/season/numbers", data={"csrf_token": csrf_of(html),
                    "file": (io.BytesIO(b"Ann Parker\nDora Bradley\n"), "guests.csv")},
                    content_type="multipart/form-data", follow_redirects=True)
    assert "refused — its first row names no name column and member-number column" in r.get_data(as_text=True)
