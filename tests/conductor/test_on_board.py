"""Names as a board shows them (hub/conductor/on_board.py): in the letters of its font,
printable ASCII, so a guest reads their name at the seat check, not "?????" (issue 22)."""
from hypothesis import given, strategies as st

from hub.conductor.on_board import clashes, on_board, seat_line


def test_names_of_other_scripts_are_transliterated():
    assert on_board("Zoë Łukasz") == "ZOE LUKASZ"
    assert on_board("José Núñez") == "JOSE NUNEZ"
    assert on_board("Ольга Петрова") == "OLGA PETROVA"
    assert on_board("李雷") == "LI LEI"


def test_a_quote_or_dash_of_another_script_is_the_ascii_one():
    assert on_board("Jean\u2011Luc O\u2019Brien") == "JEAN-LUC O'BRIEN"


def test_a_name_of_symbols_alone_comes_out_empty():
    assert on_board("\U0001f600 \u2605") == ""
    assert on_board("Zoë \U0001f600 Lee") == "ZOE LEE"


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30))
def test_a_plain_ascii_name_is_only_put_in_capitals(name):
    assert on_board(name) == name.upper()


@given(st.text(max_size=30))
def test_what_a_board_is_sent_is_printable_ascii(name):
    assert all(" " <= c <= "~" for c in on_board(name))


def test_the_seat_checks_line_is_cut_to_the_display():
    assert seat_line("B", "Alexandra Smithson") == "B ALEXANDRA SMIT"


def test_names_a_board_shows_alike_at_one_table_clash():
    found = clashes(["José Núñez", "Ann Lee", "Jose Nunez", "Alexandra Smithson", "Alexandra Smithers"])
    assert found == {"José Núñez": "Jose Nunez", "Jose Nunez": "José Núñez",
                     "Alexandra Smithson": "Alexandra Smithers", "Alexandra Smithers": "Alexandra Smithson"}
    assert clashes(["Ann Lee", "Bob Ray"]) == {}
