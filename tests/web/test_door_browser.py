"""The door, the party's changes and corrections, clicked through as a host in headless
Chromium (the console's own forms and buttons; the API behind them only sets the scene).

Book: 000_ff8a6ed40036e836.txt. LIST: the conductor "checks off the names of the persons
who have arrived, then takes as many score-cards in successive order as there are persons
present. Four players are to be at each table, but should it happen that this number cannot
be completed at the last table, then three or two players may be seated there." "Late-comers
will have to be satisfied to receive vacant seats at the last tables." TRAY: "The card which
a person draws will decide at which table and chair he is to be seated." BERGEN GAME: "There
must always be four players at each table."
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from hub.conductor import events as ev

from .conftest import guest_name, make_party, submit
from .test_console_browser import sign_in_page

pytestmark = pytest.mark.broker
SHOTS = "/tmp/door-shots"


def shot(page, name: str) -> None:
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def flash(page, kind: str = "ok") -> str:
    """The verdict shown: the first not shown before the last `press` (the Guests page's list
    answers in place, on the same page, so an earlier verdict may still be there a moment)."""
    box = page.locator(f".flash.{kind}:not([data-read])")
    box.first.wait_for()
    # a refused form's page shows its verdict before its end puts back what was typed
    # (static/typed.js): what a test reads next is the page as the host meets it, whole
    page.wait_for_load_state("domcontentloaded")
    return box.first.inner_text()


def press(page, button) -> None:
    """Press a form's button, the verdicts on the page until then marked as read."""
    page.evaluate("() => { for (const f of document.querySelectorAll('.flash')) f.dataset.read = '1'; }")
    button.click()


def row(page, guest: str):
    return page.locator(f'#guests tr[data-guest="{guest}"]')


def row_action(page, guest: str, action: str, **fields) -> None:
    """Open the guest's tools, fill the action's fields and press its button."""
    page.wait_for_load_state()   # a page still laying itself out can move a row from under the click
    r = row(page, guest)
    details = r.locator("details")
    if details.count() and details.get_attribute("open") is None:
        r.locator("summary").click()
        expect(details).to_have_attribute("open", "")   # said here, not as a hidden field 30 s later
    form = r.locator(f"form[data-action={action}]")
    for name, value in fields.items():
        form.locator(f"[name={name}]").fill(value)
    press(page, form.locator("button"))
    page.wait_for_load_state()


def door(page, action: str, **fields) -> None:
    form = page.locator(f"form[data-action={action}]").first
    for name, value in fields.items():
        if isinstance(value, bool):
            form.locator(f"[name={name}]").set_checked(value)
        else:
            form.locator(f"[name={name}]").fill(value)
    press(page, form.locator("button"))
    page.wait_for_load_state()


