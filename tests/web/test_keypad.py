"""A phone as a table's keypad: the protocol's envelope, the hub's validation and journal, its table only."""
from __future__ import annotations

import json

import pytest

from hardware.sim.party import LOOK_S
from party.hands import draw_game as game

from .conftest import action_id_of, csrf_of, make_party, sign_in, submit

from hub.conductor import events as ev
from web import security

pytestmark = pytest.mark.broker


def keypad_url(app, table: int) -> str:
    with app.test_request_context():
        return f"/keypad/{table}/{security.keypad_token(table)}"


def phone(app, table: int):
    """A phone that opened its table's keypad page: (client, url, csrf token)."""
    client = app.test_client()
    url = keypad_url(app, table)
    page = client.get(url)
    assert page.status_code == 200
    token = page.get_data(as_text=True).split('name="csrf-token" content="')[1].split('"')[0]
    return client, url, token


def saved_values(page, hub) -> dict:
    """The guest sends from the review page with the keyboard's Enter; the phone says
    GAME 1 SAVED and the journal holds that one result: its values."""
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('ack').textContent === 'GAME 1 SAVED'", timeout=5000)
    (entry,) = [e for e in hub.journal.events() if e.kind == ev.RESULT]
    return entry.body["values"]


def post(client, url: str, token: str, envelope: dict):
    return client.post(url + "/event", data=json.dumps(envelope), headers={"X-CSRF-Token": token},
                       content_type="application/json")


def test_a_phones_entry_is_journaled_as_a_boards_would_be_and_once(app, hub):
    make_party(hub, 2)
    client, url, token = phone(app, 1)
    envelope = {"v": 1, "id": "phone-abc123.1.1", "table": 1, "kind": "result",
                "body": {"game": 1, "values": game(1, 1)}}
    ack = post(client, url, token, envelope).get_json()
    assert ack == {"v": 1, "id": "phone-abc123.1.1", "ok": True, "seq": hub.seq, "msg": "GAME 1 SAVED",
                   "seal": hub.journal.head[1]}     # its receipt: the journal's seal of its row
    again = post(client, url, token, envelope).get_json()      # a resend after a lost reply
    assert again["ok"] and again["seq"] == ack["seq"]
    (entry,) = [e for e in hub.journal.events() if e.kind == ev.RESULT]
    assert entry.source == "table:1" and entry.body["board"] == "phone-abc123"


def test_the_hubs_refusals_reach_the_phone(app, hub):
    make_party(hub, 2)
    client, url, token = phone(app, 1)
    bad = {"v": 1, "id": "phone-abc123.1.1", "table": 1, "kind": "result", "body": {"game": 7, "values": {"A": 1}}}
    ack = post(client, url, token, bad).get_json()
    assert ack["ok"] is False and 0 < len(ack["why"]) <= 16
    old = post(client, url, token, {**bad, "v": 0}).get_json()
    assert old == {"v": 1, "id": "phone-abc123.1.1", "ok": False, "why": "UPDATE FIRMWARE"}
    assert not [e for e in hub.journal.events() if e.kind == ev.RESULT]


def test_a_phone_cannot_post_for_another_table(app, hub):
    make_party(hub, 2)
    seq = hub.seq
    client, url1, token = phone(app, 1)
    envelope = {"v": 1, "id": "phone-abc123.1.1", "table": 2, "kind": "call", "body": {}}
    # table 2's envelope through table 1's keypad: refused as on table 1's MQTT topic
    assert post(client, url1, token, envelope).get_json()["why"] == "WRONG TABLE"
    # table 1's token on table 2's address: no such keypad
    token1 = url1.rsplit("/", 1)[1]
    assert post(client, f"/keypad/2/{token1}", token, envelope).status_code == 404
    assert client.get(f"/keypad/2/{token1}").status_code == 404
    assert client.get("/keypad/3/" + keypad_url(app, 3).rsplit("/", 1)[1]).status_code == 404  # not a table here
    assert hub.seq == seq


def test_a_phone_post_without_its_csrf_token_is_refused(app, hub):
    make_party(hub, 2)
    client, url, _ = phone(app, 1)
    envelope = {"v": 1, "id": "phone-abc123.1.1", "table": 1, "kind": "call", "body": {}}
    assert post(client, url, "", envelope).status_code == 400
    assert not [e for e in hub.journal.events() if e.kind == ev.CALL]


