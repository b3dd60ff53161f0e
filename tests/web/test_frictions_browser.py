"""The smaller frictions of issue 23, each walked in headless Chromium as the host meets it.

Issue 23: "a Bergen party's punch-holes read 0 for everyone on the projector and in
/standings.json from the moment a table reaches ten until the host presses 'Move the
players'", "the correction screen shows and asks for internal names", "the final count
is taken with no question while a table has 0 of 4 games of the last session keyed",
"the plan from replies counts a duplicate reply", "one name with a right-to-left override
reverses the next guest's name", "printed table markers whose QR codes point at
127.0.0.1 carry no warning on paper", "reloading the phone keypad mid-entry loses the
keys pressed", "a resubmitted correction says 'SAVED'", "on a 1024×768 projector the
tiles' '0/4' is 12 px high, and names sharing a long prefix are cut to the same text".
"""
from __future__ import annotations

import json
import re
import urllib.request
import uuid

import pytest

from hub.conductor import events as ev
from hub.event import Proposal
from party.hands import bergen_hand, draw_game, tiddle_hand

from .conftest import CONDUCTOR, make_party, submit
from web import security
from .test_console_browser import sign_in_page

pytestmark = pytest.mark.broker


def keyed(hub, table: int, values: dict, game: int | None = None):
    """A result as the table's board sends it (hub.submit, the edge's own path)."""
    t = hub.state.session.tables[table]
    body = {"table": table, "board": f"sim-{table}", "game": game or t.entered + 1, "values": values}
    return hub.submit(Proposal(f"sim-{table}.{uuid.uuid4().hex[:12]}", f"table:{table}", ev.RESULT, body))


def table_says(hub, table: int, kind: str, body: dict):
    """Any other table event (a bell seen), as its board sends it."""
    body = {"table": table, "board": f"sim-{table}", **body}
    return hub.submit(Proposal(f"sim-{table}.{uuid.uuid4().hex[:12]}", f"table:{table}", kind, body))


def standings_json(server) -> dict:
    with urllib.request.urlopen(server.url + "standings.json", timeout=5) as r:
        return json.load(r)


# ----- 1. punch-holes as the points are made ---------------------------------------------------
@pytest.mark.parametrize("form, hand, to_ten", [("bergen", bergen_hand, 3), ("tiddle-a-wink", tiddle_hand, 7)])
def test_punch_holes_show_from_the_moment_the_points_are_made(hub, server, page, tmp_path, form, hand, to_ten):
    """BERGEN GAME, the party (000_ff8a6ed40036e836.txt): "Ten points made at any table ends a
    session ... The partners having won the greatest number of points at that moment get each
    a punch hole in their score-cards"; TIDDLE-A-WINK: "Ten points made in partnership at any
    table ends a session ... For every 'remove' the players get a punch-hole". The room sees
    who holds the session's punch-holes as the points are made, and at the bell, not only
    once the host has moved the players."""
    make_party(hub, 2, form=form)
    page.goto(server.url)
    page.wait_for_selector("#left-list li")
    t1 = hub.state.session.tables[1]
    a, c = (hub.state.holders[t1.seats[i]] for i in (0, 2))
    assert keyed(hub, 1, hand("A", 2)).ok                       # A+C ahead at Table 1
    leaders = {p["name"]: p["total"] for p in standings_json(server)["standings"]["leaders"]}
    assert leaders[a] == leaders[c] == 1 and sum(leaders.values()) == 2, leaders
    row = page.locator("#left-list li", has_text=a)
    row.locator(".total", has_text="1").wait_for(timeout=5000)
    assert keyed(hub, 1, hand("C", to_ten)).ok                      # ten made: the bell
    assert hub.state.session.bell is not None
    leaders = {p["name"]: p["total"] for p in standings_json(server)["standings"]["leaders"]}
    assert leaders[a] == leaders[c] == 1 and sum(leaders.values()) == 2, leaders
    page.wait_for_function("document.getElementById('state').dataset.state === 'stopped'", timeout=5000)
    assert page.locator("#left-list li", has_text=c).locator(".total").inner_text() == "1"
    page.screenshot(path=str(tmp_path / f"punch-holes-{form}.png"))