def test_the_door_from_the_list_to_a_late_comer_at_a_new_last_table(hub, server, page, tmp_path):
    import os
    os.makedirs(SHOTS, exist_ok=True)
    submit(hub, ev.PARTY_CREATED, {"form": "block", "tables": 2, "seat_check": False})
    names = [guest_name(i) for i in range(9)]          # Ann Lee, Bob Ray ...
    for name in names:
        submit(hub, ev.GUEST_LISTED, {"guest": name})
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")

    press(page, page.locator("form[data-action=check-in-all] button"))
    assert "Check in everyone listed: done" in flash(page)
    # nine for eight seats: the console says so and offers a table before the draw
    assert page.locator("#draw-plan").inner_text() == (
        "9 present and 2 tables seat 8: add 1 table before the draw.")
    door(page, "draw-seats")
    assert flash(page, "refused") == (
        "Draw the seats: refused — Guests: 9 present and 2 tables seat 8: add 1 table before the draw.")

    # a near-duplicate at the door is flagged, naming the guest listed; what was typed stays
    door(page, "walk-in", guest="ann  LEE")
    alert = flash(page, "refused")
    assert "'Ann Lee' is already on the list" in alert and "another person" in alert
    assert page.locator("form[data-action=walk-in] input[name=guest]").input_value() == "ann  LEE"
    shot(page, "door-near-duplicate")
    door(page, "walk-in", guest="Zoe Quill")
    assert "A walk-in: done — CHECKED IN" in flash(page)

    press(page, page.locator("form[data-action=add-table] button"))
    assert "Add a table: done — TABLE 3 ADDED" in flash(page)
    assert page.locator("#draw-plan").inner_text() == (
        "10 present: the draw takes 10 cards, 2 tables of four; Table 3 two "
        "(the short-table rule: more pieces drawn each).")

    # a guest checked in by mistake; another renamed; one who sent regrets removed
    row_action(page, names[8], "undo-check-in", why="not here yet")
    assert "Undo the check-in: done" in flash(page)
    row_action(page, names[1], "rename", new_name="Robert Ray", why="his card name")
    assert "Rename a guest: done" in flash(page)
    row_action(page, names[8], "remove-guest", why="sent regrets")
    assert "Remove from the list: done" in flash(page)
    assert row(page, names[8]).count() == 0 and row(page, "Robert Ray").count() == 1
    assert page.locator("#draw-plan").inner_text().startswith(
        "9 present: the draw takes 9 cards, 1 table of four; Table 2 three and Table 3 two")

    door(page, "draw-seats")
    assert "Draw the seats: done — SEATS DRAWN" in flash(page)
    page.goto(server.url + "console/")
    press(page, page.locator("form[data-action=start-session] button"))
    assert "done — SESSION 1" in flash(page)

    # during play a walk-in takes a vacant seat at the last table
    page.goto(server.url + "console/guests")
    door(page, "walk-in", guest="Late Larry")
    assert "done — TABLE 3 C" in flash(page)
    row_action(page, "Robert Ray", "guest-left", why="train home")
    assert "A guest left: done" in flash(page)
    assert "(left)" in row(page, "Robert Ray").inner_text()
    shot(page, "door-guests-after-draw")

    state = hub.state
    assert state.setup.tables == 3 and state.guests["Late Larry"].card is not None
    kinds = [e.kind for e in hub.journal.events()]
    for kind in (ev.ALL_CHECKED_IN, ev.WALK_IN, ev.TABLE_ADDED, ev.CHECK_IN_UNDONE, ev.GUEST_RENAMED,
                 ev.GUEST_REMOVED, ev.GUEST_LEFT):
        assert kind in kinds
    assert all(e.source == "staff:florence" for e in hub.journal.events() if e.kind in (ev.WALK_IN, ev.TABLE_ADDED))


def test_a_bergen_draw_is_refused_until_four_at_every_table_then_seated_by_printed_cards(hub, server, page):
    submit(hub, ev.PARTY_CREATED, {"form": "bergen", "tables": 2, "seat_check": False})
    names = [guest_name(i) for i in range(7)]
    for name in names:
        submit(hub, ev.GUEST_LISTED, {"guest": name})
        submit(hub, ev.CHECKED_IN, {"guest": name})
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    plan = ("7 present, and in The Bergen Game there must always be four players at each table, "
            "two white and two red: add 1 guest or leave out 3.")
    assert page.locator("#draw-plan").inner_text() == plan
    door(page, "draw-seats")
    assert flash(page, "refused") == f"Draw the seats: refused — Guests: {plan}"
    door(page, "walk-in", guest="Zoe Quill")
    names.append("Zoe Quill")

    # the guests draw printed cards from the tray; the host records each
    assert page.locator("form[data-action=card-drawn]").count() == 0
    page.locator("#by-hand").click()
    cards = ["Table 2 B White", "W1A", "table 1 a red", "R2B", "White 2 A", "Table 1 B Red", "R2A", "W1B"]
    row_action(page, names[0], "card-drawn", card="Table 3 A White")
    assert "Card: there is no such card" in flash(page, "refused")
    for name, card in zip(names, cards):
        row_action(page, name, "card-drawn", card=card)
        assert "Card drawn: done" in flash(page)
    assert page.locator("#in-hand").inner_text() == "8 of 8"
    assert page.locator("form[data-action=draw-seats]").count() == 0   # the hub does not draw over them
    shot(page, "door-cards-drawn")
    door(page, "seat-by-cards")
    assert "Seat by the cards drawn: done — SEATS DRAWN" in flash(page)
    where = {name: hub.state.session.place_of(hub.state.guests[name].card) for name in names}
    assert where == {names[0]: (2, "B"), names[1]: (1, "A"), names[2]: (1, "C"), names[3]: (2, "D"),
                     names[4]: (2, "A"), names[5]: (1, "D"), names[6]: (2, "C"), names[7]: (1, "B")}