def test_the_table_marker_carries_the_keypads_address(app, hub, console):
    make_party(hub, 3)
    html = console.get("/print/markers?paper=letter").get_data(as_text=True)
    assert html.count('class="marker"') == 3 and "size: letter" in html
    for n in (1, 2, 3):
        assert f"http://localhost{keypad_url(app, n)}" in html
    assert html.count("<svg") == 6     # a QR code on both sides of each marker


def test_the_keypad_in_a_browser_keys_a_game_and_shows_the_ack(app, hub, server, page, room):
    """The phone walks the screen's form as a board does (docs/firmware.md): OK opens the entry,
    a seat is one key (A-D), the fields that follow from others are not asked (the spots of
    the seat that went out, pieces after a domino), a review page, OK sends."""
    make_party(hub, 2)
    page.set_viewport_size({"width": 400, "height": 800})
    page.goto(server.url.rstrip("/") + keypad_url(app, 2))
    page.wait_for_selector("#entry:not([hidden])")
    values = game(2, 1)
    fields = json.loads(page.evaluate("JSON.stringify(screen.form.fields)"))
    asked = {f["k"]: values[f["k"]] for f in fields
             if "when" not in f or values[f["when"][0]] in f["when"][1]}
    assert set(asked) < set(values)     # a domino: its seat's spots and every seat's pieces not asked
    page.click('.keys button[data-key="ok"]')
    for f in fields:
        if f["k"] not in asked:
            continue
        if f.get("seat"):
            page.click(f'.keys button[data-key="{"0ABCD"[asked[f["k"]]]}"]')
            continue
        for digit in str(asked[f["k"]]):
            page.click(f'.keys button[data-key="{digit}"]')
        page.click('.keys button[data-key="ok"]')
    page.wait_for_selector("#review:not([hidden])")
    assert page.locator("#review").inner_text().splitlines() == [
        f'{f["label"]}  {"ABCD"[asked[f["k"]] - 1] if f.get("seat") else asked[f["k"]]}'
        for f in fields if f["k"] in asked]
    page.screenshot(path="/tmp/h11-keypad-review.png")
    page.click('.keys button[data-key="ok"]')
    page.wait_for_function("document.getElementById('ack').textContent === 'GAME 1 SAVED'", timeout=5000)
    (entry,) = [e for e in hub.journal.events() if e.kind == ev.RESULT]
    assert entry.body["values"] == asked and entry.source == "table:2"
    assert page.locator("#lines").inner_text().splitlines()[2] == "GAME 2 OF 4"
    # the console's bell reaches the phone too, which acknowledges it like a board
    sign_in(console_client := app.test_client())
    html = console_client.get("/console/").get_data(as_text=True)
    console_client.post("/console/act/bell", data={"csrf_token": csrf_of(html), "meaning": "finish",
                                                   "action_id": action_id_of(html, "bell")})
    page.wait_for_selector("#bell:not([hidden])")
    assert page.locator("#bell").inner_text() == "BELL: FINISH THIS GAME"
    # the ack sent with the bell shown (one task); the outbox's line says nothing while it is on
    # its way, so the phone's persisted outbox is what says the hub has acknowledged it
    page.wait_for_function("JSON.parse(localStorage.getItem('keypad.outbox.2') || '[]').length === 0")
    assert [e.source for e in hub.journal.events() if e.kind == ev.BELL_ACK] == ["table:2"]


def test_the_keypad_takes_a_physical_keyboard_and_keeps_a_refused_field(app, hub, server, page, room):
    """Keys typed on a keyboard (Enter = OK, a-d = seats, Backspace = back): a value out of the
    field's range is refused at the field with the reason, and kept to correct."""
    make_party(hub, 2)
    page.goto(server.url.rstrip("/") + keypad_url(app, 1))
    page.wait_for_selector("#entry:not([hidden])")
    fields = json.loads(page.evaluate("JSON.stringify(screen.form.fields)"))
    spots = next(f for f in fields if f["k"] == "A")
    page.keyboard.press("Enter")                  # opens the entry
    page.keyboard.press("b")                      # who led: seat B, one key
    page.keyboard.press("d")                      # domino by D
    too_many = str(spots["max"] + 1)
    page.keyboard.type(too_many)
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.getElementById('typed').textContent.includes('ONLY 0 TO {spots['max']}')")
    assert page.locator("#typed").inner_text().startswith(too_many)   # kept, to correct
    page.keyboard.type("1")                       # no room for a fourth digit, as on a board
    assert page.locator("#typed").inner_text() == f"{too_many} · MAX {len(too_many)} DIGITS"
    for _ in too_many:
        page.keyboard.press("Backspace")
    for v in ("16", "28", "4"):                   # A, B, C: D went out, its spots not asked
        page.keyboard.type(v)
        page.keyboard.press("Enter")
    page.wait_for_selector("#review:not([hidden])")
    assert saved_values(page, hub) == {"lead": 2, "out": 4, "A": 16, "B": 28, "C": 4}


