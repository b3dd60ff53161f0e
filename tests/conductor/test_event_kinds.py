"""Every kind of event is one frozen value (hub/conductor/events.py), read once at the
journal's edge (issue 13, "Typed values at the boundaries").

The journals here are the conductor's own: the parties of this folder's scenarios (the
door, a Block and a Bergen night, corrections, play-offs), admitted by `admit` exactly as
the hub admits inputs, written to a SQLite journal by `hub.journal.Journal` and read back
by `read_events`. Each row read back is its kind's value, equal to the one the judge made,
spelled back to the very JSON the journal holds, and the party it folds to is the same.
A kind added later needs its value here and a scenario that journals it.
"""
from __future__ import annotations

import dataclasses

import pytest

from hub.conductor import events as k
from hub.conductor import replay, to_json
from hub.event import Event, Proposal, canonical
from hub.journal import Journal, open_reader, read_events
from hub.refusal import DISPLAY

from . import test_all_quarters_party, test_bergen_party, test_block_party, test_no_game, \
    test_sessions, test_the_door
from .party import Party, win

SCENARIOS = (
    test_the_door.test_the_door_before_the_draw_walk_in_undo_rename_remove_and_everyone_in,
    test_the_door.test_the_party_changes_until_play_begins_and_afterwards_only_its_prizes,
    test_the_door.test_printed_cards_drawn_from_the_tray_are_recorded_and_decide_the_seats,
    test_the_door.test_the_projectors_standings_hidden_and_shown_again_are_on_record,
    test_the_door.test_a_walk_in_after_the_draw_takes_a_seat_at_a_new_last_table,
    test_the_door.test_a_guest_marked_as_left_by_mistake_is_back_in_his_seat_with_his_score,
    test_the_door.test_a_table_added_by_mistake_is_removed_while_nobody_has_sat_there,
    test_the_door.test_a_login_taken_off_the_staff_acts_no_more_and_its_record_stays,
    test_sessions.test_a_table_screen_through_a_session,
    test_sessions.test_a_bergen_guest_leaves_and_the_conductor_fills_the_seat,
    test_bergen_party.test_a_bergen_party_by_the_clock,
    test_block_party.test_a_block_party_from_the_list_to_the_prizes,
    test_all_quarters_party.test_an_all_quarters_party_with_confirmation_and_a_correction,
    test_no_game.test_a_table_between_games_closes_itself_after_the_finish_bell,
)
GUESTS = [f"Guest {i:02d}" for i in range(8)]


def in_play(form: str = "block", **setup) -> Party:
    p = Party()
    p.create(form=form, tables=2, seat_check=False, **setup)
    p.guests(GUESTS)
    p.draw()
    p.start()
    return p


def a_bell_claimed_a_table_closed_and_points_made_in_play() -> None:
    """The kinds the scenarios above leave out. Grimm 1896 (000_ff8a6ed40036e836.txt), BLOCK
    GAME party: "As soon as four games have been finished at any table the conductor rings
    the bell" (a table claims it, table.bell, once the hub's bell was undone) "but he does
    not permit a new game to be started" (the conductor closes a table between games);
    BERGEN GAME party: "Ten points made at any table ends a session" (points keyed as they
    are made: table.count, and one taken back: table.count-undone)."""
    p = in_play()
    for gain in (30, 25, 20, 15):
        p.must(win(p, 1, "B", gain))
    bell = p.state.session.bell
    p.must(p.staff(k.BELL_UNDONE, {"bell": bell.id, "why": "rung too soon"}))
    p.must(p.table(1, k.TABLE_BELL, {}))
    p.must(p.staff(k.TABLE_CLOSED, {"table": 2, "why": "no game in hand"}))
    bergen = in_play("bergen", in_play="each")
    bergen.must(bergen.table(1, k.COUNT, {"game": 1, "values": {"seat": 1, "header": 3}}))
    # a count keyed for the wrong seat, taken back at the table (table.count-undone)
    bergen.must(bergen.table(1, k.COUNT, {"game": 1, "values": {"seat": 2, "header": 2}}))
    bergen.must(bergen.table(1, k.COUNT_UNDONE, {"game": 1, "count": bergen.journal[-1].id}))


@pytest.fixture(scope="module")
def journals() -> list[list[Event]]:
    """The journal of every party the scenarios play, as the judge made it."""
    made: list[list[Event]] = []
    original = Party.journaled

    def journaled(self, ev):
        if len(self.journal) == 1:
            made.append(self.journal)   # the party's own list: it grows as it plays
        original(self, ev)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Party, "journaled", journaled)
        for scenario in SCENARIOS + (a_bell_claimed_a_table_closed_and_points_made_in_play,):
            scenario()
    return made


def read_back(tmp_path, i: int, events: list[Event]) -> list[Event]:
    journal = Journal(tmp_path / f"party-{i}.sqlite")
    journal.append(events)
    journal.close()
    return list(read_events(open_reader(tmp_path / f"party-{i}.sqlite")))