def test_the_party_is_changed_before_play_and_only_its_prizes_after(hub, server, page):
    submit(hub, ev.PARTY_CREATED, {"form": "block", "tables": 2, "seat_check": False})
    sign_in_page(page, server.url)
    change = page.locator("form[data-action=change-party]")
    change.locator("select[name=form]").select_option("sebastopol")
    change.locator("input[name=tables]").fill("3")
    change.locator("input[name=why]").fill("the hosts prefer Sebastopol")
    press(page, change.locator("button"))
    assert "Change the party: done" in flash(page)
    assert page.locator("h1").first.inner_text().startswith("Sebastopol · 3 tables")
    setup = hub.state.setup
    assert (setup.form, setup.tables, setup.games_per_session, setup.sessions) == ("sebastopol", 3, 3, 4)
    for i in range(12):
        submit(hub, ev.GUEST_LISTED, {"guest": guest_name(i)})
        submit(hub, ev.CHECKED_IN, {"guest": guest_name(i)})
    submit(hub, ev.DRAW_SEATS, {"seed": 1})
    page.goto(server.url + "console/")
    assert page.locator("form[data-action=change-party] [name=tables]").count() == 0   # seats drawn
    undo = page.locator("form[data-action=undo-draw]")
    undo.locator("input[name=why]").fill("a fourth table for walk-ins")
    press(page, undo.locator("button"))
    assert "Undo the draw: done — DRAW UNDONE" in flash(page)
    change = page.locator("form[data-action=change-party]")
    change.locator("input[name=tables]").fill("4")
    change.locator("input[name=why]").fill("room for walk-ins")
    press(page, change.locator("button"))
    assert "Change the party: done" in flash(page)
    assert hub.state.setup.tables == 4 and hub.state.session is None
    page.locator("summary", has_text="Changes on record").click()
    assert page.locator("#changes li").all_inner_texts() == [
        "set-up: tables 3 → 4 — staff:florence: room for walk-ins",
        "the draw undone — staff:florence: a fourth table for walk-ins",
        "set-up: form block → sebastopol, tables 2 → 3, games per session 4 → 3, sessions 3 → 4 "
        "— staff:florence: the hosts prefer Sebastopol"]
    submit(hub, ev.DRAW_SEATS, {"seed": 1})
    submit(hub, ev.SESSION_STARTED, {"session": 1})
    page.goto(server.url + "console/")
    assert page.locator("form[data-action=undo-draw]").count() == 0
    change = page.locator("form[data-action=change-party]")
    assert change.locator("[name=form]").count() == 0 and change.locator("[name=sessions]").count() == 0
    change.evaluate("f => f.noValidate = true")
    change.locator("input[name=prizes]").fill("-1")
    change.locator("input[name=why]").fill("a gift")
    press(page, change.locator("button"))
    assert flash(page, "refused") == "Change the party: refused — Prizes: a number from 0 to 999, please."
    change = page.locator("form[data-action=change-party]")
    assert change.locator("input[name=why]").input_value() == "a gift"        # kept as typed
    change.locator("input[name=prizes]").fill("2")
    change.locator("select[name=booby]").select_option("yes")
    press(page, change.locator("button"))
    assert "Change the party: done" in flash(page)
    assert (hub.state.setup.prizes, hub.state.setup.booby) == (2, True)
    # the display too changes after play begins, on record under the conductor's name
    press(page, page.locator("form[data-action=display] button"))
    assert "The projector: done — STANDINGS HIDDEN" in flash(page)
    assert hub.state.standings_hidden.by == "staff:florence"
    assert "Standings are hidden." in page.locator("form[data-action=display]").inner_text()
    shot(page, "door-party-changed")