def test_the_keypad_takes_a_field_on_its_last_possible_digit_as_a_board_does(app, hub, server, page, room):
    """As on a board (firmware/entry.py): a number no further digit fits (a first 0 too) is
    taken without OK;
    an OK pressed anyway on the empty next field only says "TYPE A NUMBER"; a review page the
    last field opened so ignores an OK that comes at once (habit, not a look), and sends on
    an OK after a look."""
    make_party(hub, 2)
    page.goto(server.url.rstrip("/") + keypad_url(app, 1))
    page.wait_for_selector("#entry:not([hidden])")
    fields = json.loads(page.evaluate("JSON.stringify(screen.form.fields)"))
    full = next(f for f in fields if f["k"] == "A")["max"] // 10 + 1   # one more digit passes max
    page.keyboard.press("b")                      # who led: a key on the idle keypad opens it
    page.keyboard.press("c")                      # domino by C
    page.keyboard.type(str(full))
    page.wait_for_function("document.getElementById('field').textContent.endsWith('B SIXTEENTHS')")
    page.keyboard.press("Enter")                  # out of habit
    page.wait_for_function("document.getElementById('typed').textContent.includes('TYPE A NUMBER')")
    page.keyboard.type("0")                       # B: no digit follows a first 0, taken
    page.wait_for_function("document.getElementById('field').textContent.endsWith('D SIXTEENTHS')")
    page.keyboard.type(str(full))                 # D, the last field asked (C went out): taken
    page.keyboard.press("Enter")                  # at once, out of habit
    page.wait_for_function("document.getElementById('typed').textContent === 'CHECK, THEN OK'")
    assert not [e for e in hub.journal.events() if e.kind == ev.RESULT]
    assert page.locator("#review").inner_text().splitlines()[-1] == f"D SIXTEENTHS  {full}"
    page.screenshot(path="/tmp/h11-keypad-check-then-ok.png")
    page.wait_for_timeout(LOOK_S * 1000)          # the guest reads the review
    assert saved_values(page, hub) == {"lead": 2, "out": 3, "A": full, "B": 0, "D": full}


def test_the_keypad_refuses_a_total_the_deal_cannot_hold_at_the_field_keeping_the_rest(
        app, hub, server, page, room):
    """All the seats together hold at most what the pieces in play show (hub/scoring/bounds.py;
    000_ff8a6ed40036e836.txt, DRAW GAME: "Each player draws eight pieces as in the Block Game"):
    the phone refuses the field that goes past it, as a board does, every other value kept."""
    make_party(hub, 2)
    page.goto(server.url.rstrip("/") + keypad_url(app, 1))
    page.wait_for_selector("#entry:not([hidden])")
    fields = json.loads(page.evaluate("JSON.stringify(screen.form.fields)"))
    spots = next(f for f in fields if f["k"] == "A")
    page.keyboard.press("Enter")                  # opens the entry
    page.keyboard.press("b")                      # who led: seat B
    page.keyboard.press("0")                      # the hand blocked
    for v in (spots["max"], 10, spots["max"], 10):   # A and B: spots, pieces
        page.keyboard.type(str(v))
        page.keyboard.press("Enter")
    page.keyboard.type(str(spots["max"]))          # C: more than the tiles left can show
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('typed').textContent.includes("
                           f"'ALL: {spots['sum']} AT MOST')")
    assert page.locator("#field").inner_text().endswith("C SIXTEENTHS")
    kept = json.loads(page.evaluate("JSON.stringify(walk.values)"))
    assert kept == {"lead": 2, "out": 0, "A": spots["max"], "A_pieces": 10, "B": spots["max"],
                    "B_pieces": 10}


