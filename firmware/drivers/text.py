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
        line = "".join(c if " " <= c <= "~" else "?" for c in str(line)).rstrip()
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
