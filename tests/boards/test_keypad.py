"""The 4x4 keypad: the matrix scan (with ghosts, as real wiring makes them) and the decoder."""
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from drivers.keypad import DEBOUNCE_MS, KEYS, Decoder, Matrix

sys.path.insert(0, str(Path(__file__).parent / "mp"))
from fakematrix import FakeMatrix  # noqa: E402

POLL_MS = 10
WHERE = {key: (i, j) for i, row in enumerate(KEYS) for j, key in enumerate(row)}


def press(fake, *keys):
    fake.pressed = {WHERE[k] for k in keys}


def run(steps, hold_ms=60):
    """Each step is a set of keys held for hold_ms (or (keys, ms)); the keys the decoder reports."""
    fake = FakeMatrix()
    matrix, decoder, out, now = Matrix(fake.rows, fake.cols), Decoder(), [], 0
    for step in steps:
        keys, ms = step if isinstance(step, tuple) else (step, hold_ms)
        press(fake, *keys)
        for _ in range(0, ms, POLL_MS):
            key = decoder.update(matrix.scan(), now)
            if key:
                out.append(key)
            now += POLL_MS
    return out


def test_the_scan_reads_the_legend_of_the_key_pressed():
    fake = FakeMatrix()
    matrix = Matrix(fake.rows, fake.cols)
    for key in "0123456789ABCD*#":
        press(fake, key)
        assert matrix.scan() == {key}
    press(fake)
    assert matrix.scan() == set()
    assert all(r.level == 1 for r in fake.rows)  # rows released after a scan


def test_three_keys_on_a_rectangle_make_a_ghost_in_the_scan():
    fake = FakeMatrix()
    press(fake, "1", "2", "4")   # rows 0,0,1 / cols 0,1,0: "5" closes the rectangle
    assert Matrix(fake.rows, fake.cols).scan() == {"1", "2", "4", "5"}


def test_typing_a_number_gives_each_digit_once():
    assert run([{"1"}, set(), {"5"}, set(), {"0"}, set(), {"#"}, set()]) == ["1", "5", "0", "#"]


def test_a_key_held_down_does_not_repeat():
    assert run([({"7"}, 3000), set()]) == ["7"]


def test_the_same_key_twice_needs_a_release_between():
    assert run([{"5"}, set(), {"5"}, set()]) == ["5", "5"]


def test_a_bouncing_key_counts_once():
    bounce = [({"5"}, 10), (set(), 10)] * 3
    assert run([*bounce, ({"5"}, 100), *bounce, set()]) == ["5"]


def test_a_flicker_shorter_than_the_debounce_time_is_no_key():
    assert run([set(), ({"9"}, DEBOUNCE_MS - POLL_MS), set()]) == []


def test_fast_typing_rolls_over_to_the_next_key():
    assert run([{"1"}, {"1", "2"}, {"2"}, set()]) == ["1", "2"]


def test_letting_go_of_the_second_key_does_not_repeat_the_first():
    assert run([{"1"}, {"1", "2"}, {"1"}, set()]) == ["1", "2"]


def test_mashed_keys_give_nothing_until_all_are_released():
    """Three keys on a rectangle read as four: no key is trusted, even after one is let go."""
    assert run([{"1"}, {"1", "2"}, {"1", "2", "4"}, {"1", "4"}, {"4"}, set(), {"8"}, set()]) == ["1", "2", "8"]


def test_two_keys_going_down_together_are_ambiguous_and_give_nothing():
    assert run([set(), {"3", "6"}, {"3"}, set(), {"6"}, set()]) == ["6"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sets(st.sampled_from(list(WHERE)), max_size=5), min_size=1, max_size=12))
def test_whatever_is_mashed_only_keys_really_pressed_come_out(chords):
    """Each reported key was really pressed in that step (never a ghost), and is new to it."""
    steps = [c for chord in chords for c in (chord, set())]
    reported = run(steps)
    pressed_alone = [k for chord in chords if len(chord) == 1 for k in chord]
    assert set(reported) <= set().union(*chords)
    # a key pressed alone, after all keys were up, is always reported
    assert len(reported) >= len(pressed_alone)
