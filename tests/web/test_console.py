"""The conductor's console through its forms: every action journaled under its author's login.

Book passages cited are from 000_ff8a6ed40036e836.txt (Grimm, "HOW TO GIVE
MUSICAL DOMINO PARTIES").
"""
from __future__ import annotations

import csv
import io

import pytest

from party.hands import draw_game as game

from .conftest import CONDUCTOR, action_id_of, csrf_of, make_party, sign_in, submit

from hub.conductor import events as ev
from hub.journal import open_reader, read_events

pytestmark = pytest.mark.broker


def act(client, page: str, action: str, data: dict, url: str | None = None, files=None):
    """Fill and send the form `action` as rendered on `page` (its CSRF token and one-time id)."""
    html = client.get(page).get_data(as_text=True)
    form = {"csrf_token": csrf_of(html), "action_id": action_id_of(html, action), "next": page, **data}
    if files:
        form.update(files)
    r = client.post(url or f"/console/act/{action}", data=form, follow_redirects=True,
                    content_type="multipart/form-data" if files else None)
    return r.get_data(as_text=True)


def journal(hub, kind: str):
    return [e for e in hub.journal.events() if e.kind == kind]


def test_a_party_run_from_the_console_records_who_did_each_thing(hub, console, app):
    html = act(console, "/console/", "create-party", {"form": "block", "tables": "2"}, url="/console/party")
    assert "Create the party: done — PARTY CREATED" in html
    # its receipt (issue 24): the journal's seq of the action and the last six of its seal,
    # as a board shows one
    seq, seal = hub.journal.head
    assert f"done — PARTY CREATED · receipt {seq} {seal[-6:]}" in html
    act(console, "/console/guests", "list-guest", {"guest": "Ann Lee"})
    act(console, "/console/staff", "add-staff", {"login": "stella", "password": "hackberry-193", "role": "assistant"},
        url="/console/staff")
    assistant = sign_in(app.test_client(), "stella", "hackberry-193")
    act(assistant, "/console/guests", "check-in", {"guest": "Ann Lee"})

    assert [(e.kind, e.source) for e in hub.journal.events()] == [
        (ev.PARTY_CREATED, f"staff:{CONDUCTOR}"), (ev.GUEST_LISTED, f"staff:{CONDUCTOR}"),
        (ev.STAFF_ADDED, f"staff:{CONDUCTOR}"), (ev.CHECKED_IN, "staff:stella")]
    # "When the party is very large he may require an ASSISTANT" — who may not add staff.
    html = act(assistant, "/console/guests", "list-guest", {"guest": "Bob Ray"})
    assert "Add a guest: done" in html
    assert "A login for an assistant" not in assistant.get("/console/staff").get_data(as_text=True)


def test_a_form_sent_twice_is_recorded_once(hub, console):
    make_party(hub, 2, start=False)
    html = console.get("/console/").get_data(as_text=True)
    form = {"csrf_token": csrf_of(html), "action_id": action_id_of(html, "start-session"), "session": "1"}
    first = console.post("/console/act/start-session", data=form, follow_redirects=True).get_data(as_text=True)
    again = console.post("/console/act/start-session", data=form, follow_redirects=True).get_data(as_text=True)
    assert "done — SESSION 1" in first and "done" in again   # acknowledged again, as a resend is
    assert len(journal(hub, ev.SESSION_STARTED)) == 1


def test_the_guest_list_is_imported_from_csv_and_late_comers_get_the_last_seats(hub, console):
    """LIST: the conductor "checks off the names of the persons who have arrived";
    "Late-comers will have to be satisfied to receive vacant seats at the last tables"."""
    make_party(hub, 3, guests=9)
    data = "name,email\nZoe Quill,z@example.org\n  Yul   Brand ,\nZoe Quill,\n\nXan Tor,\n"
    html = act(console, "/console/guests", "import-guests", {}, url="/console/guests/import",
               files={"file": (io.BytesIO(data.encode()), "guests.csv")})
    assert "Add 3 guests" in html and len(journal(hub, ev.GUEST_LISTED)) == 9   # a preview: nothing added yet
    html = console.post("/console/guests/add", data={
        "csrf_token": csrf_of(html), "action_id": action_id_of(html, "add-guests"),
        "guest": ["Zoe Quill", "Yul Brand", "Xan Tor"]}, follow_redirects=True).get_data(as_text=True)
    assert "Import the guest list: 3 added." in html
    listed = [e.body["guest"] for e in journal(hub, ev.GUEST_LISTED)][-3:]
    assert listed == ["Zoe Quill", "Yul Brand", "Xan Tor"]
    html = act(console, "/console/guests", "check-in", {"guest": "Yul Brand"})
    assert "Check in: done — TABLE 3" in html   # the last table, the vacant seats


