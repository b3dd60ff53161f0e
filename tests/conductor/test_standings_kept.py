"""The standings kept from one event to the next (issue 25: the hub makes the standings after an
entry from the ones before, taking the rows whose inputs did not change) are at every event the
standings made from nothing: through whole parties of every kind of change the book's conductor
meets — corrections (before and after the movement, after the final count, of a play-off game),
annulments, a table closed, a seated guest renamed, late-comers, guests who leave and come back, play-offs, the clock's
bell — each party's own test run again with its standings followed after every event."""
import pytest

from hub.conductor import standings_after

from . import (test_bergen_party, test_block_party, test_draw_party, test_sebastopol_party, test_sessions,
               test_the_door, test_train_parties)
from .party import Party

PARTIES = [
    test_block_party.test_a_block_party_from_the_list_to_the_prizes,
    test_block_party.test_a_play_off_game_corrected_gives_the_prize_to_its_corrected_winner,
    test_block_party.test_four_tied_for_the_prize_play_off_at_any_table_of_the_party,
    test_draw_party.test_a_draw_party_of_seven_tables,
    test_bergen_party.test_a_bergen_party_by_the_clock,
    test_bergen_party.test_a_session_i_result_corrected_after_the_movement_moves_its_punch_holes_not_the_players,
    test_sebastopol_party.test_a_sebastopol_party_of_four_sessions_with_a_short_table_and_lots,
    test_sebastopol_party.test_a_late_comer_in_a_leavers_seat_ahead_of_the_winners_has_still_won_none,
    test_sessions.test_a_bergen_guest_leaves_and_the_conductor_fills_the_seat,
    test_sessions.test_a_block_party_by_the_clock_ends_with_a_finish_bell,
    test_sessions.test_a_game_in_hand_annulled_and_a_table_closed_only_where_a_game_is_played,
    test_the_door.test_the_door_before_the_draw_walk_in_undo_rename_remove_and_everyone_in,
    test_the_door.test_a_late_comer_takes_the_seat_a_guest_who_left_vacated_when_every_card_is_held,
    test_the_door.test_a_correction_of_session_one_after_session_two_is_seated,
    test_the_door.test_a_correction_after_the_final_count_gives_the_prize_to_whom_the_totals_now_say,
    test_the_door.test_a_guest_marked_as_left_by_mistake_is_back_in_his_seat_with_his_score,
    test_the_door.test_a_guest_who_comes_back_after_a_late_comer_took_his_seat_sits_as_a_late_comer,
    test_the_door.test_a_guest_who_left_in_one_session_comes_back_in_the_next_at_the_last_tables,
    test_train_parties.test_a_late_comer_is_seated_with_the_tables_highest_score_where_the_club_says_so,
]


@pytest.mark.parametrize("party", PARTIES, ids=lambda f: f.__name__[len("test_"):])
def test_the_standings_kept_after_every_event_are_the_standings_made_from_nothing(party, monkeypatch):
    followed = {"events": 0, "rows": 0, "kept": 0}
    journaled = Party.journaled

    def following(self, ev):
        journaled(self, ev)
        before = getattr(self, "standings_kept", None)
        kept = standings_after(self.state, before)
        assert kept.page == standings_after(self.state).page, ev
        if before is not None:
            rows = kept.page["progress"] + kept.page["leaders"]
            was = {id(row) for row in before.page["progress"] + before.page["leaders"]}
            followed["rows"] += len(rows)
            followed["kept"] += sum(id(row) in was for row in rows)
        self.standings_kept = kept
        followed["events"] += 1

    monkeypatch.setattr(Party, "journaled", following)
    party()
    assert followed["events"] > 10
    assert followed["kept"] < followed["rows"]   # rows were made anew
    if followed["events"] > 30:   # a party played: rows were taken from before
        assert followed["kept"] > 0


@pytest.mark.parametrize("party", PARTIES, ids=lambda f: f.__name__[len("test_"):])
def test_the_standings_kept_across_many_events_are_the_standings_made_from_nothing(party, monkeypatch):
    """A screen's view after a rush: the standings made from those of several events before
    (most tables and cards changed between, where standings_after ranks them whole)."""
    journaled, seen = Party.journaled, []

    def following(self, ev):
        journaled(self, ev)
        seen.append(ev)
        if len(seen) % 5 == 0:
            kept = standings_after(self.state, getattr(self, "standings_kept", None))
            assert kept.page == standings_after(self.state).page, ev
            self.standings_kept = kept

    monkeypatch.setattr(Party, "journaled", following)
    party()
    assert len(seen) >= 10   # two views at least