def test_the_keypad_keys_a_bergen_header_as_it_is_made_in_two_keys_and_undoes_it(
        app, hub, server, page, room):
    """A header made in play (000_ff8a6ed40036e836.txt, BERGEN: "A double-header, either led or
    made counts two points"; the party's "Ten points made ... ends a session"): the seat, the
    header's digit taken without OK, which sends it, as on a board; what was recorded is shown
    and "Undo last count" takes it back (journaled, the count kept on record as undone)."""
    make_party(hub, 2, form="bergen", in_play="each")
    page.goto(server.url.rstrip("/") + keypad_url(app, 1))
    page.wait_for_selector("#points:not([hidden])")
    page.click("#points")
    page.keyboard.press("c")                      # made by C
    page.keyboard.press("2")                      # a double-header: no OK, sent
    page.wait_for_function("document.getElementById('ack').textContent.startsWith('COUNTED')",
                           timeout=5000)
    assert page.locator("#ack").inner_text().endswith("HEADER 2")
    (count,) = [e for e in hub.journal.events() if e.kind == ev.COUNT]
    assert count.body["values"] == {"seat": 3, "header": 2}
    page.once("dialog", lambda d: d.accept())
    page.click("#undo")
    page.wait_for_function("document.getElementById('ack').textContent === 'COUNT UNDONE'",
                           timeout=5000)
    (undone,) = [e for e in hub.journal.events() if e.kind == ev.COUNT_UNDONE]
    assert undone.body["count"] == count.id
    assert page.locator("#undo").is_hidden()


def test_the_keypad_shows_and_keys_a_late_comers_spare_card_as_printed(app, hub, server, page, room):
    """A late-comer in the seat a guest who left vacated holds the second card for it,
    "TABLE 2 C/2" (docs/conductor.md; LIST: "Late-comers will have to be satisfied to receive
    vacant seats at the last tables"; TRAY: the card "will decide at which table and chair he
    is to be seated"): the phone's seat check shows it as printed and takes it keyed."""
    make_party(hub, 2, seat_check=True)
    leaver = hub.state.holders["2C"]
    assert submit(hub, ev.GUEST_LEFT, {"guest": leaver, "why": "train home"}).ok
    assert submit(hub, ev.WALK_IN, {"guest": "Late Lou"}).msg == "TABLE 2 C"
    page.goto(server.url.rstrip("/") + keypad_url(app, 2))
    page.wait_for_selector("#entry:not([hidden])")
    page.keyboard.press("Enter")                  # opens the seat check: the names, on review
    page.wait_for_selector("#review:not([hidden])")
    assert "C LATE LOU  2C/2" in page.locator("#review").inner_text().splitlines()
    page.keyboard.press("c")                      # fix seat C: keyed from the card in his hand
    for _ in "2C2":
        page.keyboard.press("Backspace")
    page.keyboard.press("Enter")                  # nothing keyed: what the field takes, as on a board
    assert page.locator("#typed").inner_text() == "TABLE, THEN A-D"
    page.keyboard.type("2c2")
    page.keyboard.press("Enter")
    page.wait_for_selector("#review:not([hidden])")
    assert "C LATE LOU  2C/2" in page.locator("#review").inner_text().splitlines()
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('ack').textContent === 'SEATS OK'", timeout=5000)
    (check,) = [e for e in hub.journal.events() if e.kind == ev.SEAT_CHECK and e.body["table"] == 2]
    assert check.body["cards"]["C"] == 10_000 + 7


