"""The display's text layout (drivers/text.py): 8 lines of 16 characters, refusals readable."""
from hypothesis import given, strategies as st

from drivers.text import layout


def test_short_lines_are_kept_and_the_rest_is_blank():
    assert layout(["TABLE 7", "GAME 2 OF 4"]) == ["TABLE 7", "GAME 2 OF 4"] + [""] * 6


def test_a_long_reason_wraps_at_spaces():
    assert layout(["REFUSED: NOT A MULTIPLE OF 5"])[:3] == ["REFUSED: NOT A", "MULTIPLE OF 5", ""]


def test_a_word_longer_than_a_line_is_cut():
    assert layout(["ABCDEFGHIJKLMNOPQRST"])[:2] == ["ABCDEFGHIJKLMNOP", "QRST"]


def test_lines_beyond_eight_are_dropped_first_lines_kept():
    lines = [f"LINE {i}" for i in range(12)]
    assert layout(lines) == lines[:8]


def test_characters_outside_the_font_show_as_question_marks():
    assert layout(["ÉQUIPE 3\t"])[0] == "?QUIPE 3?"


@given(st.lists(st.text(alphabet="ABC 123", max_size=40), max_size=10))
def test_always_eight_lines_of_at_most_sixteen(lines):
    out = layout(lines)
    assert len(out) == 8 and all(len(line) <= 16 for line in out)


@given(st.lists(st.text(alphabet="ABCDEFG", min_size=1, max_size=16), min_size=1, max_size=6))
def test_words_that_fit_are_all_shown_in_order(words):
    out = layout([" ".join(words)])
    assert " ".join(line for line in out if line).split() == words
