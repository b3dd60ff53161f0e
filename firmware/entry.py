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
# A field with "when": [k, values] is asked only while field k holds one of
# the values; otherwise it follows from k: neither asked, shown nor sent.
# A number field takes itself on its last possible digit (one more would pass
# its max, or it is a first 0 where 0 is allowed): no # needed (checked as on
# #), unless the next field holds a kept value; a review page it opens ignores # for 0.7 s (docs/firmware.md).
# A count made in play is keyed mid-game: a field of it whose values are single
# digits (Bergen's header, 2 or 3) takes the digit without # (checked as on #),
# and it is sent as its last field is taken, with no review page: the board
# shows what was recorded and `*` undoes the last count (app.py).

from lines import W, fit
from protocol import COUNT, SEAT_CHECK, SEATS

PAGE = 5  # review lines per page


def card_keys(f, v):
    # A score-card (hub/conductor/cards.py) as a guest keys it from what is
    # printed on it: table, letter and, on White and Red cards ("card": 2),
    # 1 white / 2 red. Number 7 is "2C"; on White and Red cards "2A2". A spare
    # card, the second for a seat ("TABLE 2 C/2"), is 10000 more: then the copy.
    c, v = v // 10000, v % 10000
    t, i = str((v - 1) // 4 + 1), (v - 1) % 4
    k = "0" if not v else t + "ABAB"[i] + "1122"[i] if f["card"] == 2 else t + SEATS[i]
    return k + str(c + 1) if c else k


def card_number(f, b):
    # The card keyed as b, or None: a party has at most a few hundred cards
    # (and "copies" of some, its spares), so trying each is quicker to read
    # (and smaller) than parsing b.
    for c in range(f.get("copies", 1)):
        for v in range(1 if c else 0, f.get("max", 0) + 1):
            if card_keys(f, v + 10000 * c) == b:
                return v + 10000 * c


def show_value(f, v):
    if f.get("card"):
        k = card_keys(f, v % 10000)  # on the review page as printed in short: "2C", "R2A", "2C/2"
        k = "EMPTY" if not v else ("WR"[k[-1] == "2"] + k[:-1]) if f["card"] == 2 else k
        return k + "/" + str(v // 10000 + 1) if v >= 10000 else k
    if f.get("seat"):
        return SEATS[v - 1] if v else "NONE"
    return str(v)


def card_typed(f, b):
    # The card keyed so far as printed on it: "1B2" shows "1B RED", a spare's copy after a
    # slash ("2C2" is "2C/2", printed "TABLE 2 C/2"); keys that make no card stay as typed.
    if b == "0":
        return "EMPTY"
    t = b.rstrip("0123456789")  # the table and the letter
    n = b[len(t):]
    c = n[:1] if f["card"] == 2 else ""
    if not t[:-1].isdigit() or c and (c not in "12" or t[-1] not in "AB"):
        return b
    n = n[len(c):]
    return t + ("/" + n if n else "") + (" WHITE" if c == "1" else " RED" if c else "")


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
        self.quick = None  # when a field that took itself opened the review page
        for f in self.fields:
            if "v" in f and f["k"] not in draft:
                draft[f["k"]] = f["v"]
        self._load()
        for f in self.shown():
            if f["k"] not in draft:
                break
        else:
            self.page = 0  # nothing to ask: the review page, to confirm or fix

    def _asked(self, f):
        w = f.get("when")
        return not w or self.draft.get(w[0]) in w[1]

    def _next(self, i, empty=False):
        # From field i on, the next field asked (with `empty`, the next without
        # a value yet: opening a keyed entry, or back from a fix); past the last
        # one, the review page.
        n = len(self.fields)
        while i < n and not (self._asked(self.fields[i]) and
                             not (empty and self.fields[i]["k"] in self.draft)):
            i += 1
        if i < n:
            self.i = i
            self._load()
        else:
            self.page = 0  # nothing left to ask: the review page, to confirm or fix

    def shown(self):
        return [f for f in self.fields if self._asked(f)]

    def _load(self):
        f = self.fields[self.i]
        v = self.draft.get(f["k"])
        if v is None:
            self.buf = ""
        elif f.get("card"):
            self.buf = card_keys(f, v)
        else:
            self.buf = "0" if f.get("seat") and not v else show_value(f, v)

    def key(self, k, now=None):
        """Returns "send" when the entry is reviewed and accepted, "cancel" when
        the guest cancels (the draft is kept), else None. `now`: the board's
        ticks_ms (the caller's clock keeps this module free of one)."""
        self.msg = ""
        if self.asking:
            self.asking = False
            return "cancel" if k == "*" else None
        if self.page >= 0:
            return self._review_key(k, now)
        f = self.fields[self.i]
        if k == "#":
            return self._accept(f)
        if k == "*":
            if self.buf:
                self.buf = self.buf[:-1]
                return None
            i = self.i - 1
            while i >= 0 and not self._asked(self.fields[i]):
                i -= 1
            if i >= 0:
                self.i = i
                self._load()
            else:
                self.asking = True
            return None
        if f.get("card"):  # table, letter (and colour): checked whole on #
            if len(self.buf) >= 6:
                self.msg = card_hint(f)
            else:
                self.buf = k if self.buf == "0" else self.buf + k
        elif f.get("seat"):
            if k in SEATS or k == "0" and f.get("min", 0) < 1:
                self.buf = k
                return self._accept(f)  # one key says it all: no # needed
            else:
                self.msg = seat_hint(f)
        elif k.isdigit():
            mx = f.get("max", 999)
            if len(self.buf) >= len(str(mx)):
                self.msg = "MAX %d DIGITS" % len(str(mx))
            else:
                self.buf = k if self.buf == "0" else self.buf + k
                if mx < 10 and self.form.get("kind") == COUNT:
                    return self._accept(f)
                # no digit fits after a first 0 either (a number is never typed "05")
                if (int(self.buf) * 10 > mx or self.buf == "0" and not f.get("min")) and self._takes_itself():
                    r = self._accept(f)
                    if self.page >= 0:  # on the review page: a # this soon is habit, not a look
                        self.quick = now
                    return r
        else:
            self.msg = "DIGITS ONLY"
        return None

    def _takes_itself(self):
        # A full number is taken as # would take it, unless the next field holds a value
        # kept from before (a habitual # would accept it unseen), or a count would be sent.
        if self.fixing:
            return True  # back to the review page (guarded) or the first empty field
        for g in self.fields[self.i + 1:]:
            if self._asked(g):
                return g["k"] not in self.draft
        return self.form.get("kind") != COUNT

    def _accept(self, f):
        self.quick = None
        if not self.buf:
            self.msg = card_hint(f) if f.get("card") else seat_hint(f) if f.get("seat") else "TYPE A NUMBER"
            return None
        if f.get("card"):
            v = card_number(f, self.buf)
            if v is None:
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
            t = f.get("sum")  # with the other fields of its sum keyed so far: at most t
            if t and v + sum(self.draft[g["k"]] for g in self.shown()
                             if g is not f and g.get("sum") == t and g["k"] in self.draft) > t:
                self.msg = "ALL: %d AT MOST" % t
                return None
        self.draft[f["k"]] = v
        if self.fixing:  # back to the review page, unless the fix asks for more
            self.fixing = False
            self._next(0, True)
        else:
            self._next(self.i + 1)
        if self.page >= 0 and self.form.get("kind") == COUNT:
            return "send"  # a count has no review page: the table can undo it instead
        return None

    def _review_key(self, k, now):
        # A # within 0.7 s of a field taking itself onto this page is habit, not a look
        # (ticks_ms wraps at 2**30, or a multiple of it: masked, the difference holds).
        if k == "#" and self.quick is not None and now is not None and (now - self.quick) & 0x3FFFFFFF < 700:
            self.msg = "CHECK, THEN #"
            return None
        if k == "#":
            if (self.page + 1) * PAGE < len(self.shown()):
                self.page += 1
                return None
            return "send"
        for i, f in enumerate(self.fields):
            if f["k"] == k and self._asked(f):  # the field named by this key (a seat), to fix
                self.i, self.page, self.fixing = i, -1, True
                self._load()
                return None
        if k == "*":
            if self.page:
                self.page -= 1
            else:
                self.page = -1  # back to the last field asked, value kept
                self.i = self.fields.index(self.shown()[-1])
                self._load()
            return None
        self.msg = "# SEND  * BACK"
        return None

    def values(self):
        return {f["k"]: self.draft[f["k"]] for f in self.shown()}  # what was asked

    def lines(self):
        title = self.form.get("title") or "GAME %s" % self.form.get("game", "")
        if self.asking:
            return [title, "CANCEL ENTRY?", "VALUES ARE KEPT", "", "* YES  # NO"]
        if self.page >= 0:
            out = [title if title.endswith("CHECK") else fit(title, "CHECK")]
            shown = self.shown()
            for f in shown[self.page * PAGE:(self.page + 1) * PAGE]:
                out.append(fit(f.get("label", f["k"]), show_value(f, self.draft[f["k"]])))
            last = (self.page + 1) * PAGE >= len(shown)
            if self.form.get("kind") == SEAT_CHECK:
                out.append(self.msg or "# ALL RIGHT")
                out.append("A-D: FIX A SEAT")
                return out
            out.append(self.msg or ("# SEND  * BACK" if last else "# MORE  * BACK"))
            return out
        f = self.fields[self.i]
        if f.get("card"):
            rng = card_hint(f)
            shown = card_typed(f, self.buf)
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