def test_the_keypads_idle_keys_do_what_a_boards_do(app, hub, server, page, room):
    """The phone's idle page takes a key as a board's idle screen does (firmware/keys.py,
    docs/firmware.md): the seat check opens with OK only (a digit there says nothing), a card
    keyed to fix a seat shows what is printed on it ("TABLE 1 B RED": 1B RED); in play a seat is
    the count it made (BERGEN GAME: "A double-header, either led or made counts two points")
    and ⌫ takes the last count back, one key each, as on the board."""
    make_party(hub, 2, form="bergen", in_play="each", seat_check=True)
    page.set_viewport_size({"width": 400, "height": 800})
    page.goto(server.url.rstrip("/") + keypad_url(app, 1))
    page.wait_for_selector("#entry:not([hidden])")
    assert page.locator("#field").inner_text() == "SEAT CHECK — press OK"
    for k in ("1", "c", "Backspace"):             # nothing the seat check could take
        page.keyboard.press(k)
    assert page.evaluate("walk") is None and page.locator("#review").is_hidden()
    page.keyboard.press("Enter")                  # the names expected, to confirm
    page.wait_for_selector("#review:not([hidden])")
    page.keyboard.press("c")                      # fix seat C: the card the hub expects, as printed
    page.wait_for_function("document.getElementById('typed').textContent === '1A RED'")
    for _ in "1A2":
        page.keyboard.press("Backspace")
    page.keyboard.type("1b")
    assert page.locator("#typed").inner_text() == "1B"
    page.keyboard.type("2")
    assert page.locator("#typed").inner_text() == "1B RED"
    page.screenshot(path="/tmp/h11-keypad-card-as-printed.png")
    for _ in "1B2":
        page.keyboard.press("Backspace")
    page.keyboard.type("1a2")                     # the card Table 1 C's guest does hold
    page.keyboard.press("Enter")
    page.wait_for_selector("#review:not([hidden])")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('ack').textContent === 'SEATS OK'", timeout=5000)

    page.wait_for_function("document.getElementById('field').textContent.includes('A-D: points made')")
    page.screenshot(path="/tmp/h11-keypad-idle-in-play.png")
    page.keyboard.press("c")                      # made by C: the count, not the hand's DOMINO BY
    assert page.evaluate("walk.count") is True
    page.keyboard.press("2")                      # a double-header: no OK, sent
    page.wait_for_function("document.getElementById('ack').textContent.startsWith('COUNTED')",
                           timeout=5000)
    (count,) = [e for e in hub.journal.events() if e.kind == ev.COUNT]
    assert count.body["values"] == {"seat": 3, "header": 2}
    assert "⌫: undo MADE BY C, HEADER 2" in page.locator("#field").inner_text()
    page.keyboard.press("Backspace")              # the last count taken back: one key, no dialog
    page.wait_for_function("document.getElementById('ack').textContent === 'COUNT UNDONE'",
                           timeout=5000)
    (undone,) = [e for e in hub.journal.events() if e.kind == ev.COUNT_UNDONE]
    assert undone.body["count"] == count.id
    page.keyboard.press("Enter")                  # the hand's end opens with OK (the seats are counts')
    page.wait_for_function("document.getElementById('field').textContent.endsWith('DOMINO BY (A-D, 0 none)')")
    assert not [e for e in hub.journal.events() if e.kind == ev.RESULT]


def test_the_keypad_opens_a_result_with_its_first_key_and_says_no_game_in_hand_with_one(
        app, hub, server, page, room):
    """A digit on the idle page is the first key of the result, as on a board; after the finish
    bell (BLOCK GAME party: "he does not permit a new game to be started") a table between
    games says so with ⌫, and its session is over there."""
    make_party(hub, 2)
    page.goto(server.url.rstrip("/") + keypad_url(app, 1))
    page.wait_for_selector("#entry:not([hidden])")
    page.keyboard.press("1")                      # opens the entry as its first key: no seat is 1
    page.wait_for_function("document.getElementById('field').textContent.endsWith('FIRST LEAD BY (A-D)')")
    assert page.locator("#typed").inner_text().endswith("PICK A-D")
    page.keyboard.press("Backspace")              # before the first field: CANCEL ENTRY?
    page.keyboard.press("Backspace")              # yes: the entry is left
    assert page.evaluate("walk") is None
    submit(hub, ev.BELL, {"meaning": "finish"})
    page.wait_for_function("document.getElementById('field').textContent.includes('⌫: no game begun')")
    assert page.locator("#nogame").is_visible()
    page.screenshot(path="/tmp/h11-keypad-no-game.png")
    page.keyboard.press("Backspace")
    # the hub's own words: the bell's ack may have filled the line already
    page.wait_for_function("document.getElementById('ack').textContent === 'NO GAME IN HAND'", timeout=5000)
    assert [e.source for e in hub.journal.events() if e.kind == ev.NO_GAME] == ["table:1"]
    page.wait_for_function("!document.getElementById('field').textContent.includes('no game begun')")


