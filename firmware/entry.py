# Keying one result at a table: walk the hub's form field by field, then a
# review page, then send. The form comes from the retained screen, so a new
# game needs a new form, never new firmware.
#
# Keys (docs/firmware.md): digits type, A-D pick a seat, # accepts, * deletes
# the last digit / goes back a field / asks before cancelling. Nothing typed
# is thrown away: values live in `draft`, which the app keeps per game.

SEATS = "ABCD"
W = 16  # display columns
PAGE = 5  # review lines per page


def fit(left, right=""):
    """One display line: left text, right text flush right, 16 columns."""
    if not right:
        return left[:W]
    room = W - len(right) - 1
    return (left[:room] + " " * (room - len(left)) + " " + right)[:W]


def show_value(f, v):
    if f.get("seat"):
        return SEATS[v - 1] if v else "NONE"
    return str(v)


def seat_hint(f):
    # A seat field with min 1 (e.g. "your seat" to confirm) has no "none".
    return "PICK A-D" if f.get("min", 0) >= 1 else "A-D OR 0=NONE"


class Entry:
    def __init__(self, form, draft):
        self.form = form
        self.fields = form["fields"]
        self.draft = draft  # field key -> int
        self.i = 0
        self.page = -1  # >= 0 while on the review pages
        self.asking = False  # "cancel entry?" question on screen
        self.msg = ""
        self._load()

    def _load(self):
        f = self.fields[self.i]
        v = self.draft.get(f["k"])
        self.buf = "" if v is None else ("0" if f.get("seat") and not v else show_value(f, v))

    def key(self, k):
        """Returns "send" when the entry is reviewed and accepted, "cancel" when
        the guest cancels (the draft is kept), else None."""
        self.msg = ""
        if self.asking:
            self.asking = False
            return "cancel" if k == "*" else None
        if self.page >= 0:
            return self._review_key(k)
        f = self.fields[self.i]
        if k == "#":
            return self._accept(f)
        if k == "*":
            if self.buf:
                self.buf = self.buf[:-1]
            elif self.i:
                self.i -= 1
                self._load()
            else:
                self.asking = True
            return None
        if f.get("seat"):
            if k in SEATS or k == "0" and f.get("min", 0) < 1:
                self.buf = k
            else:
                self.msg = seat_hint(f)
        elif k.isdigit():
            mx = f.get("max", 999)
            if len(self.buf) >= len(str(mx)):
                self.msg = "MAX %d DIGITS" % len(str(mx))
            else:
                self.buf = k if self.buf == "0" else self.buf + k
        else:
            self.msg = "DIGITS ONLY"
        return None

    def _accept(self, f):
        if not self.buf:
            self.msg = seat_hint(f) if f.get("seat") else "TYPE A NUMBER"
            return None
        if f.get("seat"):
            v = SEATS.find(self.buf) + 1
        else:
            v = int(self.buf)
            mn, mx = f.get("min", 0), f.get("max", 999)
            if not mn <= v <= mx:
                self.msg = "ONLY %d TO %d" % (mn, mx)
                return None
        self.draft[f["k"]] = v
        if self.i + 1 < len(self.fields):
            self.i += 1
            self._load()
        else:
            self.page = 0
        return None

    def _review_key(self, k):
        if k == "#":
            if (self.page + 1) * PAGE < len(self.fields):
                self.page += 1
                return None
            return "send"
        if k == "*":
            if self.page:
                self.page -= 1
            else:
                self.page = -1  # back to the last field, value kept
            return None
        self.msg = "# SEND  * BACK"
        return None

    def values(self):
        return {f["k"]: self.draft[f["k"]] for f in self.fields}

    def lines(self):
        title = self.form.get("title") or "GAME %s" % self.form.get("game", "")
        if self.asking:
            return [title, "CANCEL ENTRY?", "VALUES ARE KEPT", "", "* YES  # NO"]
        if self.page >= 0:
            out = [fit(title, "CHECK")]
            for f in self.fields[self.page * PAGE:(self.page + 1) * PAGE]:
                out.append(fit(f.get("label", f["k"]), show_value(f, self.draft[f["k"]])))
            last = (self.page + 1) * PAGE >= len(self.fields)
            out.append(self.msg or ("# SEND  * BACK" if last else "# MORE  * BACK"))
            return out
        f = self.fields[self.i]
        if f.get("seat"):
            rng = seat_hint(f)
            shown = "NONE" if self.buf == "0" else self.buf
        else:
            rng = "%d-%d" % (f.get("min", 0), f.get("max", 999))
            shown = self.buf
        back = "DEL" if self.buf else ("BACK" if self.i else "CANCEL")
        count = "%d/%d" % (self.i + 1, len(self.fields))
        if len(self.fields) == 1 and len(title) + len(count) >= W:
            count = ""  # "1/1" says nothing; the whole title does ("CONFIRM GAME 12")
        return [
            fit(title, count),
            f.get("label", f["k"])[:W],
            "> " + shown + "_",
            rng,
            "",
            self.msg,
            "# OK  * " + back,
        ]