def key_session(hub, games: int = 4) -> None:
    """Every table keys its games (as its board would send them) and acknowledges the bell."""
    import uuid
    from hub.event import Proposal
    from party.hands import draw_game
    s = hub.state.session
    for n in sorted(s.tables):
        for g in range(1, games + 1):
            v = hub.submit(Proposal(f"t{n}.{uuid.uuid4().hex[:12]}", f"table:{n}", ev.RESULT,
                                    {"table": n, "board": f"b{n}", "game": g, "values": draw_game(n, g)}))
            assert v.ok, v.why
    bell = hub.state.session.bell
    for n in sorted(s.tables):
        assert hub.submit(Proposal(f"a{n}.{bell.id}", f"table:{n}", ev.BELL_ACK,
                                   {"table": n, "board": f"b{n}", "bell": bell.id})).ok


def test_a_result_of_session_one_is_corrected_during_session_two_after_seeing_the_consequence(hub, server, page):
    """Seating already announced stays as journaled; the movement after session II reads the
    corrected totals (docs/conductor.md). The conductor sees the standings before and after
    and the seating's consequence, then records it."""
    make_party(hub, 2, form="draw")
    key_session(hub)
    submit(hub, ev.RESEAT, {"seed": 5})
    submit(hub, ev.SESSION_STARTED, {"session": 2})
    seats_two = {n: t.seats for n, t in hub.state.session.tables.items()}
    sign_in_page(page, server.url)
    page.goto(server.url + "console/corrections")
    assert "No results in this session." in page.content()
    page.locator("nav.sessions a", has_text="1").click()
    page.wait_for_url("**/corrections?session=1")
    first = hub.state.sessions[0].tables[1].entries[0]
    loser = next(x for x in "ABCD" if first.values[x])
    form = page.locator(f'tr[data-entry="{first.id}"] form[data-action=correct]')
    form.locator(f'input[name="value.{loser}"]').fill("2O")          # a letter O for a zero
    form.locator("input[name=why]").fill("a whole note not counted")
    press(page, form.locator("button"))
    assert flash(page, "refused") == (f"Correct a result: refused — {loser}: a whole number, please "
                                      "(you typed '2O').")
    form = page.locator(f'tr[data-entry="{first.id}"] form[data-action=correct]')
    assert form.locator("input[name=why]").input_value() == "a whole note not counted"   # kept
    assert form.locator(f'input[name="value.{loser}"]').input_value() == "2O"
    form.locator(f'input[name="value.{loser}"]').fill(str(first.values[loser] + 16))
    press(page, form.locator("button"))
    page.wait_for_selector("#consequence")
    text = page.locator("#consequence").inner_text()
    winner = hub.state.holders[first.seats["ABCD".index(first.winners[0])]]   # gains what the loser held
    assert winner in text and "→" in text
    assert "Session 2 was seated already and stays as announced." in text
    assert "The movement after session 2 will seat session 3 by the corrected totals." in text
    assert not [e for e in hub.journal.events() if e.kind == ev.RESULT_CORRECTED]   # not yet
    shot(page, "correction-preview")
    press(page, page.locator("form[data-action=correct-confirm] button"))
    assert "Correct a result: done — CORRECTED" in flash(page)
    page.wait_for_url("**/corrections?session=1")
    assert "corrected by staff:florence: a whole note not counted" in page.content()
    (fix,) = [e for e in hub.journal.events() if e.kind == ev.RESULT_CORRECTED]
    assert fix.body["values"][loser] == first.values[loser] + 16
    assert {n: t.seats for n, t in hub.state.session.tables.items()} == seats_two


