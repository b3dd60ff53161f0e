"""A virtual board's display is the real display's: the firmware on the unix port draws
each frame with the driver of the boards' SSD1306 (drivers/ssd1306.py: drivers/text.py's
layout, framebuf's 8x8 font) into a framebuffer, and what a test reads is what those
pixels show. A character the font lacks is never read as itself (issue 22)."""
import pytest

from hardware.sim import display
from hardware.sim.board import tool

pytestmark = pytest.mark.broker

SEEN = ["TABLE 3", "Zoë Łukasz", "Ольга Петрова", "GAME 2 OF 4"]


def test_the_frame_is_the_text_the_framebuffer_shows(board_factory, hub, tmp_path):
    hub.screen(3, lines=SEEN)
    board = board_factory(3)
    lines = board.wait_for("# ENTER GAME 2")
    # the font's substitution, as a board's panel draws it: not the letters the hub sent
    assert lines[1:3] == ["Zo? ?ukasz", "????? ???????"]
    assert board.read_pixels() == lines
    shot = board.screenshot(tmp_path / "table-3.png")
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_every_line_of_a_frame_is_read_back_from_its_pixels(board_factory, hub):
    hub.screen(3, lines=["TABLE 3", "A LINE OF 16 CHR", "~!@#$%^&*()_+{}|", "lower case too"])
    board = board_factory(3)
    lines = board.wait_for("lower case too")
    assert board.read_pixels() == lines
    assert lines[2] == "~!@#$%^&*()_+{}|"


def test_an_empty_panel_reads_as_eight_empty_lines():
    assert display.text_of(bytes(display.SIZE), tool("micropython")) == [""] * 8


def test_the_font_has_a_glyph_for_each_character_a_line_can_hold():
    font = display.glyphs(tool("micropython"))
    assert sorted(font.values())[:95] == [chr(c) for c in range(32, 127)]