def test_a_correction_needs_a_reason_and_records_it(hub, console, room):
    make_party(hub, 2)
    t = room(1)[0]
    entry = t.key_form(game(1, 1), game=1)
    assert t.ack_for(entry)["ok"]
    values = {f"value.{k}": str(v) for k, v in game(1, 1).items()}
    html = act(console, "/console/corrections", "correct", {"entry": entry, **values, "why": ""})
    assert "Correct a result: refused — Why: please fill it in." in html
    values["value.B"] = str(int(values["value.B"]) + 4)
    html = act(console, "/console/corrections", "correct", {"entry": entry, **values, "why": "B counted again"})
    assert "Correct a result: done" in html, html[-2000:]
    (fix,) = journal(hub, ev.RESULT_CORRECTED)
    assert fix.source == f"staff:{CONDUCTOR}" and fix.body["why"] == "B counted again"
    assert "corrected by staff:florence: B counted again" in console.get("/console/corrections").get_data(as_text=True)


def test_results_are_exported_as_csv_and_json(hub, console, room):
    make_party(hub, 2)
    for t in room(2):
        assert t.ack_for(t.key_form(game(t.table, 1), game=1))["ok"]
    data = console.get("/console/export.csv").get_data()
    assert data.startswith("\ufeff".encode())   # Excel reads it as UTF-8
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert len(rows) == 8 and rows[0]["rank"] == "1"
    assert [int(r["total"]) for r in rows] == sorted((int(r["total"]) for r in rows), reverse=True)
    assert int(rows[0]["total"]) == int(rows[0]["session 1"]) > 0
    data = console.get("/console/export.json").get_json()
    assert data["seq"] == hub.seq and data["ranking"][0]["name"] == rows[0]["name"]
    assert data["party"]["setup"]["form"] == "draw"


@pytest.mark.parametrize("coming, tables, last, warned", [(8, 2, 4, False), (10, 3, 2, False),
                                                          (11, 3, 3, False), (13, 4, 1, True)])
def test_the_replies_plan_the_tables(console, coming, tables, last, warned):
    """INVITATIONS: the replies make it "possible to ascertain in advance how many TABLES are
    necessary"; "four persons play at a table"; LIST: "three or two players may be seated"
    at the last table (so one alone is a problem to solve before the party)."""
    replies = "\n".join([f"Guest {i}, yes" for i in range(coming)] + ["Nobody Home, no"])
    html = console.get("/console/").get_data(as_text=True)
    r = console.post("/console/plan", data={"csrf_token": csrf_of(html), "host": "Miss Florence Walker",
                                            "when": "Thursday Evening, February 22, 1894", "form": "block",
                                            "address": "at her home, 61 Dayton Street.", "replies": replies},
                     follow_redirects=True).get_data(as_text=True)
    assert f"The plan: {coming} coming, {tables} tables." in r
    assert f'data-plan-tables>{tables}<' in r and f"(last table {last})" in r
    assert ("would sit alone" in r) == warned


def test_the_invitation_follows_the_books_pattern(console):
    """INVITATIONS: "You are cordially invited to participate in a Musical Domino Party, given by
    ...", reverse: "The Block Game is the form of game chosen for this party. Prizes will be
    awarded to the three lucky players gaining the highest amounts of note-values. Please
    send word within two days whether you can be present or not." (three prizes: more than
    six tables, PRIZES)."""
    replies = "\n".join(f"Guest {i}, yes" for i in range(28))
    html = console.get("/console/").get_data(as_text=True)
    console.post("/console/plan", data={"csrf_token": csrf_of(html), "host": "Miss Florence Walker",
                                        "when": "Thursday Evening, February 22, 1894", "form": "block",
                                        "address": "at her home, 61 Dayton Street.", "replies": replies})
    page = " ".join(console.get("/print/invitations").get_data(as_text=True).split())
    for text in ("You are cordially invited<br>to participate in a", "Musical Domino Party,",
                 "MISS FLORENCE WALKER,", "Thursday Evening, February 22, 1894,<br>at eight o&#39;clock,",
                 "<strong>The Block Game</strong> is the form of game chosen for this party.",
                 "Prizes will be awarded to the three lucky players gaining the highest amounts of note-values.",
                 "Please send word within 2 days whether you can be present or not.", "[OVER.]"):
        assert text in page, text


