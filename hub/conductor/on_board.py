"""Names as a table's board shows them (docs/firmware.md, "Names on a board").

A board draws text with framebuf's 8x8 font: printable ASCII and nothing else (a
letter it lacks would be "?"). So the hub sends each name transliterated by
anyascii: "Zoë Łukasz" -> "Zoe Lukasz", "Ольга Петрова" -> "Olga Petrova", "李雷" ->
"Li Lei"; in capitals, as boards show names. Of a letter's transliteration only
its letters and digits are kept (the soft sign's apostrophe, "Ol'ga", is not a
letter a guest reads); Chinese characters and Korean syllables, one syllable each,
are spaced; symbols (an emoji) are left out. A name in plain ASCII is only put in
capitals, so its screens are byte for byte what they were.

The console's guest list shows each name so, and flags one that comes out empty
or the same as another's at the table in the seat check's room (`seat_line`).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

WIDTH = 16   # a line of the board's display (16 characters of 8x8 on 128x64)
_SYLLABLES = ("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH", "HANGUL SYLLABLE")


def on_board(text: str) -> str:
    """`text` (a guest's name, a prize's) in the letters a board draws, in capitals."""
    if text.isascii() and text.isprintable():
        return text.upper()   # the common case, as it always was: no look-up
    return _transliterated(text)


@lru_cache(maxsize=4096)
def _transliterated(text: str) -> str:
    from anyascii import anyascii   # only a name outside plain ASCII needs it (its tables load per block)
    out, syllable = [], False
    for c in text:
        if c.isascii():
            out.append(c if c.isprintable() else " ")
            syllable = False
            continue
        kind = unicodedata.category(c)[0]
        if kind in "LMN":    # a letter, a mark, a digit: its letters and digits
            spaced = unicodedata.name(c, "").startswith(_SYLLABLES)
            if spaced and syllable:
                out.append(" ")
            out.append("".join(x for x in anyascii(c) if x.isalnum()))
            syllable = spaced
        elif kind in "PZ":   # a dash, a quote, a space of another script: as ASCII has them
            out.append(anyascii(c) or " ")
            syllable = False
    return " ".join("".join(out).split()).upper()


def seat_line(seat: str, name: str) -> str:
    """The seat check's line for a seat: "A ZOE LUKASZ", cut to the display's width."""
    return f"{seat} {on_board(name)}"[:WIDTH]


def clashes(names: Iterable[str]) -> dict[str, str]:
    """Each of `names` (the guests at one table) that a board shows as it shows
    another of them, at the seat check: name -> the other."""
    seen: dict[str, str] = {}
    out = {}
    for name in names:
        shown = seat_line("A", name)
        if shown in seen:
            out[name] = seen[shown]
            out.setdefault(seen[shown], name)
        else:
            seen[shown] = name
    return out