# ----- 2. corrections in the entry form's words; 8. a correction sent twice --------------------
def test_a_correction_is_shown_and_asked_in_the_words_of_the_entry_form(hub, server, page, tmp_path):
    """The Corrections page names each value as the table's board asks for it ("DOMINO BY",
    "A PIECES": its entry form), a seat as its letter, never the internal `out`, `lead` or
    `A_pieces`; the seat is corrected as a letter; the same correction sent again (the back
    button) says when the first was recorded, not "SAVED"."""
    make_party(hub, 2)
    values = draw_game(1, 1)
    assert keyed(hub, 1, values).ok
    entry = hub.state.session.tables[1].entries[0]
    sign_in_page(page, server.url)
    page.goto(server.url + "console/corrections")
    row = page.locator(f'tr[data-entry="{entry.id}"]')
    keyed_text = row.locator("td").nth(2).inner_text()
    out = "ABCD"[values["out"] - 1]
    assert keyed_text.startswith(f"FIRST LEAD BY {'ABCD'[values['lead'] - 1]}, DOMINO BY {out}, A SIXTEENTHS"), keyed_text
    form = row.locator("form[data-action=correct]")
    labels = [t.strip() for t in form.locator("label").all_inner_texts()]
    assert "DOMINO BY" in labels and "B PIECES" in labels, labels
    for internal in ("out", "lead", "A_pieces"):
        assert internal not in keyed_text.split() and internal not in labels
    assert form.locator("input[name='value.out']").input_value() == out
    # a wrong count: B held four more sixteenths (the winner's gain follows)
    b = values["B"] + 4 if values["out"] != 2 else values["B"]
    form.locator("input[name='value.B']").fill(str(b))
    form.locator("input[name=why]").fill("B's sixteenths recounted")
    form.locator("button").click()
    page.wait_for_selector("#correction")
    if values["out"] != 2:
        assert f"B SIXTEENTHS {values['B']} → {b}" in page.locator("#correction").inner_text()
    page.screenshot(path=str(tmp_path / "correction-preview.png"), full_page=True)
    # recorded from a second tab, then the button of the preview pressed again (a slow
    # network, a second click): the same form twice
    confirm = page.locator("form[data-action=correct-confirm]")
    confirm.evaluate("(f) => { f.target = '_blank'; }")
    with page.context.expect_page() as opened:
        confirm.locator("button").click()
    first = opened.value
    first.locator(".flash.ok").wait_for()
    assert "Correct a result: done — CORRECTED" in first.locator(".flash.ok").inner_text()
    confirm.evaluate("(f) => f.removeAttribute('target')")
    confirm.locator("button").click()
    again = page.locator(".flash.warn").inner_text()
    assert again.startswith("Correct a result: done already — recorded at ") and "SAVED" not in again, again
    assert f"by {CONDUCTOR}" in again
    page.screenshot(path=str(tmp_path / "correction-sent-again.png"))
    corrected = [e for e in hub.journal.events() if e.kind == ev.RESULT_CORRECTED]
    assert len(corrected) == 1 and corrected[0].body["values"]["out"] == values["out"]