def test_a_table_calls_and_the_bell_is_undone_and_a_game_annulled_each_on_record(hub, console, room):
    """The table's call (a long press of its bell button) reaches the console; the conductor's
    mends — undo a bell, annul the game in hand ("the conductor or his assistant will have to
    annul the game", FIRST SESSION) — each need a reason and record who gave it."""
    make_party(hub, 2)
    t = room(1)[0]
    assert t.ack_for(t.send("call", {}))["ok"]
    html = act(console, "/console/", "answer-call", {"table": "1"})
    assert "Answer a call: done" in html
    act(console, "/console/", "bell", {"meaning": "finish"})
    bell = hub.standings()[1]["session"]["bell"]["id"]
    assert "Undo the bell: refused — Why: please fill it in." in act(console, "/console/", "undo-bell", {"bell": bell, "why": " "})
    assert "Undo the bell: done" in act(console, "/console/", "undo-bell", {"bell": bell, "why": "rung by mistake"})
    assert "Annul a game: done" in act(console, "/console/corrections", "annul",
                                       {"table": "2", "why": "a wrong match unobserved"})
    mends = {e.kind: e for e in hub.journal.events() if e.source == f"staff:{CONDUCTOR}"}
    assert mends[ev.CALL_ANSWERED].body == {"table": 1}
    assert mends[ev.BELL_UNDONE].body == {"bell": bell, "why": "rung by mistake"}
    assert mends[ev.GAME_ANNULLED].body == {"table": 2, "why": "a wrong match unobserved"}


def test_the_csv_names_each_prize_and_no_name_runs_as_a_formula(hub, console, room):
    """PRIZES: "for more than three tables, have two prizes" — and one of the four tables'
    guests named like a spreadsheet formula is exported as text (OWASP: CSV injection)."""
    names = make_party(hub, 4, guests=15)
    evil = "=HYPERLINK(\"http://x.example\",\"Zoë\")"
    submit(hub, ev.GUEST_LISTED, {"guest": evil})
    submit(hub, ev.CHECKED_IN, {"guest": evil})
    for t in room(4):
        assert t.ack_for(t.key_form(game(t.table, 1), game=1))["ok"]
    rows = list(csv.DictReader(io.StringIO(console.get("/console/export.csv").get_data().decode("utf-8-sig"))))
    assert {r["name"] for r in rows} == set(names) | {"'" + evil}
    awards = console.get("/console/export.json").get_json()["prizes"]
    won = {a["winner"]: a["label"] for a in awards if a["winner"]}
    assert won and {r["name"].lstrip("'"): r["prize"] for r in rows if r["prize"]} == won
    assert sorted(won.values()) == sorted(["First prize", "Second prize"][:len(won)])


def test_the_journal_downloads_as_a_consistent_sqlite_copy_that_replays(hub, console, room, tmp_path):
    make_party(hub, 2)
    for t in room(2):
        assert t.ack_for(t.key_form(game(t.table, 1), game=1))["ok"]
    r = console.get("/console/journal.sqlite3")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    copy = tmp_path / "backup.sqlite3"
    copy.write_bytes(r.get_data())
    db = open_reader(copy)
    events = list(read_events(db))
    db.close()
    assert [e.id for e in events] == [e.id for e in hub.journal.events()][:len(events)]
    assert len(events) == hub.seq


def test_a_bergen_party_from_the_console_keys_its_points_as_they_are_made(hub, console):
    """BERGEN GAME party (000_ff8a6ed40036e836.txt): "Ten points made at any table ends a
    session, whereupon the bell is rung, and all tables stop playing at once": the console
    sets the party up so the tables key each header as it is made (docs/firmware.md)."""
    html = act(console, "/console/", "create-party", {"form": "bergen", "tables": "2", "in_play": "1"},
               url="/console/party")
    assert "Create the party: done" in html
    assert hub.state.setup.in_play == "each"


def test_a_mexican_train_party_from_the_console_with_the_clubs_rules(hub, console):
    """Issue 27: the clubs' rules as the host chooses them on the console: the winner-moves
    variant, "timed games of 60 minutes" stopped at the bell, "deal 11", late-comers "seated
    with the table's highest score"."""
    html = act(console, "/console/", "create-party", {
        "form": "mexican-train", "tables": "3", "movement": "winner", "session_limit": "60",
        "bell": "stop", "hand": "11", "late_score": "1", "blanks": "double-blank-50"}, url="/console/party")
    assert "Create the party: done" in html
    s = hub.state.setup
    assert (s.moving, s.session_limit, s.bell_meaning, s.hand, s.late_score, s.blanks) == (
        "winner", 60, "stop", 11, "table-highest", "double-blank-50")


def test_a_name_with_a_control_character_is_refused_with_which_and_where(hub, console):
    """Issue 24: a NUL typed or pasted into a name is refused at the door, saying which
    character and where (it may not show on the page), and nothing is journaled."""
    act(console, "/console/", "create-party", {"form": "block", "tables": "2"}, url="/console/party")
    seq = hub.seq
    html = act(console, "/console/guests", "list-guest", {"guest": "Ann\x00Lee"})
    assert ("Add a guest: refused — Guest: it holds a control character, U+0000, at character 4 "
            "(after &#39;Ann&#39;): type the name again without it.") in html
    assert hub.seq == seq and "Ann" not in hub.state.guests and "Ann\x00Lee" not in hub.state.guests
