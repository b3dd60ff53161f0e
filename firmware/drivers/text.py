"""Lays text out into a character display's lines: the pure half of the display driver."""

COLUMNS = 16
ROWS = 8


def layout(lines, columns: int = COLUMNS, rows: int = ROWS) -> list:
    """Exactly `rows` lines of at most `columns` printable ASCII characters.

    A line too long is wrapped at spaces (a refusal's reason must stay readable),
    a word too long for a line is cut; lines beyond `rows` are dropped, since the
    first lines say what matters. Characters outside the font become '?'.
    """
    out = []
    for line in lines:
        line = str(line)
        # Checked as bytes first: taking the characters out of a string one by one would
        # intern each for good (the heap's names pool, which may need a new block of it
        # mid-party); only a line with a character outside the font is walked through.
        if not all(32 <= b <= 126 for b in line.encode()):
            line = "".join(c if " " <= c <= "~" else "?" for c in line)
        line = line.rstrip()
        while len(line) > columns:
            cut = line.rfind(" ", 0, columns + 1)
            if cut <= 0:
                cut = columns
            out.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        out.append(line)
    out = out[:rows]
    while len(out) < rows:
        out.append("")
    return out