def test_walk_ins_during_play_take_a_vacated_seat_then_a_new_last_table(hub, server, page):
    """Every card of two tables is held and play is on. A guest leaves: a walk-in takes his
    seat with a spare card (issue 12 item 4; LIST: "vacant seats at the last tables"). The
    next walk-in finds no seat: the console says to add a table; the host adds it and the
    walk-in sits at the new last table. A near-duplicate is added once the host ticks it."""
    names = make_party(hub, 2, form="block")
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    leaver = hub.state.holders["2C"]
    assert page.locator("#late-comer").inner_text() == (
        "Every seat is taken: add a table and the next late-comer sits at Table 3 A.")
    row_action(page, leaver, "guest-left", why="train home")
    assert "A guest left: done" in flash(page)
    assert page.locator("#late-comer").inner_text() == "The next late-comer takes the vacant seat Table 2 C."
    door(page, "walk-in", guest="Late Lou")
    assert "A walk-in: done — TABLE 2 C" in flash(page)
    assert hub.state.guests["Late Lou"].card == "2C/2"   # his own card, not the one who left
    # the spare names the seat, as printed and in the list (TRAY: "The card which a person
    # draws will decide at which table and chair he is to be seated")
    assert row(page, "Late Lou").locator("td").all_inner_texts()[2:4] == ["TABLE 2 C/2", "Table 2 C"]

    door(page, "walk-in", guest=names[0].upper())
    assert f"'{names[0]}' is already on the list" in flash(page, "refused")
    door(page, "walk-in", similar_ok=True)                 # the name stays as typed; ticked
    assert "A walk-in: refused — every seat is taken: add a table first." == flash(page, "refused")
    assert page.locator("form[data-action=walk-in] input[name=guest]").input_value() == names[0].upper()
    press(page, page.locator("form[data-action=add-table] button"))
    assert "Add a table: done — TABLE 3 ADDED" in flash(page)
    assert page.locator("#late-comer").inner_text() == (
        "The next late-comer opens Table 3 at seat A; the table plays once 2 are there.")
    door(page, "walk-in", guest=names[0].upper(), similar_ok=True)
    assert "A walk-in: done — TABLE 3 A" in flash(page)
    shot(page, "door-walk-ins-during-play")
    # session I: every card present names where its holder sits, the spare and the new table's too
    for r in page.locator("#guests tbody tr:not(.left)").all():
        card, at = r.locator("td").all_inner_texts()[2:4]
        assert card.split("/")[0] == at.upper(), (card, at)
    page.goto(server.url + "print/score-cards")
    printed = page.locator('.score-card[data-card="TABLE 2 C/2"]')
    assert printed.locator("h2").inner_text() == "TABLE 2 C/2." and "Late Lou" in printed.inner_text()
    assert "TABLE 3 A." in page.locator(".score-card").nth(8).inner_text()   # the new table's own
    late = [e for e in hub.journal.events() if e.kind == ev.WALK_IN]
    assert [e.body.get("similar_ok", False) for e in late] == [False, True]


