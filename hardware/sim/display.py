"""A board's display read back from its pixels: the 128x64 framebuffer of
firmware/drivers/ssd1306.py (MONO_VLSB: byte x of page p holds column x of rows
8p..8p+7, lowest bit on top), as the text it shows and as a PNG a person can look at.

The text is read by matching each 8x8 cell against framebuf's own font, drawn
once by the MicroPython the boards run (`glyphs`), so what is read is what a guest
sees: a "?" where the font lacked a character, never the character itself.
"""
from __future__ import annotations

import struct
import subprocess
import zlib
from functools import cache
from pathlib import Path

WIDTH, HEIGHT = 128, 64
COLUMNS, ROWS = WIDTH // 8, HEIGHT // 8
SIZE = WIDTH * HEIGHT // 8
UNREADABLE = "\ufffd"  # a cell that is no character of the font

# Every character of the font (framebuf draws 32..127), each into an 8x8 buffer.
_FONT_PROBE = """
import framebuf
from binascii import hexlify
cell = bytearray(8)
fb = framebuf.FrameBuffer(cell, 8, 8, framebuf.MONO_VLSB)
for c in range(32, 128):
    fb.fill(0)
    fb.text(chr(c), 0, 0, 1)
    print(hexlify(cell).decode())
"""


@cache
def glyphs(micropython: str) -> dict[bytes, str]:
    """framebuf's 8x8 font as this MicroPython draws it: the 8 bytes of a cell -> its character."""
    out = subprocess.run([micropython, "-c", _FONT_PROBE], capture_output=True, text=True, check=True, timeout=30)
    cells = [bytes.fromhex(line) for line in out.stdout.split()]
    return {cell: chr(32 + i) for i, cell in reversed(list(enumerate(cells)))}  # a glyph drawn twice reads as the first


def text_of(pixels: bytes, micropython: str) -> list[str]:
    """The 8 lines of 16 characters the framebuffer shows (trailing spaces dropped, as
    drivers/text.py lays lines out)."""
    if len(pixels) != SIZE:
        raise ValueError(f"a framebuffer is {SIZE} bytes, not {len(pixels)}")
    font = glyphs(micropython)
    lines = []
    for row in range(ROWS):
        page = pixels[row * WIDTH:(row + 1) * WIDTH]
        lines.append("".join(font.get(page[c * 8:c * 8 + 8], UNREADABLE) for c in range(COLUMNS)).rstrip())
    return lines


# An OLED's look: light pixels on a dark glass, a margin of glass around them.
_ON, _OFF = (200, 235, 255), (8, 10, 16)


def png(pixels: bytes, path: str | Path, scale: int = 4, margin: int = 8) -> Path:
    """The framebuffer drawn as a PNG, each pixel `scale` x `scale`."""
    if len(pixels) != SIZE:
        raise ValueError(f"a framebuffer is {SIZE} bytes, not {len(pixels)}")
    w, h = WIDTH * scale + 2 * margin, HEIGHT * scale + 2 * margin
    blank = bytes(_OFF) * w
    rows = [blank] * margin
    for y in range(HEIGHT):
        page, bit = y // 8 * WIDTH, 1 << (y % 8)
        row = b"".join(bytes(_ON if pixels[page + x] & bit else _OFF) * scale for x in range(WIDTH))
        line = bytes(_OFF) * margin + row + bytes(_OFF) * margin
        rows += [line] * scale
    rows += [blank] * margin
    raw = b"".join(b"\x00" + r for r in rows)  # filter type 0 on each scanline

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path = Path(path)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    return path
