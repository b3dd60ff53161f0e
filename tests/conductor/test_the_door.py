"""The door and the party's changes: walk-ins, check-ins undone, renames, removals, tables
added, the set-up changed, printed cards drawn by hand, and corrections of an earlier
session. Every change is an event judged before it is journaled and replayed by the fold.

Book: 000_ff8a6ed40036e836.txt. LIST: the conductor "checks off the names of the persons
who have arrived, then takes as many score-cards in successive order as there are persons
present. Four players are to be at each table, but should it happen that this number
cannot be completed at the last table, then three or two players may be seated there."
"Late-comers will have to be satisfied to receive vacant seats at the last tables."
TRAY: "The card which a person draws will decide at which table and chair he is to be
seated." BERGEN GAME: "There must always be four players at each table."
"""
from hub.conductor import events as k
import pytest

from hub.conductor import screens, to_json
from hub.conductor.audit import audit
from hub.conductor.cards import home, label
from hub.conductor.prizes import totals

from .party import Party, cards_seating, win


def refused(v, why: str) -> None:
    assert (v.ok, v.why) == (False, why)


def on_record(p: Party) -> None:
    """The journal replays to the live state and passes the audit (every input admitted
    again, every decision the same)."""
    assert p.replayed() == to_json(p.state)
    state, findings = audit(p.journal)
    assert findings == () and to_json(state) == to_json(p.state)


def block(tables: int = 2, listed=(), **setup) -> Party:
    p = Party()
    p.create(form="block", tables=tables, **setup)
    for name in listed:
        p.must(p.staff(k.GUEST_LISTED, {"guest": name}))
    return p


def test_near_duplicate_names_are_flagged_and_the_host_may_add_anyway():
    p = block(listed=["Ann Lee"])
    for twin in ("ann lee", "Ann  Lee", " ANN LEE "):
        refused(p.staff(k.GUEST_LISTED, {"guest": twin}), "SIMILAR NAME")
        refused(p.staff(k.WALK_IN, {"guest": twin}), "SIMILAR NAME")
    refused(p.staff(k.GUEST_LISTED, {"guest": "Ann Lee"}), "ALREADY LISTED")
    # the host knows them: two people of the same name
    p.must(p.staff(k.WALK_IN, {"guest": "ann lee", "similar_ok": True}))
    assert list(p.state.guests) == ["Ann Lee", "ann lee"]
    assert p.state.guests["ann lee"].checked_in and not p.state.guests["Ann Lee"].checked_in


def test_the_door_before_the_draw_walk_in_undo_rename_remove_and_everyone_in():
    p = block(listed=["Ann Lee", "bob ray", "Cora Fox", "Dan Poe", "Eve Orr"])
    p.must(p.staff(k.WALK_IN, {"guest": "Fay Ash"}))
    assert p.state.guests["Fay Ash"].checked_in and p.state.session is None
    p.must(p.staff(k.CHECKED_IN, {"guest": "Dan Poe"}))
    p.must(p.staff(k.CHECK_IN_UNDONE, {"guest": "Dan Poe", "why": "checked the wrong Dan"}))
    assert not p.state.guests["Dan Poe"].checked_in
    refused(p.staff(k.CHECK_IN_UNDONE, {"guest": "Dan Poe", "why": "again"}), "NOT CHECKED IN")
    refused(p.staff(k.CHECK_IN_UNDONE, {"guest": "Fay Ash"}), "SAY WHY")
    # a rename may fix the case of the same name, never make a near-duplicate of another
    p.must(p.staff(k.GUEST_RENAMED, {"guest": "bob ray", "name": "Bob Ray", "why": "capitals"}))
    refused(p.staff(k.GUEST_RENAMED, {"guest": "Bob Ray", "name": "cora  fox", "why": "x"}),
            "SIMILAR NAME")
    p.must(p.staff(k.GUEST_REMOVED, {"guest": "Eve Orr", "why": "sent regrets"}))
    assert list(p.state.guests) == ["Ann Lee", "Bob Ray", "Cora Fox", "Dan Poe", "Fay Ash"]
    p.must(p.staff(k.ALL_CHECKED_IN, {}))
    assert all(g.checked_in for g in p.state.guests.values())
    refused(p.staff(k.ALL_CHECKED_IN, {}), "ALL IN")
    p.draw()
    # after the draw a guest holds his card: he is not removed from the list (his check-in
    # may be undone while no game is played with the card: see the late-comer's test below)
    refused(p.staff(k.GUEST_REMOVED, {"guest": "Ann Lee", "why": "x"}), "HAS A CARD")
    refused(p.staff(k.ALL_CHECKED_IN, {}), "SEATS DRAWN")
    # a renamed guest keeps his card and seat
    card = p.state.guests["Cora Fox"].card
    p.must(p.staff(k.GUEST_RENAMED, {"guest": "Cora Fox", "name": "Cora Fox-Poe", "why": "wed"}))
    assert p.state.holders[card] == "Cora Fox-Poe" and p.state.guests["Cora Fox-Poe"].card == card
    on_record(p)


