# One line of the table's display (16 characters), for the app and the entry
# alike: its own module, so the entry's module is imported only while an
# entry is keyed (app.py) and the idle board still lays out its lines.
W = 16  # display columns


def fit(text, right=""):
    """One display line: text, and `right` flush right, 16 columns."""
    if not right:
        return text[:W]
    room = W - len(right) - 1
    return (text[:room] + " " * (room - len(text)) + " " + right)[:W]
