# Keying one result at a table: walk the hub's form field by field, then a
# review page, then send. The form comes from the retained screen, so a new
# game needs a new form, never new firmware.
#
# Keys (docs/firmware.md): digits type, A-D pick a seat, # accepts, * deletes
# the last digit / goes back a field / asks before cancelling. Nothing typed
# is thrown away: values live in `draft`, which the app keeps per game.
# A field the hub presets ("v") is not asked: an entry whose every field has a
# value opens on its review page (the seat check: the names expected, # to
# confirm), and a field's key (A-D) on a review page opens that field to fix.

SEATS = "ABCD"
W = 16  # display columns
PAGE = 5  # review lines per page


def fit(left, right=""):
    """One display line: left text, right text flush right, 16 columns."""
    if not right:
        return left[:W]
    room = W - len(right) - 1
    return (left[:room] + " " * (room - len(left)) + " " + right)[:W]


def card_name(f, v):
    # A score-card as printed (hub/conductor/cards.py): number 6 is "2B"; on
    # White and Red cards ("card": 2) number 3 is "R1A". 0: nobody.
    if not v:
        return "EMPTY"
    t, i = str((v - 1) // 4 + 1), (v - 1) % 4
    return "WWRR"[i] + t + "ABAB"[i] if f["card"] == 2 else t + SEATS[i]


def card_keys(f, v):
    # What a guest keys for a card: its table, its letter, for White and Red
    # cards then 1 = white, 2 = red ("2B2" for Table 2 B Red).
    if not v:
        return "0"
    t, i = str((v - 1) // 4 + 1), (v - 1) % 4
    return t + "ABAB"[i] + "1122"[i] if f["card"] == 2 else t + SEATS[i]


def card_number(f, b):
    """The number of the card keyed as `b` ("2B", "2B2", "0"), None when it names none."""
    if b == "0":
        return 0
    i = 0
    while i < len(b) and b[i].isdigit():
        i += 1
    if not 0 < i < len(b) or int(b[:i]) < 1:
        return None
    t, letter, rest = int(b[:i]), b[i], b[i + 1:]
    if f["card"] == 2:
        if letter not in "AB" or rest not in ("1", "2"):
            return None
        slot = "AB".find(letter) + 2 * (rest == "2")
    elif rest:
        return None
    else:
        slot = SEATS.find(letter)
    return (t - 1) * 4 + slot + 1


def show_value(f, v):
    if f.get("card"):
        return card_name(f, v)
    if f.get("seat"):
        return SEATS[v - 1] if v else "NONE"
    return str(v)


def card_hint(f):
    return "TABLE,A/B,1W/2R" if f["card"] == 2 else "TABLE, THEN A-D"


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
        self.fixing = False  # a field opened from the review page goes back to it
        self.msg = ""
        for f in self.fields:
            if "v" in f and f["k"] not in draft:
                draft[f["k"]] = f["v"]
        self._load()
        if all(f["k"] in draft for f in self.fields):
            self.page = 0  # nothing to ask: the review page, to confirm or fix

    def _load(self):
        f = self.fields[self.i]
        v = self.draft.get(f["k"])
        if v is None:
            self.buf = ""
        elif f.get("card"):
            self.buf = card_keys(f, v)
        else:
            self.buf = "0" if f.get("seat") and not v else show_value(f, v)

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
        if f.get("card"):
            self._card_key(f, k)
        elif f.get("seat"):
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

    def _card_key(self, f, k):
        b = self.buf
        letter = [c for c in b if c in SEATS]
        if not letter and k.isdigit():
            if len(b) >= 3:
                self.msg = "MAX 3 DIGITS"
            else:
                self.buf = k if b == "0" else b + k
        elif not letter and k in ("AB" if f["card"] == 2 else SEATS) and b and b != "0":
            self.buf = b + k
        elif letter and f["card"] == 2 and b[-1] in "AB" and k in "12":
            self.buf = b + k
        else:
            self.msg = "# OK  * DEL" if card_number(f, b) is not None else card_hint(f)

    def _accept(self, f):
        if not self.buf:
            self.msg = card_hint(f) if f.get("card") else seat_hint(f) if f.get("seat") else "TYPE A NUMBER"
            return None
        if f.get("card"):
            v = card_number(f, self.buf)
            if v is None:
                self.msg = card_hint(f)
                return None
            if v > f.get("max", 999):
                self.msg = "NO SUCH CARD"
                return None
        elif f.get("seat"):
            v = SEATS.find(self.buf) + 1
        else:
            v = int(self.buf)
            mn, mx = f.get("min", 0), f.get("max", 999)
            if not mn <= v <= mx:
                self.msg = "ONLY %d TO %d" % (mn, mx)
                return None
        self.draft[f["k"]] = v
        if self.fixing:
            self.fixing, self.page = False, 0
        elif self.i + 1 < len(self.fields):
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
        for i, f in enumerate(self.fields):
            if f["k"] == k:  # the field named by this key (a seat), to fix
                self.i, self.page, self.fixing = i, -1, True
                self._load()
                return None
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
            out = [title if title.endswith("CHECK") else fit(title, "CHECK")]
            for f in self.fields[self.page * PAGE:(self.page + 1) * PAGE]:
                out.append(fit(f.get("label", f["k"]), show_value(f, self.draft[f["k"]])))
            last = (self.page + 1) * PAGE >= len(self.fields)
            if self.form.get("kind") == "seat-check":
                out.append(self.msg or "# ALL RIGHT")
                out.append("A-D: FIX A SEAT")
                return out
            out.append(self.msg or ("# SEND  * BACK" if last else "# MORE  * BACK"))
            return out
        f = self.fields[self.i]
        if f.get("card"):
            rng = card_hint(f)
            shown = self.buf
            if f["card"] == 2 and self.buf[-1:] in ("1", "2") and card_number(f, self.buf):
                shown = self.buf[:-1] + (" WHITE" if self.buf[-1] == "1" else " RED")
        elif f.get("seat"):
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