def test_every_kind_is_registered_once_with_its_value():
    assert set(k.BODIES) == k.TABLE_KINDS | k.STAFF_KINDS | k.HUB_KINDS
    assert all(cls.KIND == kind for kind, cls in k.BODIES.items())
    assert len(set(k.BODIES.values())) == len(k.BODIES)


def test_every_kind_read_back_from_a_journal_is_the_value_the_judge_made_and_its_json(journals, tmp_path):
    seen = set()
    for i, made in enumerate(journals):
        back = read_back(tmp_path, i, made)
        assert [e.id for e in back] == [e.id for e in made]
        for was, row in zip(made, back):
            value = row.what
            seen.add(row.kind)
            assert type(value) is k.BODIES[row.kind]
            assert value == was.what, row            # read from the row = made by the judge
            assert canonical(value.to_json()) == row.body_json == was.body_json, row
            hash(value)                              # immutable all through: hashable
            for f in dataclasses.fields(value):
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(value, f.name, None)
        assert to_json(replay(back)) == to_json(replay(made))
    assert seen == set(k.BODIES), set(k.BODIES) - seen


def test_a_result_read_back_holds_its_recorded_outcome_as_a_value(journals, tmp_path):
    result = next(e for made in journals for e in made if e.kind == k.RESULT)
    (row,) = [e for e in read_back(tmp_path, 0, [result])]
    assert isinstance(row.what.outcome, k.Outcome)
    assert row.what.outcome.gains == tuple(row.body["outcome"]["points"].get(s, 0) for s in "ABCD")
    assert row.what.values["lead"] == row.body["values"]["lead"]
    with pytest.raises(TypeError):
        row.what.values["lead"] = 4                   # no dict inside: a FrozenMap


@pytest.mark.parametrize("kind, body, why", [
    (k.RESULT, {"game": 1, "values": [1, 2]}, "BAD MESSAGE"),
    (k.RESULT, {"game": "1", "values": {}}, "BAD MESSAGE"),
    (k.CONFIRM, {"entry": "x", "seat": "E"}, "BAD MESSAGE"),
    (k.SEAT_CHECK, {"cards": {"A": -1}}, "BAD MESSAGE"),
    (k.BELL_ACK, {"bell": 3}, "NO SUCH BELL"),
])
def test_a_malformed_body_from_a_board_is_refused_with_why_and_nothing_is_journaled(kind, body, why):
    p = in_play()
    before, journal = to_json(p.state), list(p.journal)
    v = p.table(1, kind, body)
    assert (v.ok, v.why) == (False, why) and len(v.why) <= DISPLAY
    assert p.journal == journal and to_json(p.state) == before


@pytest.mark.parametrize("kind, body, why", [
    (k.GUEST_SEATED, {"guest": "Guest 01", "table": 1, "seat": "E", "why": "x"}, "NO SUCH SEAT"),
    (k.GUEST_LEFT, {"guest": 7, "why": "gone home"}, "BAD NAME"),
    (k.GUEST_LEFT, {"guest": "Guest 01"}, "SAY WHY"),
    (k.BELL, {"meaning": "stop", "final": "yes"}, "BAD MESSAGE"),
    (k.PARTY_CHANGED, {"changes": [], "why": "x"}, "NO CHANGE"),
])
def test_a_malformed_body_from_the_console_is_refused_with_why(kind, body, why):
    p = in_play()
    before = to_json(p.state)
    v = p.staff(kind, body)
    assert (v.ok, v.why) == (False, why)
    assert to_json(p.state) == before


def test_a_journal_row_that_is_no_body_of_its_kind_is_an_anomaly_and_changes_nothing_else(tmp_path):
    p = Party()
    p.create(form="block", tables=2, seat_check=False)
    p.guests(GUESTS)
    bad = Event(len(p.journal) + 1, "forged", p.now, "staff:ann", k.GUEST_LISTED, {"guest": ["x"]})
    state = replay(read_back(tmp_path, 0, p.journal + [bad]))
    assert state.anomalies == ((bad.seq, k.GUEST_LISTED, "BAD NAME"),)
    assert state.guests == p.state.guests and state.seq == bad.seq


def test_a_decision_is_made_as_a_value_and_spelled_once_for_the_journal():
    p = Party()
    p.create(form="block", tables=2, seat_check=False)
    p.guests(GUESTS)
    v = p.must(p.staff(k.DRAW_SEATS, {"seed": 5}))
    drawn = v.events[1]
    assert isinstance(drawn.what, k.SeatsDrawn) and drawn.what.by == "staff:ann"
    assert drawn.body == drawn.what.to_json() == {"seed": 5, "cards": dict(drawn.what.cards),
                                                  "by": "staff:ann"}
    assert Proposal("x", "hub", k.SEATS_DRAWN, drawn.body).what == drawn.what