def test_a_guest_who_left_comes_back_after_a_late_comer_took_the_seat(hub, server, page):
    """docs/conductor.md, "A guest who comes back": the seat he left went to a late-comer
    (LIST: "Late-comers will have to be satisfied to receive vacant seats at the last
    tables"), so he is satisfied the same way, keeping his card and its score. The console
    says so before the host clicks; with every seat taken it says to add a table first.
    The projector follows: "(left)" goes from his name."""
    import uuid
    from hub.event import Proposal
    from party.hands import draw_game
    make_party(hub, 2)
    v = hub.submit(Proposal(f"t2.{uuid.uuid4().hex[:12]}", "table:2", ev.RESULT,
                            {"table": 2, "board": "b2", "game": 1, "values": draw_game(2, 1)}))
    assert v.ok, v.why
    leaver = hub.state.holders["2C"]
    sign_in_page(page, server.url)
    projector = page.context.new_page()
    projector.goto(server.url)
    projector.wait_for_function(
        f"[...document.querySelectorAll('#left-list li')].some(li => li.textContent.includes({leaver!r}))")

    page.goto(server.url + "console/guests")
    row_action(page, leaver, "guest-left", why="a phone call outside")
    assert "A guest left: done" in flash(page)
    projector.wait_for_function(
        f"document.getElementById('left-list').textContent.includes({leaver + ' (left)'!r})")
    row(page, leaver).locator("summary").click()
    assert row(page, leaver).locator("[data-back]").inner_text() == (
        "Back to the seat left, Table 2 C, with the card TABLE 2 C and its score.")
    door(page, "walk-in", guest="Late Lou")
    assert "A walk-in: done — TABLE 2 C" in flash(page)

    # every seat taken: the console says what it would do, and refuses until a table is added
    row(page, leaver).locator("summary").click()
    assert row(page, leaver).locator("[data-back]").inner_text() == (
        "The seat left, Table 2 C, is Late Lou's now: every seat is taken. Add a table first; "
        "then back at Table 3 with the card TABLE 2 C and its score.")
    row_action(page, leaver, "guest-back", why="back from the call")
    assert flash(page, "refused") == "A guest came back: refused — every seat is taken: add a table first."
    press(page, page.locator("form[data-action=add-table] button"))
    assert "Add a table: done — TABLE 3 ADDED" in flash(page)
    row(page, leaver).locator("summary").click()
    assert row(page, leaver).locator("[data-back]").inner_text() == (
        "The seat left, Table 2 C, is Late Lou's now: the vacant seat Table 3 A, "
        "with the card TABLE 2 C and its score; the table plays once 2 are there.")
    shot(page, "door-guest-comes-back")
    row_action(page, leaver, "guest-back", why="back from the call")
    assert "A guest came back: done — TABLE 3 A" in flash(page)
    cells = row(page, leaver).locator("td").all_inner_texts()
    assert cells[2:4] == ["TABLE 2 C", "Table 3 A"] and "left" not in (row(page, leaver).get_attribute("class") or "")
    projector.wait_for_function(
        f"!document.getElementById('left-list').textContent.includes({leaver + ' (left)'!r})")

    back = [e for e in hub.journal.events() if e.kind == ev.GUEST_BACK]
    assert [(e.source, e.body["why"]) for e in back] == [("staff:florence", "back from the call")]
    assert hub.state.guests[leaver].card == "2C" and hub.state.session.place_of("2C") == (3, "A")


def test_a_late_comer_checked_in_by_mistake_is_undone_and_his_seat_goes_to_the_guest_who_came(
        hub, server, page):
    """"Check in" pressed on the wrong row after the draw seats a late-comer who is not there
    (LIST: "Late-comers will have to be satisfied to receive vacant seats at the last
    tables"). No game is on his card yet: the host undoes the check-in, the card goes back
    to the tray and the guest who did come gets that seat and card (TRAY). Seating a guest
    in a taken seat is refused with what to do instead."""
    from hub.event import Proposal
    from party.hands import draw_game
    make_party(hub, 2, guests=7)
    submit(hub, ev.GUEST_LISTED, {"guest": "Absent Al"})
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    press(page, row(page, "Absent Al").locator("form[data-action=check-in] button"))
    assert "Check in: done — TABLE 2 D" in flash(page)
    assert row(page, "Absent Al").locator("td").all_inner_texts()[2:4] == ["TABLE 2 D", "Table 2 D"]
    row_action(page, "Absent Al", "undo-check-in", why="wrong row: Al sent regrets")
    assert "Undo the check-in: done — CHECK-IN UNDONE" in flash(page)
    assert row(page, "Absent Al").locator("td").all_inner_texts()[2:4] == ["", ""]
    assert page.locator("#late-comer").inner_text() == "The next late-comer takes the vacant seat Table 2 D."
    door(page, "walk-in", guest="Absent Al")       # listed already: the refusal says what to do
    assert flash(page, "refused") == (
        "A walk-in: refused — that name is already on the guest list: check that guest in from the "
        "list, or give a second guest of the name something to tell them apart (an initial).")
    door(page, "walk-in", guest="Here Hal")
    assert "A walk-in: done — TABLE 2 D" in flash(page)
    assert row(page, "Here Hal").locator("td").all_inner_texts()[2:4] == ["TABLE 2 D", "Table 2 D"]

    row_action(page, "Here Hal", "seat-guest", table="1", why="sits with friends")
    assert flash(page, "refused") == (
        "Seat a guest: refused — Seat: that seat is taken; choose a vacant one (the Tables page "
        "shows who sits where), or seat its guest elsewhere first.")
    # a guest who has played is not undone: the console offers "Has left" instead
    played = hub.state.holders["1A"]
    key = hub.submit(Proposal("t1.g1", "table:1", ev.RESULT,
                              {"table": 1, "board": "b1", "game": 1, "values": draw_game(1, 1)}))
    assert key.ok, key.why
    page.goto(server.url + "console/guests")
    tools = row(page, played).locator("form").evaluate_all("fs => fs.map(f => f.dataset.action)")
    assert "undo-check-in" not in tools and "guest-left" in tools
    shot(page, "door-check-in-undone")
    (undone,) = [e for e in hub.journal.events() if e.kind == ev.CHECK_IN_UNDONE]
    assert (undone.source, undone.body["why"]) == ("staff:florence", "wrong row: Al sent regrets")
    assert hub.state.guests["Absent Al"].card is None


