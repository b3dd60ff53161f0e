# What the table's display shows, composed in one place: a message over
# everything, else "SENDING...", else the entry being keyed, else the idle
# screen made of the hub's retained screen; a short hint under it and the
# status bar (table, HUB?, entries pending) at the bottom. Drawn only when the
# frame changed. The app's state is read here, changed only by the message
# and hint calls (note, flash).
from time import ticks_add, ticks_ms

from micropython import const

from lines import fit
import protocol as P

_E_KIND = const(2)  # an outbox entry's kind (firmware/outbox.py)
BELL_WORDS = {"finish": ("FINISH GAME", "START NO NEW ONE"), "stop": ("STOP NOW", "PUT TILES DOWN")}


def clean_screen(screen):
    # A malformed retained screen would otherwise break every render after
    # every reboot; keep only what has the protocol's shape, and only what the
    # board reads (it stays in the heap until the next screen).
    lines = screen.get("lines")
    # the form keyed next, and the count keyed as it is made during play (in_play "each")
    return {"lines": [str(l) for l in lines[:6]] if isinstance(lines, list) else [],
            "form": form_or_none(screen.get("form")), "count": form_or_none(screen.get("count")),
            "state": screen.get("state"), "bell": screen.get("bell")}


def form_or_none(f):
    ok = isinstance(f, dict) and isinstance(f.get("game"), int) and isinstance(f.get("fields"), list)
    for fd in f["fields"] if ok else ():
        ok = ok and isinstance(fd, dict) and isinstance(fd.get("k"), str) and \
            isinstance(fd.get("min", 0), int) and isinstance(fd.get("max", 0), int) and \
            isinstance(fd.get("label", ""), str) and isinstance(fd.get("v", 0), int) and \
            isinstance(fd.get("sum", 0), int) and \
            (not fd.get("when") or isinstance(fd["when"], list) and len(fd["when"]) == 2
             and isinstance(fd["when"][1], list))
    return f if ok and f["fields"] else None


def note(app, lines, timeout=None):
    # timeout: ms until it passes; None: it waits for a key
    if timeout is not None:
        # A passing message replaces passing messages: after an outage the
        # acks of a whole queue arrive at once, and only the latest matters.
        app.notes = [n for n in app.notes if n[1] is None]
    app.notes.append([lines, None if timeout is None else ticks_add(ticks_ms(), timeout)])


def flash(app, text):
    app.flash = (text, ticks_ms())


def linked(app):
    c = app.client
    return c is not None and c.isconnected() and app.hub == "online"


def form(app):
    """The form to key next. While results wait in the outbox the board
    moves on to the following game by itself, so a table keeps playing
    through a hub outage; the hub checks the game number when it returns."""
    f = app.screen.get("form")
    if not isinstance(f, dict) or not f.get("fields"):
        return None
    game = f.get("game", 0)
    q = app.queued_game
    if q is not None and q >= game and f.get("kind", P.RESULT) == P.RESULT:
        f = dict(f)
        f["game"] = game = q + 1
        f["title"] = "GAME %d" % game
    return f


def between_games(app):
    return app.screen.get("state") == "finishing" and \
        not any(e[_E_KIND] == P.NO_GAME for e in app.outbox.entries)


def refresh(app):
    # The frame, drawn only when it changed.
    if app.notes:
        body = app.notes[0][0]
    elif app.sending:
        body = [app.sending[2], "SENDING..."]
    elif app.entry:
        body = app.entry.lines()
    else:
        body = _idle(app)
    body = (list(body) + [""] * 7)[:7]
    if app.flash:
        body[5] = app.flash[0]
    n = len(app.outbox)
    bar = fit("T%d%s" % (app.table, "" if linked(app) else " HUB?"), "PEND %d" % n if n else "")
    f = [l[:16] for l in body] + [bar]
    shown = "\n".join(f)  # one string, not a list of eight, kept between frames
    if shown != app.frame:
        app.frame = shown
        app.board.show(f)


def _idle(app):
    s = app.screen
    lines = s.get("lines") or ["TABLE %d" % app.table, "WAITING FOR HUB"]
    # up to 6 of the hub's lines: the last two only where no bell or choice is shown
    body = [str(l) for l in lines[:6]] + [""] * (6 - min(6, len(lines)))
    bell = s.get("bell")
    if s.get("state") in ("finishing", "stopped") and isinstance(bell, dict):
        body[4] = BELL_WORDS.get(bell.get("meaning"), ("BELL",))[0]
    f = form(app)
    if between_games(app):
        body[5] = "* NO GAME BEGUN"
    elif s.get("count"):
        body[5] = "A-D: POINTS MADE"
        if app.undo:  # until the hand's result is sent (the hub refuses it after that)
            body[4] = fit("LAST " + " ".join(l.split()[-1] for l in app.undo[2]), "* UNDO")
    if f:  # what # does now
        body.append("# SEAT CHECK" if f.get("kind") == P.SEAT_CHECK else "# ENTER GAME %d" % f["game"])
    else:
        body.append("")
    return body