def test_a_refusal_naming_a_seat_reopens_the_phones_entry_on_that_seats_field(
        app, hub, server, page, room):
    """As on a board (firmware/keys.py): the hub's bounds (hub/scoring/bounds.py) refuse a seat
    holding more than its pieces can show ("B: 12 AT MOST" for B's one piece; DRAW GAME: "the
    player holding the least number of spots wins"), and the entry comes back on B's field
    with what was keyed there, every other value kept: fixed, it goes to the review and sends."""
    make_party(hub, 2)
    page.set_viewport_size({"width": 400, "height": 800})
    page.goto(server.url.rstrip("/") + keypad_url(app, 1))
    page.wait_for_selector("#entry:not([hidden])")
    page.keyboard.press("Enter")                  # opens the entry
    page.keyboard.press("b")                      # who led: seat B
    page.keyboard.press("0")                      # the hand blocked: every seat's spots and pieces
    for v in ("40", "4", "150", "1", "30", "3", "30", "3"):   # A, B, C, D: sixteenths, pieces
        page.keyboard.type(v)
        if v == "1":                              # 10 pieces could follow the 1: OK says it is one
            page.keyboard.press("Enter")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_timeout(LOOK_S * 1000)          # the guest reads the review
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('ack').textContent.startsWith('B: ')", timeout=5000)
    why = page.locator("#ack").inner_text()
    assert why.endswith(" AT MOST") and page.locator("#ack").get_attribute("class") == "ack refused"
    page.wait_for_function("document.getElementById('field').textContent.endsWith('B SIXTEENTHS')")
    assert page.locator("#typed").inner_text() == "150" and page.locator("#review").is_hidden()
    page.screenshot(path="/tmp/s6-keypad-refused-on-its-field.png")
    assert not [e for e in hub.journal.events() if e.kind == ev.RESULT]
    most = why.split()[1]
    for _ in "150":
        page.keyboard.press("Backspace")
    page.keyboard.type(most)                      # taken (ten times it passes 225): the review,
    page.wait_for_selector("#review:not([hidden])")   # the rest as keyed
    assert f"B SIXTEENTHS  {most}" in page.locator("#review").inner_text().splitlines()
    page.wait_for_timeout(LOOK_S * 1000)
    assert saved_values(page, hub) == {"lead": 2, "out": 0, "A": 40, "A_pieces": 4, "B": int(most),
                                    "B_pieces": 1, "C": 30, "C_pieces": 3, "D": 30, "D_pieces": 3}


def test_the_keypad_asks_before_cancelling_and_keeps_the_cancelled_values(app, hub, server, page, room):
    """As on a board (docs/firmware.md, the keypad): ⌫ past the first field asks CANCEL ENTRY?,
    OK says no and the entry stays; ⌫ says yes, and the values keyed so far come back with the
    next OK, each on its field, to go on where the guest left off."""
    make_party(hub, 2)
    page.set_viewport_size({"width": 400, "height": 800})
    page.goto(server.url.rstrip("/") + keypad_url(app, 1))
    page.wait_for_selector("#entry:not([hidden])")
    page.keyboard.press("Enter")                  # opens the entry on FIRST LEAD BY
    page.keyboard.press("Backspace")              # nothing typed, the first field: cancel?
    page.wait_for_function("document.getElementById('field').textContent.endsWith('CANCEL ENTRY? (values are kept)')")
    assert page.locator("#typed").inner_text() == "⌫ yes · OK no"
    page.keyboard.press("Enter")                  # no: the entry stays
    page.wait_for_function("document.getElementById('field').textContent.endsWith('FIRST LEAD BY (A-D)')")
    page.keyboard.press("b")                      # who led: B
    page.keyboard.press("d")                      # domino by D
    page.keyboard.type("16")
    page.keyboard.press("Enter")                  # A: 16
    for _ in range(8):                            # back through A (16), DOMINO BY (D), FIRST LEAD BY (B)
        page.keyboard.press("Backspace")
    page.wait_for_function("document.getElementById('field').textContent.includes('CANCEL ENTRY?')")
    page.screenshot(path="/tmp/s6-keypad-cancel-entry.png")
    page.keyboard.press("Backspace")              # yes
    assert page.evaluate("walk") is None
    assert page.locator("#field").inner_text() == "GAME 1 — press OK (values kept)"
    page.screenshot(path="/tmp/s6-keypad-cancelled-values-kept.png")
    page.keyboard.press("Enter")                  # the same entry again: its values are back
    assert page.locator("#typed").inner_text() == "B"
    page.keyboard.press("Enter")
    assert page.locator("#typed").inner_text() == "D"
    page.keyboard.press("Enter")
    assert page.locator("#typed").inner_text() == "16"
    page.keyboard.press("Enter")
    for v in ("28", "4"):                         # B, C: D went out, its spots not asked
        page.keyboard.type(v)
        page.keyboard.press("Enter")
    page.wait_for_selector("#review:not([hidden])")
    assert saved_values(page, hub) == {"lead": 2, "out": 4, "A": 16, "B": 28, "C": 4}
    assert page.locator("#field").inner_text() == "GAME 2 — press OK"   # a sent entry keeps nothing