def test_a_table_added_by_mistake_is_removed_from_the_party_page(hub, server, page):
    """During play "Add a table" pressed once too often: the console offers to remove the last
    table while nobody has sat there (LIST: late-comers take "vacant seats at the last
    tables"; an empty one is idle), on record with why."""
    make_party(hub, 2)
    sign_in_page(page, server.url)
    page.goto(server.url + "console/")
    assert page.locator("form[data-action=remove-table]").count() == 0
    door(page, "add-table", why="late-comers expected")
    assert "Add a table: done — TABLE 3 ADDED" in flash(page)
    door(page, "add-table", why="late-comers expected")
    assert "Add a table: done — TABLE 4 ADDED" in flash(page)
    button = page.locator("form[data-action=remove-table] button")
    assert button.inner_text() == "Remove Table 4 (nobody has sat there)"
    door(page, "remove-table", why="pressed twice")
    assert "Remove the last table: done — TABLE 4 REMOVED" in flash(page)
    assert "· 3 tables" in page.locator("h1").inner_text()
    page.locator("#change summary").click()
    assert "Table 4 removed — staff:florence: pressed twice" in page.locator("#changes").inner_text()
    shot(page, "party-table-removed")
    assert hub.state.setup.tables == 3 and set(hub.state.session.tables) == {1, 2, 3}


def test_an_assistant_taken_off_the_staff_signs_in_no_more(hub, server, page):
    """"When the party is very large he may require an ASSISTANT" (CONDUCTOR): one added by
    mistake, or whose password got about, is taken off the staff from the Staff page, with
    why; the assistant's open console signs out, the password no longer opens it, and what
    the assistant did stays on record under the login."""
    make_party(hub, 1)
    sign_in_page(page, server.url)
    page.goto(server.url + "console/staff")
    form = page.locator("form[data-action=add-staff]")
    form.locator("[name=login]").fill("stella")
    form.locator("[name=password]").fill("hackberry-193")
    press(page, form.locator("button"))
    assert "Add stella to the staff: done" in flash(page)
    assert page.locator('#staff li[data-login="florence"] form').count() == 0   # never oneself

    helper = page.context.browser.new_context().new_page()
    helper.goto(server.url + "console/")
    helper.fill("input[name=login]", "stella")
    helper.fill("input[name=password]", "hackberry-193")
    helper.click("button[type=submit]")
    helper.wait_for_url("**/console/")
    door(helper, "add-table", why="late-comers")
    assert "Add a table: done" in flash(helper)

    entry = page.locator('#staff li[data-login="stella"] form[data-action=remove-staff]')
    entry.locator("[name=why]").fill("her password was read out at the door")
    press(page, entry.locator("button"))
    assert "Take off the staff: done — STAFF REMOVED" in flash(page)
    assert page.locator('#staff li[data-login="stella"]').count() == 0
    shot(page, "staff-removed")

    helper.goto(server.url + "console/guests")
    assert helper.locator("input[name=password]").count() == 1          # signed out
    helper.fill("input[name=login]", "stella")
    helper.fill("input[name=password]", "hackberry-193")
    helper.click("button[type=submit]")
    assert helper.locator("input[name=password]").count() == 1          # refused
    helper.context.close()
    assert dict(hub.state.staff) == {"florence": "conductor"}
    (added,) = [e for e in hub.journal.events() if e.kind == ev.TABLE_ADDED]
    assert added.source == "staff:stella"


