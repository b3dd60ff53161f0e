"""Guest lists as hosts' files really are: read right, looked over, then added.

Issue 10: "a semicolon CSV imports its header as a guest, a Latin-1 file gives a
raw `'utf-8' codec can't decode byte 0xeb` error, duplicates and over-long names
are dropped without a word, "Ann Lee" / "ann lee" / "Ann  Lee" become three
guests"; "the plan's replies never become the guest list".
The book (000_ff8a6ed40036e836.txt, LIST): "a list of the guests is prepared",
and the conductor "checks off the names of the persons who have arrived".
"""
from __future__ import annotations

import codecs
import io

import pytest
from .conftest import action_id_of, csrf_of, make_party
from .test_console import act, journal

from hub.conductor import events as ev
from web import guest_list

NAMES = ["Zoë Quill", "Renée Fürst", "Ann Lee"]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
@pytest.mark.parametrize("encoding, prefix, said", [
    ("utf-8", b"", "UTF-8"), ("utf-8", codecs.BOM_UTF8, "UTF-8 with a byte-order mark"),
    ("cp1252", b"", "Windows-1252"), ("utf-16", b"", "UTF-16")])
def test_every_delimiter_and_encoding_a_spreadsheet_writes_is_read_with_its_header(delimiter, encoding, prefix, said):
    text = "\r\n".join([f"Name{delimiter}E-mail{delimiter}Phone"] +
                       [f"{n}{delimiter}{n[:3].lower()}@example.org{delimiter}555-01{i}" for i, n in enumerate(NAMES)])
    look = guest_list.preview(prefix + text.encode(encoding), listed=[])
    assert [r.name for r in look.new] == NAMES          # the header is no guest; accents intact
    assert look.encoding == said and look.header.startswith("Name")
    assert look.delimiter == {",": "comma", ";": "semicolon", "\t": "tab"}[delimiter]


def test_a_latin1_file_with_a_byte_windows_leaves_undefined_is_read_as_latin1():
    data = "Zoë Quill\nA\x81bel Poe\n".encode("latin-1")
    look = guest_list.preview(data, listed=[])
    assert look.encoding == "Latin-1" and look.new[0].name == "Zoë Quill" and look.header == ""


def test_first_and_last_name_columns_make_one_name():
    look = guest_list.preview("First name;Last name\nAnn;Lee\nBob;Ray\n".encode(), listed=[])
    assert [r.name for r in look.new] == ["Ann Lee", "Bob Ray"]


def test_the_preview_sorts_duplicates_near_duplicates_and_refused_rows_with_their_reasons():
    text = "name;note\nAnn Lee;\nann  lee;cousin?\nBob Ray;\nAnn Lee;twice\n;no name\n" + "X" * 81 + ";\nCora Fox;\n"
    look = guest_list.preview(text.encode("cp1252"), listed=["Cora Fox"])
    assert [(r.line, r.name) for r in look.new] == [(2, "Ann Lee"), (4, "Bob Ray")]
    assert [(r.line, r.name, r.reason) for r in look.near] == [(3, "ann lee", "like 'Ann Lee'")]
    assert [(r.line, r.reason) for r in look.duplicates] == [(5, "the same as line 2"), (8, "already on the guest list")]
    assert [(r.line, r.reason) for r in look.refused] == [(6, "no name in the name column"),
                                                          (7, "longer than 80 characters")]


def test_the_console_previews_then_adds_only_what_the_host_agreed_to(hub, console):
    make_party(hub, 3, guests=9, start=False)
    data = "Nom;Téléphone\r\nZoë Quill;1\r\nzoë  quill;2\r\nRenée Fürst;3\r\nRenée Fürst;4\r\n".encode("cp1252")
    html = act(console, "/console/guests", "import-guests", {}, url="/console/guests/import",
               files={"file": (io.BytesIO(data), "gäste.csv")})
    assert "Windows-1252" in html and "semicolon-separated" in html and "Add 2 guests" in html
    assert 'data-near="zoë quill"' in html and 'data-duplicate="Renée Fürst"' in html
    before = len(journal(hub, ev.GUEST_LISTED))
    html = console.post("/console/guests/add", data={
        "csrf_token": csrf_of(html), "action_id": action_id_of(html, "add-guests"),
        "guest": ["Zoë Quill", "Renée Fürst"], "similar": ["zoë quill"]}, follow_redirects=True).get_data(as_text=True)
    assert "Import the guest list: 3 added." in html
    added = [e.body for e in journal(hub, ev.GUEST_LISTED)][before:]
    assert added == [{"guest": "Zoë Quill"}, {"guest": "Renée Fürst"}, {"guest": "zoë quill", "similar_ok": True}]


def test_the_plans_yes_replies_become_the_guest_list_in_one_click(hub, console):
    replies = "Ann Lee, yes\nBob Ray, no\nCora Fox, yes\nann lee, yes\nDan Poe, yes\n"
    html = console.get("/console/").get_data(as_text=True)
    console.post("/console/plan", data={"csrf_token": csrf_of(html), "host": "Miss Florence Walker",
                                        "when": "Thursday Evening", "form": "draw",
                                        "address": "61 Dayton Street.", "replies": replies})
    html = act(console, "/console/", "create-party", {"form": "draw", "tables": "1"}, url="/console/party")
    html = act(console, "/console/guests", "guests-from-plan", {}, url="/console/guests/from-plan")
    assert "Guests from the replies: 3 added." in html
    assert "left out — ann lee (like &#39;Ann Lee&#39;)" in html
    assert [e.body["guest"] for e in journal(hub, ev.GUEST_LISTED)] == ["Ann Lee", "Cora Fox", "Dan Poe"]