def test_more_guests_than_seats_a_new_last_table_and_the_short_table_rule():
    """Nine guests at two tables: refused; a third table added, then four, three and two:
    "three or two players may be seated there" at the last tables (LIST)."""
    p = block(tables=2)
    p.guests([f"G{i}" for i in range(9)])
    refused(p.staff(k.DRAW_SEATS, {}), "TOO MANY GUESTS")
    refused(p.staff(k.TABLE_ADDED, {}), "SAY WHY")
    v = p.must(p.staff(k.TABLE_ADDED, {"why": "nine guests came"}))
    assert v.msg == "TABLE 3 ADDED" and p.state.setup.tables == 3
    p.draw()
    assert {n: t.players for n, t in p.state.session.tables.items()} == {1: 4, 2: 3, 3: 2}
    on_record(p)


def test_a_walk_in_after_the_draw_takes_a_seat_at_a_new_last_table():
    """"Late-comers will have to be satisfied to receive vacant seats at the last tables"
    (LIST): with every seat taken, the conductor adds a table and the walk-in sits there."""
    p = block(tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    refused(p.staff(k.WALK_IN, {"guest": "Late Larry"}), "PARTY FULL")
    assert "Late Larry" not in p.state.guests          # a refusal records nothing
    p.must(p.staff(k.TABLE_ADDED, {"why": "walk-ins"}))
    v = p.must(p.staff(k.WALK_IN, {"guest": "Late Larry"}))
    assert v.msg == "TABLE 3 A" and [e.kind for e in v.events] == [k.WALK_IN, k.GUEST_PLACED]
    assert p.state.guests["Late Larry"].card == "3A"
    on_record(p)


def test_a_late_comer_takes_the_seat_a_guest_who_left_vacated_when_every_card_is_held():
    """Issue 12 item 4: every card of the party's tables is held; a guest leaves; the
    late-comer gets the vacant seat ("vacant seats at the last tables", LIST) with a spare
    card of his own, never the score of the guest who left. The spare names the seat, as
    every card does ("The card which a person draws will decide at which table and chair
    he is to be seated", TRAY): the second card for Table 2 C, "TABLE 2 C/2"; a table added
    later gives its late-comers its own cards, so no card names a seat its holder is not in."""
    p = block(tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    for seat in "AB":
        p.must(win(p, 2, seat, 5))
    leaver = p.state.holders["2C"]
    before = totals(p.state)["2C"]
    p.must(p.staff(k.GUEST_LEFT, {"guest": leaver, "why": "train home"}))
    v = p.must(p.staff(k.WALK_IN, {"guest": "Late Lou"}))
    assert v.msg == "TABLE 2 C"
    card = p.state.guests["Late Lou"].card
    assert (card, label(card)) == ("2C/2", "TABLE 2 C/2")              # a spare card
    assert p.where("Late Lou") == (2, "C")
    assert totals(p.state)[card] == 0 and totals(p.state)["2C"] == before
    # the table checks its seats again: the board is told the party has second cards
    form = screens(p.state)[2]["form"]
    assert form["kind"] == "seat-check"
    assert [(f["label"], f["v"], f["max"], f["copies"]) for f in form["fields"]][2] == (
        "C LATE LOU", 10_000 + 7, 8, 2)
    p.must(p.table(2, k.SEAT_CHECK, {"cards": p.card_numbers(2)}))
    p.must(win(p, 2, "C", 3))
    assert totals(p.state)[card] == 3
    # a table added later: its late-comers hold its own cards
    p.must(p.staff(k.GUEST_LEFT, {"guest": p.state.holders["1D"], "why": "tired"}))
    p.must(p.staff(k.TABLE_ADDED, {"why": "a party of four at the door"}))
    for name, card in (("Ida", "1D/2"), ("Jo", "3A"), ("Kit", "3B")):
        p.must(p.staff(k.WALK_IN, {"guest": name}))
        assert p.state.guests[name].card == card and home(card) == p.where(name)
    on_record(p)


@pytest.mark.parametrize("form", ["bergen", "tiddle-a-wink"])
def test_a_partnership_draw_needs_four_at_every_table_with_balanced_sides(form):
    """"There must always be four players at each table" (BERGEN GAME), two white, two red;
    Tiddle-a-wink's party: "The players are divided into "sides" as in the Bergen Game,
    consequently the score-cards are made up in the same manner" (TIDDLE-A-WINK)."""
    p = Party()
    p.create(form=form, tables=3)
    p.guests([f"G{i}" for i in range(7)])
    refused(p.staff(k.DRAW_SEATS, {}), "FOUR AT A TABLE")
    assert p.state.session is None
    p.guests(["G7"])
    p.draw()
    assert cards_seating(p) == {1: "W1A W1B R1A R1B", 2: "W2A W2B R2A R2B"}


def test_the_party_changes_until_play_begins_and_afterwards_only_its_prizes():
    p = block(tables=2)
    refused(p.staff(k.PARTY_CHANGED, {"changes": {"form": "bergen"}}), "SAY WHY")
    refused(p.staff(k.PARTY_CHANGED, {"changes": {"form": "chess"}, "why": "x"}), "UNKNOWN FORM")
    refused(p.staff(k.PARTY_CHANGED, {"changes": {"seed": 3}, "why": "x"}), "BAD CHANGE")
    refused(p.staff(k.PARTY_CHANGED, {"changes": {"tables": 2}, "why": "x"}), "NO CHANGE")
    # a new form comes with its own book: Sebastopol plays three games and four sessions
    p.must(p.staff(k.PARTY_CHANGED, {"changes": {"form": "sebastopol", "tables": 3},
                                     "why": "the hosts prefer it"}))
    setup = p.state.setup
    assert (setup.form, setup.tables, setup.games_per_session, setup.sessions) == ("sebastopol", 3, 3, 4)
    p.guests([f"G{i}" for i in range(12)])
    p.draw()
    refused(p.staff(k.PARTY_CHANGED, {"changes": {"tables": 4}, "why": "x"}), "SEATS DRAWN")
    # until play begins the draw may be undone: every card back, the guests still in
    p.must(p.staff(k.DRAW_UNDONE, {"why": "a fourth table after all"}))
    assert p.state.session is None and not p.state.holders
    assert all(g.checked_in and g.card is None for g in p.state.guests.values())
    p.must(p.staff(k.PARTY_CHANGED, {"changes": {"tables": 4}, "why": "room for walk-ins"}))
    p.draw()
    p.must(p.staff(k.PARTY_CHANGED, {"changes": {"games_per_session": 2}, "why": "short evening"}))
    p.start()
    refused(p.staff(k.DRAW_UNDONE, {"why": "x"}), "PLAY HAS BEGUN")
    refused(p.staff(k.PARTY_CHANGED, {"changes": {"sessions": 2}, "why": "x"}), "PLAY HAS BEGUN")
    p.must(p.staff(k.PARTY_CHANGED, {"changes": {"prizes": 2, "booby": True}, "why": "a gift"}))
    assert (p.state.setup.prizes, p.state.setup.booby, p.state.setup.games_per_session) == (2, True, 2)
    # each change on record with who and why
    assert [(what, m.by, m.why) for what, m in p.state.changes] == [
        ("set-up: form block → sebastopol, tables 2 → 3, games per session 4 → 3, sessions 3 → 4",
         "staff:ann", "the hosts prefer it"),
        ("the draw undone", "staff:ann", "a fourth table after all"),
        ("set-up: tables 3 → 4", "staff:ann", "room for walk-ins"),
        ("set-up: games per session 3 → 2", "staff:ann", "short evening"),
        ("set-up: prizes None → 2, booby False → True", "staff:ann", "a gift")]
    on_record(p)


def test_printed_cards_drawn_from_the_tray_are_recorded_and_decide_the_seats():
    """Issue 12 item 9: "The card which a person draws will decide at which table and chair
    he is to be seated" (TRAY); the cards are "as many score-cards in successive order as
    there are persons present" (LIST): seven guests take 1A..2C."""
    p = block(tables=2)
    names = [f"G{i}" for i in range(7)]
    p.guests(names)
    drawn = dict(zip(names, ["2C", "1A", "2B", "1D", "1C", "2A", "1B"]))
    for name in names[:6]:
        p.must(p.staff(k.CARD_DRAWN, {"guest": name, "card": drawn[name]}))
    refused(p.staff(k.CARD_DRAWN, {"guest": "G6", "card": "2C"}), "CARD TAKEN")
    refused(p.staff(k.CARD_DRAWN, {"guest": "G6", "card": "3A"}), "NO SUCH CARD")
    refused(p.staff(k.DRAW_SEATS, {"by_hand": True}), "CARDS NOT DRAWN")
    refused(p.staff(k.DRAW_SEATS, {}), "DRAWN BY HAND")    # the hub does not draw over them
    p.must(p.staff(k.CARD_DRAWN, {"guest": "G6", "card": "2D"}))
    refused(p.staff(k.DRAW_SEATS, {"by_hand": True}), "WRONG CARDS")   # 2D is not in order
    p.must(p.staff(k.CARD_DRAWN, {"guest": "G6", "card": None}))
    p.must(p.staff(k.CARD_DRAWN, {"guest": "G6", "card": "1B"}))
    v = p.must(p.staff(k.DRAW_SEATS, {"by_hand": True}))
    assert v.events[1].body["cards"] == drawn and v.events[1].body["by_hand"]
    assert {name: p.where(name) for name in names} == {
        name: (int(card[0]), card[1]) for name, card in drawn.items()}
    on_record(p)


def test_white_and_red_cards_drawn_by_hand_at_a_bergen_party():
    p = Party()
    p.create(form="bergen", tables=1)
    p.guests(["Wa", "Wb", "Ra", "Rb"])
    for name, card in (("Wa", "W1A"), ("Wb", "W1B"), ("Ra", "R1A"), ("Rb", "R1B")):
        p.must(p.staff(k.CARD_DRAWN, {"guest": name, "card": card}))
    refused(p.staff(k.CARD_DRAWN, {"guest": "Wa", "card": "1A"}), "NO SUCH CARD")
    p.must(p.staff(k.DRAW_SEATS, {"by_hand": True}))
    assert p.seating() == {1: {"A": "Wa", "B": "Wb", "C": "Ra", "D": "Rb"}}


def _session(p: Party, winners: dict) -> None:
    """Every table plays out its four games (before its board shows the bell, so they
    count); `winners` {table: seat} wins each with 5."""
    for n, t in sorted(p.state.session.tables.items()):
        if t.players:
            for _ in range(4 - t.entered):
                p.must(win(p, n, winners.get(n, "A"), 5))
    p.ack_bell()


def test_a_correction_of_session_one_after_session_two_is_seated():
    """docs/conductor.md, corrections: seating already announced stays as journaled; the
    next movement reads the corrected totals. Session III is seated "according to the
    amounts of sixteenths won in these two sessions ... He puts the highest winner at
    Table 1, Seat A" (THIRD SESSION)."""
    def party() -> tuple[Party, str]:
        p = block(tables=3)
        p.guests([f"G{i:02d}" for i in range(12)])
        p.draw()
        p.start()
        entry = win(p, 3, "A", 2).events[0].id      # keyed 2: it was 36
        for _ in range(3):
            p.must(win(p, 3, "B", 5))
        _session(p, {1: "B", 2: "C"})
        p.reseat()
        p.start()
        return p, entry

    mended, entry = party()
    kept, _ = party()                                  # never corrected
    second = cards_seating(mended, 2)
    was = totals(mended.state)
    v = mended.must(mended.staff(k.RESULT_CORRECTED, {"entry": entry, "why": "36, not 2",
                                                      "values": win_values(mended, entry, 36)}))
    assert v.msg == "CORRECTED"
    assert cards_seating(mended, 2) == second          # session II's seats stay as journaled
    assert totals(mended.state) == dict(was, **{"3A": 36})
    for p in (mended, kept):
        _session(p, {})
        p.reseat()
    promoted = mended.state.holders["3A"]
    # 36 passes 3B's 35: third, Table 1 C; as keyed (2) he stayed fourth, Table 1 D
    assert (mended.where(promoted), kept.where(promoted)) == ((1, "C"), (1, "D"))
    on_record(mended)


def win_values(p: Party, entry_id: str, gain: int) -> dict:
    """The values of `entry_id` with the loser holding two pieces worth `gain` sixteenths."""
    from hub.conductor.state import find_entry
    si, n, ei = find_entry(p.state, entry_id)
    values = dict(p.state.sessions[si].tables[n].entries[ei].values)
    loser = next(s for s in "ABCD" if values.get(f"{s}_pieces"))
    values[loser], values[f"{loser}_pieces"] = gain, 2
    return values


def test_the_projectors_standings_hidden_and_shown_again_are_on_record():
    """The party's display may change at any time; who hid the standings is on record."""
    p = block(tables=1)
    p.guests([f"G{i}" for i in range(4)])
    p.draw()
    p.start()
    v = p.must(p.staff(k.DISPLAY_CHANGED, {"standings": "hidden"}))
    assert v.msg == "STANDINGS HIDDEN" and p.state.standings_hidden.by == "staff:ann"
    refused(p.staff(k.DISPLAY_CHANGED, {"standings": "hidden"}), "ALREADY HIDDEN")
    refused(p.staff(k.DISPLAY_CHANGED, {"standings": "off"}), "BAD MESSAGE")
    p.must(p.staff(k.DISPLAY_CHANGED, {"standings": "shown"}, login="ann"))
    assert p.state.standings_hidden is None
    on_record(p)


def test_a_correction_after_the_final_count_gives_the_prize_to_whom_the_totals_now_say():
    """Corrections at any time: the prizes are folded from the totals, so a game corrected
    after the count moves the first prize (THIRD SESSION: the conductor "arranges them in
    consecutive order according to the total amounts of note-values won, putting the
    highest on top ... the names of the winners are announced and the prizes awarded")."""
    from hub.conductor.prizes import awards
    p = block(tables=1, sessions=1)
    p.guests([f"G{i}" for i in range(4)])
    p.draw()
    p.start()
    entry = win(p, 1, "A", 2).events[0].id       # A held 36, keyed as 2
    for _ in range(3):
        p.must(win(p, 1, "B", 5))
    p.ack_bell()
    p.must(p.staff(k.FINAL_COUNT, {}))
    assert [(a.prize, a.cards) for a in awards(p.state)] == [("1", ("1B",))]
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": entry, "why": "two pieces: 36",
                                        "values": win_values(p, entry, 36)}))
    assert [(a.prize, a.cards) for a in awards(p.state)] == [("1", ("1A",))]
    on_record(p)