def test_a_wrong_guest_list_imported_is_taken_off_in_one_step(hub, server, page, tmp_path):
    """The host imported last year's file: the guests it listed and nobody has checked in
    since are taken off again in one step, each removal on record with the host's why (the
    LIST: "the persons who are expected to be present"); one checked in meanwhile stays."""
    submit(hub, ev.PARTY_CREATED, {"form": "block", "tables": 2})
    submit(hub, ev.GUEST_LISTED, {"guest": "Ann Lee"})
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    assert page.locator("form[data-action=undo-batch]").count() == 0
    upload = tmp_path / "last-year.csv"
    upload.write_text("Name\nOld Otto\nPast Pia\nFormer Fritz\n")
    page.locator("form[data-action=import-guests] input[type=file]").set_input_files(str(upload))
    press(page, page.locator("form[data-action=import-guests] button"))
    press(page, page.locator("form[data-action=add-guests] button[type=submit]"))
    assert flash(page).startswith("Import the guest list: 3 added.")
    press(page, row(page, "Past Pia").locator("form[data-action=check-in] button"))   # she did come
    assert "Check in: done" in flash(page)
    undo = page.locator("form[data-action=undo-batch]")
    assert "(Import the guest list: 3 guests, by florence)" in undo.inner_text()
    assert undo.locator("button").inner_text() == "Take off its 2 not checked in"
    shot(page, "door-undo-import")
    undo.locator("[name=why]").fill("last year's list")
    press(page, undo.locator("button"))
    assert flash(page) == "Undo the last list added: 2 removed."
    assert [r.get_attribute("data-guest") for r in page.locator("#guests tbody tr").all()] == ["Ann Lee", "Past Pia"]
    assert page.locator("form[data-action=undo-batch]").count() == 0
    removed = [e for e in hub.journal.events() if e.kind == ev.GUEST_REMOVED]
    assert [(e.body["guest"], e.body["why"], e.source) for e in removed] == [
        ("Old Otto", "last year's list", "staff:florence"), ("Former Fritz", "last year's list", "staff:florence")]


def test_a_guest_who_left_is_renamed_and_one_holding_a_printed_card_is_undone(hub, server, page):
    """The final results carry the names as the host corrects them, a guest who left too;
    before the draw a guest who drew a printed card from the TRAY and was checked in by
    mistake is undone in one step, the card back in the tray."""
    submit(hub, ev.PARTY_CREATED, {"form": "block", "tables": 1})
    for name in ("Ann Lee", "Bob Ray", "Cora Fox", "Dan Poe", "Eve Orr"):
        submit(hub, ev.GUEST_LISTED, {"guest": name})
        submit(hub, ev.CHECKED_IN, {"guest": name})
    submit(hub, ev.CARD_DRAWN, {"guest": "Eve Orr", "card": "1A"})
    submit(hub, ev.GUEST_LEFT, {"guest": "Dan Poe", "why": "went home"})
    sign_in_page(page, server.url)
    page.goto(server.url + "console/guests")
    row_action(page, "Dan Poe", "rename", new_name="Daniel Poe", why="his full name on the results")
    assert "Rename a guest: done" in flash(page)
    assert "(left)" in row(page, "Daniel Poe").inner_text()
    row_action(page, "Eve Orr", "undo-check-in", why="her sister drew it")
    assert "Undo the check-in: done" in flash(page)
    assert hub.state.guests["Eve Orr"].card is None and "1A" not in hub.state.holders