# ----- 4. the plan counts each person once --------------------------------------------------------
def test_the_plan_counts_a_person_who_replied_twice_once(hub, server, page, tmp_path):
    """Eleven people, twelve replies (Mrs Vane wrote twice, the second time saying no): the
    plan counts the people coming, each once, by the last word each sent, and says who
    replied twice; the Guests page lists the same people."""
    sign_in_page(page, server.url)
    people = [f"Guest {i}" for i in range(10)] + ["Mrs Henry Vane"]
    replies = [f"{n}, yes" for n in people] + ["Mrs  Henry Vane, no", "Mrs Henry Vane, yes"]
    plan = page.locator("form[data-action=plan]")
    plan.locator("input[name=host]").fill("Miss Florence Walker")
    plan.locator("input[name=when]").fill("Thursday Evening, February 22")
    plan.locator("textarea[name=address]").fill("at her home, 61 Dayton Street.")
    plan.locator("textarea[name=replies]").fill("\n".join(replies))
    plan.locator("button[type=submit]").click()
    page.locator(".flash.ok").wait_for()
    assert page.locator(".flash.ok").inner_text() == "The plan: 11 coming, 3 tables."
    assert page.locator("p.plan strong").first.inner_text() == "11"
    assert page.locator("#replied-twice").inner_text().endswith(": Mrs Henry Vane.")
    page.screenshot(path=str(tmp_path / "plan-replied-twice.png"), full_page=True)
    submit(hub, ev.PARTY_CREATED, {"form": "draw", "tables": 3})
    page.goto(server.url + "console/guests")
    page.locator("form[data-action=guests-from-plan] button").click()
    page.locator(".flash.ok").wait_for()
    assert sorted(hub.state.guests) == sorted(people)


# ----- 3. the final count asks first when results are missing ----------------------------------
def test_the_final_count_asks_first_when_a_table_keyed_nothing(hub, server, page, tmp_path):
    """THIRD SESSION (000_ff8a6ed40036e836.txt): "Before announcing the winners he counts all
    his score-cards". The host rang "stop" and every board saw it, but Table 2 keyed none of
    its four games: the console names the table before the count, refuses a count not
    confirmed, and counts once the host says to count without them."""
    make_party(hub, 2, sessions=1)
    for g in range(1, 4):
        assert keyed(hub, 1, draw_game(1, g)).ok
    submit(hub, ev.BELL, {"meaning": "stop"})
    bell = hub.state.session.bell.id
    for n in (1, 2):
        assert table_says(hub, n, ev.BELL_ACK, {"bell": bell}).ok
    sign_in_page(page, server.url)
    count = page.locator("form[data-action=final-count]")
    assert page.locator("#results-missing").inner_text() == (
        "Results missing from session 1: Table 2: 0 of 4 games. Correct them first, or count without them:")
    count.locator("button").click()
    refused = page.locator(".flash.refused")
    refused.wait_for()
    assert refused.inner_text() == ("Final count: refused — Results: missing — Table 2: 0 of 4 games. "
                                    "Correct them first, or tick \u201ccount without them\u201d.")
    assert hub.state.final_count is None
    page.screenshot(path=str(tmp_path / "final-count-asks.png"), full_page=True)
    count = page.locator("form[data-action=final-count]")
    count.locator("input[name=missing_ok]").check()
    count.locator("button").click()
    page.locator(".flash.ok").wait_for()
    assert "Final count: done" in page.locator(".flash.ok").inner_text()
    assert hub.state.final_count is not None


# ----- 5. every name isolated for direction -----------------------------------------------------
RLO = "\u202e"   # RIGHT-TO-LEFT OVERRIDE: everything after it reads backwards, to the paragraph's end

# For every text node holding `text`: does its first letter stand left of its last, as
# a name read left to right does (not turned round by a direction running on into it)?
READS_FORWARD = """(text) => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const n = walk.currentNode, i = n.data.indexOf(text);
    if (i < 0 || !n.parentElement.getClientRects().length) continue;
    const r = document.createRange();
    r.setStart(n, i); r.setEnd(n, i + 1);
    const first = r.getBoundingClientRect().left;
    r.setStart(n, i + text.length - 1); r.setEnd(n, i + text.length);
    out.push(first < r.getBoundingClientRect().left);
  }
  return out;
}"""


