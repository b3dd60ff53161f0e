"""A minimal SSD1306 128x64 OLED driver over I2C, drawing text with framebuf's 8x8 font.

Only what a table board needs: power-up, a whole-frame refresh, and text lines.
16 columns x 8 lines of 8x8 characters fill the panel exactly.
"""
import framebuf

from drivers.text import layout

WIDTH = 128
HEIGHT = 64
ADDRESS = 0x3C

# Power-up sequence (datasheet section 9 and the application note's flowchart):
# each command byte follows a 0x80 control byte ("one command").
_INIT = (
    0xAE,              # display off while configuring
    0xD5, 0x80,        # clock divide ratio / oscillator frequency: reset default
    0xA8, HEIGHT - 1,  # multiplex ratio: 64 rows
    0xD3, 0x00,        # no display offset
    0x40,              # start line 0
    0x8D, 0x14,        # charge pump on: the breakout boards have no external VCC
    0x20, 0x00,        # horizontal addressing: one burst writes the whole frame
    0xA1,              # segment remap: column 127 is SEG0 (panel mounted upright)
    0xC8,              # scan COM outputs from COM63 down to COM0
    0xDA, 0x12,        # COM pins: alternative configuration, as 128x64 panels are wired
    0x81, 0xCF,        # contrast
    0xD9, 0xF1,        # pre-charge period for the internal charge pump
    0xDB, 0x40,        # VCOMH deselect level
    0xA4,              # display follows RAM
    0xA6,              # normal (not inverted)
    0xAF,              # display on
)


class Panel(framebuf.FrameBuffer):
    """The panel's picture in RAM: text lines laid out (drivers.text) and drawn with
    framebuf's 8x8 font, one byte per column of 8 pixels (MONO_VLSB, the SSD1306's own
    order). What a board shows is this; a board without a panel (the unix port) keeps one
    too, so its frames are the ones a guest would read."""

    def __init__(self) -> None:
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.shown = None   # the lines drawn now, as laid out: identical frames skip the redraw

    def refresh(self) -> None:
        """Sends the picture to the panel (none here)."""

    def show_lines(self, lines) -> None:
        """Show up to 8 lines of 16 characters (longer ones wrap, see drivers.text)."""
        lines = layout(lines)
        if lines == self.shown:
            return
        self.fill(0)
        for row, line in enumerate(lines):
            self.text(line, 0, row * 8, 1)
        self.refresh()
        self.shown = lines


class SSD1306(Panel):
    def __init__(self, i2c, address: int = ADDRESS) -> None:
        self.i2c = i2c
        self.address = address
        super().__init__()
        for cmd in _INIT:
            self._command(cmd)
        self.refresh()

    def _command(self, cmd: int) -> None:
        self.i2c.writeto(self.address, bytes((0x80, cmd)))

    def refresh(self) -> None:
        """Send the whole frame buffer (1 KB, about 25 ms at 400 kHz)."""
        for cmd in (0x21, 0, WIDTH - 1, 0x22, 0, HEIGHT // 8 - 1):  # full column and page window
            self._command(cmd)
        self.i2c.writevto(self.address, (b"\x40", self.buffer))  # 0x40: data follows