# -- a guest who left comes back (docs/conductor.md, "A guest who comes back") ------------------

def test_a_guest_marked_as_left_by_mistake_is_back_in_his_seat_with_his_score():
    """"Has left" pressed on the wrong row: undone with who and why, the guest sits again in
    the seat he left (nobody took it), with his own card and score; the table checks its
    seats again before its next result, as for anybody new sitting down."""
    p = block(tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    p.must(win(p, 1, "B", 5))
    wrong = p.state.holders["1B"]
    p.must(p.staff(k.GUEST_LEFT, {"guest": wrong, "why": "train home"}))
    assert p.state.session.tables[1].seats[1] is None
    refused(p.staff(k.GUEST_BACK, {"guest": wrong}), "SAY WHY")
    v = p.must(p.staff(k.GUEST_BACK, {"guest": wrong, "why": "wrong row: it was Bob"}, login="ann"))
    assert v.msg == "TABLE 1 B" and [e.kind for e in v.events] == [k.GUEST_BACK, k.GUEST_PLACED]
    assert p.where(wrong) == (1, "B") and p.state.guests[wrong].card == "1B"
    assert p.state.guests[wrong].left is None and totals(p.state)["1B"] == 5
    assert screens(p.state)[1]["form"]["kind"] == "seat-check"
    assert next(g for g in to_json(p.state)["guests"] if g["name"] == wrong)["left"] is None
    assert p.state.changes[-1][0] == f"{wrong} is back" and p.state.changes[-1][1].by == "staff:ann"
    refused(p.staff(k.GUEST_BACK, {"guest": wrong, "why": "again"}), "NOT LEFT")
    refused(p.staff(k.GUEST_BACK, {"guest": "Nobody", "why": "?"}), "NOT ON THE LIST")
    on_record(p)


def test_a_guest_who_comes_back_after_a_late_comer_took_his_seat_sits_as_a_late_comer():
    """The seat he left went to a late-comer ("Late-comers will have to be satisfied to
    receive vacant seats at the last tables", LIST): coming back he is satisfied the same
    way, at the first vacant seat at the last tables, keeping his card and its score. With
    no seat vacant he is refused until a table is added."""
    p = block(tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    for seat in "CC":
        p.must(win(p, 2, seat, 5))
    leaver = p.state.holders["2C"]
    p.must(p.staff(k.GUEST_LEFT, {"guest": leaver, "why": "phone call outside"}))
    assert p.must(p.staff(k.WALK_IN, {"guest": "Late Lou"})).msg == "TABLE 2 C"
    refused(p.staff(k.GUEST_BACK, {"guest": leaver, "why": "back from the call"}), "PARTY FULL")
    assert p.state.guests[leaver].left is not None          # a refusal changes nothing
    p.must(p.staff(k.TABLE_ADDED, {"why": "a seat for the guest back"}))
    v = p.must(p.staff(k.GUEST_BACK, {"guest": leaver, "why": "back from the call"}))
    assert v.msg == "TABLE 3 A" and p.where(leaver) == (3, "A")
    assert p.where("Late Lou") == (2, "C")                   # nobody is moved for him
    assert p.state.guests[leaver].card == "2C" and totals(p.state)["2C"] == 10
    # the next late-comer joins him there: the table plays once two are there
    assert p.must(p.staff(k.WALK_IN, {"guest": "Late Lee"})).msg == "TABLE 3 B"
    p.must(p.table(3, k.SEAT_CHECK, {"cards": p.card_numbers(3)}))
    p.must(win(p, 3, "A", 4))
    assert totals(p.state)["2C"] == 14
    on_record(p)


def test_a_guest_who_left_in_one_session_comes_back_in_the_next_at_the_last_tables():
    """Between sessions the movement seated only those present: the seat he left is of a
    session gone, so he comes back like a late-comer (LIST), his score-card kept."""
    p = block(tables=2)
    p.guests([f"G{i}" for i in range(7)])
    p.draw()
    p.start()
    leaver = p.state.holders["1A"]
    p.must(win(p, 1, "A", 5))
    p.must(p.staff(k.GUEST_LEFT, {"guest": leaver, "why": "unwell"}))
    _session(p, {1: "B"})
    p.reseat()
    assert p.state.session.place_of("1A") is None
    vacant = [(n, x) for n, t in sorted(p.state.session.tables.items())
              for x, c in zip("ABCD", t.seats) if c is None and t.players]
    v = p.must(p.staff(k.GUEST_BACK, {"guest": leaver, "why": "feeling better"}))
    assert p.where(leaver) == vacant[-1] and v.msg == "TABLE {} {}".format(*vacant[-1])
    assert totals(p.state)["1A"] == 5
    on_record(p)


def test_a_guest_back_before_the_draw_is_present_again_and_after_the_count_in_the_prizes():
    """Before the draw he is simply present again. After the final count, "has left" pressed
    on the winner's row by mistake is undone too: the prizes are read from the totals of
    those present (THIRD SESSION: the conductor "arranges them in consecutive order
    according to the total amounts ... the names of the winners are announced")."""
    from hub.conductor.prizes import awards
    p = block(tables=1, sessions=1)
    p.guests([f"G{i}" for i in range(5)])
    p.must(p.staff(k.GUEST_LEFT, {"guest": "G4", "why": "went home"}))
    p.must(p.staff(k.GUEST_BACK, {"guest": "G4", "why": "forgot her coat, staying"}))
    p.must(p.staff(k.GUEST_LEFT, {"guest": "G3", "why": "went home"}))
    p.draw()
    assert p.state.guests["G4"].card is not None and p.state.guests["G3"].card is None
    p.start()
    for _ in range(4):
        p.must(win(p, 1, "A", 5))
    p.ack_bell()
    winner = p.state.holders["1A"]
    p.must(p.staff(k.GUEST_LEFT, {"guest": winner, "why": "wrong row"}))
    p.must(p.staff(k.FINAL_COUNT, {}))
    assert "1A" not in [c for a in awards(p.state) for c in a.cards]
    v = p.must(p.staff(k.GUEST_BACK, {"guest": winner, "why": "it was the row below"}))
    assert v.msg == "GUEST BACK" and p.state.session.place_of("1A") is None   # no seat to take
    assert [(a.prize, a.cards) for a in awards(p.state)] == [("1", ("1A",))]
    on_record(p)


def test_a_red_card_coming_back_in_bergen_sits_in_a_red_seat():
    """BERGEN GAME: White A, B and Red A, B cards; partners of opposite colours sit opposite
    (docs/conductor.md, Bergen seats): a red card back at a new table sits in C."""
    p = Party()
    p.create(form="bergen", tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    red = p.state.session.tables[2].seats[2]
    leaver = p.state.holders[red]
    p.must(p.staff(k.GUEST_LEFT, {"guest": leaver, "why": "called away"}))
    p.must(p.staff(k.WALK_IN, {"guest": "Late Lou"}))
    p.must(p.staff(k.TABLE_ADDED, {"why": "room for one more"}))
    assert p.must(p.staff(k.GUEST_BACK, {"guest": leaver, "why": "back"})).msg == "TABLE 3 C"
    on_record(p)


def test_a_late_comer_checked_in_by_mistake_is_undone_until_a_game_is_played_with_his_card():
    """"Check in" pressed on the wrong row after the draw seats a late-comer who is not there
    (LIST). Until a game is played with his card the check-in is undone: the card goes back
    to the tray and the seat is vacant for the guest who did come, with that card. Once a
    game is on the card it is his score-card: he is a guest who left instead."""
    p = block(tables=2, listed=["Absent Al"])
    p.guests([f"G{i}" for i in range(7)])
    p.draw()
    p.start()
    p.must(win(p, 1, "A", 5))
    assert p.must(p.staff(k.CHECKED_IN, {"guest": "Absent Al"})).msg == "TABLE 2 D"
    assert p.state.guests["Absent Al"].card == "2D"
    v = p.must(p.staff(k.CHECK_IN_UNDONE, {"guest": "Absent Al", "why": "wrong row"}))
    assert v.msg == "CHECK-IN UNDONE" and p.state.guests["Absent Al"].card is None
    assert "2D" not in p.state.holders and p.state.session.tables[2].seats[3] is None
    p.must(p.staff(k.GUEST_REMOVED, {"guest": "Absent Al", "why": "sent regrets"}))
    v = p.must(p.staff(k.WALK_IN, {"guest": "Here Hal"}))
    assert v.msg == "TABLE 2 D" and p.state.guests["Here Hal"].card == "2D"
    # a game on his card: refused, he leaves instead
    p.must(p.table(2, k.SEAT_CHECK, {"cards": p.card_numbers(2)}))
    p.must(win(p, 2, "D", 4))
    refused(p.staff(k.CHECK_IN_UNDONE, {"guest": "Here Hal", "why": "x"}), "HAS A CARD")
    # one seated at the draw who has played game 1 at Table 1: the same
    refused(p.staff(k.CHECK_IN_UNDONE, {"guest": p.state.holders["1B"], "why": "x"}), "HAS A CARD")
    on_record(p)


def test_a_table_added_by_mistake_is_removed_while_nobody_has_sat_there():
    """"Add a table" pressed once too often: the last table goes again, on record, while no
    guest has sat there; once a late-comer has ("vacant seats at the last tables", LIST) it
    stays."""
    p = block(tables=2)
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    p.must(p.staff(k.TABLE_ADDED, {"why": "late-comers"}))
    p.must(p.staff(k.TABLE_ADDED, {"why": "late-comers"}))
    refused(p.staff(k.TABLE_REMOVED, {}), "SAY WHY")
    v = p.must(p.staff(k.TABLE_REMOVED, {"why": "pressed twice"}))
    assert v.msg == "TABLE 4 REMOVED" and p.state.setup.tables == 3
    assert set(p.state.session.tables) == {1, 2, 3} and set(screens(p.state)) == {1, 2, 3}
    assert p.state.changes[-1][0] == "Table 4 removed"
    assert p.must(p.staff(k.WALK_IN, {"guest": "Late Lou"})).msg == "TABLE 3 A"
    refused(p.staff(k.TABLE_REMOVED, {"why": "x"}), "TABLE IN USE")
    p.must(p.staff(k.GUEST_LEFT, {"guest": "Late Lou", "why": "wrong party"}))
    refused(p.staff(k.TABLE_REMOVED, {"why": "x"}), "TABLE IN USE")   # he may come back to it
    on_record(p)
    one = block(tables=1)
    refused(one.staff(k.TABLE_REMOVED, {"why": "x"}), "ONE TABLE")


def test_a_login_taken_off_the_staff_acts_no_more_and_its_record_stays():
    """The conductor's assistant ("When the party is very large he may require an ASSISTANT",
    CONDUCTOR): a login added by mistake, or whose password is lost, is taken off the staff
    by a conductor, with why; what it did stays on record under its name, and it may be
    added again (a new password)."""
    p = block(tables=1, listed=["Ann Lee"])
    p.must(p.staff(k.STAFF_ADDED, {"login": "stella", "role": "assistant"}))
    p.must(p.staff(k.CHECKED_IN, {"guest": "Ann Lee"}, login="stella"))
    refused(p.staff(k.STAFF_REMOVED, {"login": "ann", "why": "x"}, login="stella"), "CONDUCTOR ONLY")
    refused(p.staff(k.STAFF_REMOVED, {"login": "ann", "why": "x"}), "NOT YOURSELF")
    refused(p.staff(k.STAFF_REMOVED, {"login": "stela", "why": "x"}), "NO SUCH LOGIN")
    refused(p.staff(k.STAFF_REMOVED, {"login": "stella"}), "SAY WHY")
    assert p.must(p.staff(k.STAFF_REMOVED, {"login": "stella", "why": "password lost"})).msg == "STAFF REMOVED"
    assert dict(p.state.staff) == {"ann": "conductor"}
    refused(p.staff(k.WALK_IN, {"guest": "Bob Ray"}, login="stella"), "NOT STAFF")
    assert [e.source for e in p.journal if e.kind == k.CHECKED_IN] == ["staff:stella"]
    p.must(p.staff(k.STAFF_ADDED, {"login": "stella", "role": "assistant"}))
    on_record(p)


def test_the_door_refuses_what_did_not_happen():
    """Only a guest who came may leave or draw a card (LIST: the conductor "checks off the
    names of the persons who have arrived"); a name fits the list (80 characters); the
    draw is undone only before play begins, not once session I is played and II seated."""
    p = block(tables=2, listed=["Not Yet"])
    refused(p.staff(k.GUEST_LEFT, {"guest": "Not Yet", "why": "x"}), "NOT HERE")
    refused(p.staff(k.GUEST_LEFT, {"guest": "Nobody", "why": "x"}), "NOT HERE")
    refused(p.staff(k.CARD_DRAWN, {"guest": "Not Yet", "card": "1A"}), "NOT CHECKED IN")
    p.must(p.staff(k.GUEST_LISTED, {"guest": "N" * 80}))
    refused(p.staff(k.GUEST_LISTED, {"guest": "M" * 81}), "BAD NAME")
    p.guests([f"G{i}" for i in range(8)])
    p.draw()
    p.start()
    for n in (1, 2):
        for seat in "ABCD":
            p.must(win(p, n, seat, 3))
    p.ack_bell()
    p.reseat()
    refused(p.staff(k.DRAW_UNDONE, {"why": "x"}), "PLAY HAS BEGUN")
    on_record(p)


@pytest.mark.parametrize("form", ["bergen", "tiddle-a-wink"])
def test_a_partnership_partys_set_up_changed_before_the_draw(form):
    """A party of partners (four at a table, BERGEN GAME: "There must always be four players
    at each table") has its set-up changed like any other: a booby prize added."""
    p = Party()
    p.create(form=form, tables=2)
    p.must(p.staff(k.PARTY_CHANGED, {"changes": {"booby": True}, "why": "a prize more"}))
    assert p.state.setup.booby
    on_record(p)
