"""A keypad matrix without diodes, simulated electrically, for the scanner's tests.

Runs under CPython and on the MicroPython unix port. A column reads low when a
path of pressed switches joins it to a row driven low, through other rows and
columns: that path is what makes ghost keys on a real keypad.
"""


class RowPin:
    def __init__(self):
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


class ColPin:
    def __init__(self, matrix, index):
        self.matrix = matrix
        self.index = index

    def value(self, v=None):
        return 0 if self.index in self.matrix.pulled_low_cols() else 1


class FakeMatrix:
    def __init__(self, n_rows=4, n_cols=4):
        self.rows = [RowPin() for _ in range(n_rows)]
        self.cols = [ColPin(self, j) for j in range(n_cols)]
        self.pressed = set()   # (row, col) switches closed

    def pulled_low_cols(self):
        rows = {i for i, r in enumerate(self.rows) if r.level == 0}
        cols = set()
        grew = True
        while grew:  # spread through closed switches until nothing more is reached
            grew = False
            for i, j in self.pressed:
                if i in rows and j not in cols:
                    cols.add(j)
                    grew = True
                if j in cols and i not in rows:
                    rows.add(i)
                    grew = True
        return cols