def test_a_right_to_left_override_in_one_name_turns_no_other_name_round(hub, server, page, tmp_path):
    """Names pasted from anywhere may carry a right-to-left override (U+202E) with no end: on
    every page each name keeps its own direction (<bdi>, dir=auto), so the next guest's name
    and the figures after it read as they are; the CSV leaves the controls out, as it
    neutralises a formula's first character."""
    names = [f"{n}{RLO}" for n in ("Ann Lee", "Bob Ray", "Cora Fox", "Dan Poe", "Eve Orr", "Fay Ash",
                                  "Gus Ide", "Hal Nye")]
    make_party(hub, 2, names=names)
    assert keyed(hub, 1, draw_game(1, 1)).ok
    plain = [n.rstrip(RLO) for n in names]
    sign_in_page(page, server.url)
    pages = {"console/tables": "#tables tbody tr", "console/corrections": "tr[data-entry]",
             "console/guests": "tr[data-guest]", "console/prizes": "tr[data-prize]", "": "#left-list li",
             "print/score-cards": ".score-card", "print/results": "table.results"}
    for path, ready in pages.items():
        page.goto(server.url + path)
        page.wait_for_selector(ready)
        page.wait_for_timeout(100)   # the projector lays its lists out once it has them
        seen = {n: page.evaluate(READS_FORWARD, n) for n in plain}
        assert any(seen.values()), f"/{path}: no name shown"
        turned = [n for n, forward in seen.items() if not all(forward)]
        assert not turned, f"/{path}: turned round: {turned}"
        page.screenshot(path=str(tmp_path / f"bidi-{path.replace('/', '-') or 'projector'}.png"))
    csv = page.request.get(server.url + "console/export.csv").text()
    assert RLO not in csv and all(n in csv for n in plain), csv


# ----- 6. printed markers carry the warning on paper ------------------------------------------
def test_markers_whose_codes_point_to_this_machine_say_so_on_paper(hub, server, page, tmp_path):
    """The markers page warns on screen when its QR codes point to 127.0.0.1 (no phone can
    reach it); printed anyway, each side of each marker says so beside its code, and each
    marker still takes one page (TABLE MARKERS: "cards having on both sides large numbers")."""
    make_party(hub, 2)
    sign_in_page(page, server.url)
    page.goto(server.url + "print/markers")
    assert page.locator(".noprint.loopback").is_visible()
    page.emulate_media(media="print")
    assert not page.locator(".noprint.loopback").is_visible()
    for table in (1, 2):
        marker = page.locator(f'.marker[data-table="{table}"]')
        for side in range(2):
            warning = marker.locator(".side").nth(side).locator(".unreachable")
            assert warning.is_visible()
            assert warning.inner_text().startswith(f"Not for phones: this code points to {server.url}")
    page.screenshot(path=str(tmp_path / "markers-printed.png"))
    pdf = page.pdf(prefer_css_page_size=True)
    assert len(re.findall(rb"/MediaBox", pdf)) == 2          # one marker a page, as before


