# The table display's lines, for the app, the entry and the display's driver
# alike: one line of 16 characters (fit), and a frame laid out as the panel
# draws it (layout). Its own module, so the entry's module is imported only while
# an entry is keyed (app.py) and the idle board still lays out its lines; and the
# unix port's board lays out its frames with the panel's own rule at no cost in
# names or heap (hal/host.py), the module being loaded already.
W = 16  # display columns


def fit(text, right=""):
    """One display line: text, and `right` flush right, 16 columns."""
    if not right:
        return text[:W]
    room = W - len(right) - 1
    return (text[:room] + " " * (room - len(text)) + " " + right)[:W]


def layout(lines) -> list:
    """Exactly 8 lines of at most 16 printable ASCII characters (framebuf's 8x8 font
    on the 128x64 panel).

    A line too long is wrapped at spaces (a refusal's reason must stay readable),
    a word too long for a line is cut; lines beyond the eighth are dropped, since the
    first lines say what matters. Characters outside the font become '?'.
    """
    out = []
    for line in lines:
        line = str(line)
        # Checked as bytes first: taking the characters out of a string one by one would
        # intern each for good (the heap's names pool, which may need a new block of it
        # mid-party); only a line with a character outside the font is walked through.
        if not all(32 <= b <= 126 for b in line.encode()):
            line = "".join(c if 31 < ord(c) < 127 else "?" for c in line)
        line = line.rstrip()
        while len(line) > W:
            cut = line.rfind(" ", 0, W + 1)
            if cut <= 0:
                cut = W
            out.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        out.append(line)
    out = out[:8]
    while len(out) < 8:
        out.append("")
    return out