# ----- 7. the phone keypad keeps an entry across a reload ---------------------------------------
def test_the_phone_keypad_keeps_what_was_keyed_across_a_reload(app, hub, server, chromium, tmp_path):
    """A guest keying game 1 on the table's phone keypad reloads the page half-way (a wrong
    tap, the browser reloading the tab): the entry comes back on the field he was at, with
    what he had keyed, the digits of that field too; sent, the journal holds what he keyed
    and nothing is kept any more."""
    make_party(hub, 2)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        with app.test_request_context():
            page.goto(server.url.rstrip("/") + f"/keypad/1/{security.keypad_token(1)}")
        page.wait_for_selector("#entry:not([hidden])")
        values = draw_game(1, 1)
        fields = [f for f in json.loads(page.evaluate("JSON.stringify(screen.form.fields)"))
                  if "when" not in f or values[f["when"][0]] in f["when"][1]]
        keys = [["0ABCD"[values[f["k"]]]] if f.get("seat") else [*str(values[f["k"]]), "ok"] for f in fields]
        page.tap('.keys button[data-key="ok"]')
        numbers = next(i for i, f in enumerate(fields) if not f.get("seat") and values[f["k"]] >= 10)
        for k in [k for ks in keys[:numbers] for k in ks] + keys[numbers][:1]:   # half-way into a number
            page.tap(f'.keys button[data-key="{k}"]')
        before = page.locator("#field").inner_text(), page.locator("#typed").inner_text()
        assert before[1] == str(values[fields[numbers]["k"]])[0], before
        page.reload()
        page.wait_for_selector("#entry:not([hidden])")
        page.wait_for_function("document.getElementById('field').textContent.includes(' — ')")
        assert (page.locator("#field").inner_text(), page.locator("#typed").inner_text()) == before
        page.screenshot(path=str(tmp_path / "keypad-after-reload.png"))
        for k in keys[numbers][1:] + [k for ks in keys[numbers + 1:] for k in ks]:
            page.tap(f'.keys button[data-key="{k}"]')
        page.wait_for_selector("#review:not([hidden])")
        page.wait_for_timeout(800)          # a review page opened by the last digit ignores a quick OK
        page.tap('.keys button[data-key="ok"]')
        page.wait_for_function("document.getElementById('ack').textContent === 'GAME 1 SAVED'", timeout=5000)
        (entry,) = [e for e in hub.journal.events() if e.kind == ev.RESULT]
        assert entry.body["values"] == {f["k"]: values[f["k"]] for f in fields}
        assert page.evaluate("sessionStorage.getItem('keypad.draft.1')") is None
    finally:
        context.close()


# ----- 9. the projector at 1024×768: small texts at 16 px, long names told apart -----------------
DARCYS = [f"Mary-Elizabeth Fitzwilliam-Darcy {n}" for n in ("Bennett", "Brown", "Bingley", "Collins",
                                                              "Lucas", "Gardiner", "Philips", "Hurst")]

SMALL_TEXTS = """() => [...document.querySelectorAll('#tables .tile .games, #tables .tile .seats, #tables .tile .mark')]
  .map((e) => parseFloat(getComputedStyle(e).fontSize))"""


@pytest.mark.parametrize("tables", [4, 50, 200])
def test_the_projector_at_1024_by_768_reads_from_the_back_and_tells_long_names_apart(hub, server, page, tmp_path,
                                                                                     tables):
    """On a 1024×768 projector the tiles' "0/4", their seat lines and marks are at least
    16 px (they were 12), nothing overlaps; names sharing a long beginning are cut in the
    middle, each shown differently, the whole in its title."""
    from .test_projector import check_layout
    from .conftest import guest_name
    names = DARCYS + [guest_name(i) for i in range(tables * 4 - len(DARCYS))]
    make_party(hub, tables, names=names)
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(server.url)
    page.wait_for_selector(f'#tables .tile[data-table="{tables}"]')
    page.wait_for_function("document.querySelectorAll('#left-list li').length > 0")
    sizes = page.evaluate(SMALL_TEXTS)
    assert sizes and min(sizes) >= 16, sizes
    check_layout(page, 1024, 768)
    page.screenshot(path=str(tmp_path / f"projector-1024x768-{tables}.png"))
    if tables > 4:
        return   # fifty tiles and more hold no seat lines, and the leaders' first page other names
    shown = page.evaluate("""() => [...document.querySelectorAll('[data-full]')].filter((e) => e.getClientRects().length)
        .map((e) => [e.textContent, e.dataset.full, e.title])""")
    darcys = [(text, full) for text, full, title in shown if "Fitzwilliam" in full and title == full]
    assert len(darcys) > len(DARCYS), shown                                # on the tiles and the leaders
    assert len({text for text, _ in darcys}) == len(set(darcys)), darcys     # no two shown alike
    for text, full in darcys:
        if text != full:                                                    # cut: its ends kept
            head, tail = text.split(" … ")
            assert full.startswith(head) and full.endswith(tail), text
