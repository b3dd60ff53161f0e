# The keys' state machine (docs/firmware.md, "The keypad, for a party guest").
# What a key does depends on the state the board is in, which the app's state
# says (key() below); each state's keys are one function of STATES (at the end):
#
#   state    on the display                 key             goes to
#   note     a message that waits for a key any             the state under it (dismissed)
#            (the bell, a refusal)
#   sending  title, SENDING... (3 s at most) any            stays: PLEASE WAIT
#   entry    a field of the form, or the    digits A-D * #  entry.py: field by field, then the
#            review page of its values                      review; # there: sending (a count:
#                                                           on its last field, no review);
#                                                           * then * on the first: idle
#   idle     the hub's lines, # ENTER GAME  see below       entry, or a note
#
# On the idle screen, in order, the first that applies (idle()): # or the first key of the form's entry
# opens it (the seat check and a confirmation open with # only; a play-off's
# result is a result); a seat during play opens the count it made; * takes back
# the last count, or after the finish bell says this table has no game in hand.
# In every state BELL claims the conductor's bell, BELL-LONG calls the host (a
# passing note), and a passing note gives way to the next key. From the hub
# (app.py hands its messages here): sending -> a note on its verdict (ack), or
# after 3 s with none (pump.tick); any -> the note ** BELL ** on the conductor's
# bell (bell), until a key.
import json
from time import ticks_diff, ticks_ms

from micropython import const

import protocol as P
import pump
import screen

# An outbox entry's fields (firmware/outbox.py): inlined by the compiler, no heap.
_E_ID = const(0)
_E_KIND = const(2)
_NOTE_MS = const(4000)  # a passing message (verdict, "bell sent") stays this long
_BELL_REPEAT_MS = const(3000)  # a second press this soon is the same bell, not a new claim
_MAX_QUEUED = const(16)  # unacked events before a new entry waits for the hub (two sessions' games)

_NOTE = const(0)
_SENDING = const(1)
_ENTRY = const(2)
_IDLE = const(3)


def key(app, k):
    app.flash = None
    if k == "BELL" or k == "BELL-LONG":
        _bell_button(app, k)
        return
    # The state the board is in: what the display shows (screen.refresh), in that order.
    if app.notes and app.notes[0][1] is None:
        s = _NOTE
    else:
        if app.notes:
            app.notes.pop(0)  # a passing message gives way to typing
        s = _SENDING if app.sending else _ENTRY if app.entry else _IDLE
    STATES[s](app, k)


def note(app, k):
    app.notes.pop(0)  # a message that waits for a key: this key only dismisses it


def sending(app, k):
    screen.flash(app, "PLEASE WAIT")


def entry(app, k):
    r = app.entry.key(k, ticks_ms())
    if r == "send":
        _send_result(app)
    elif r == "cancel":
        app.entry = None
        screen.note(app, ["CANCELLED", "VALUES KEPT", "# TO GO ON"], _NOTE_MS)


def idle(app, k):
    # The idle screen's keys, in order: the first rule that takes the key.
    f = screen.form(app)
    c = app.screen.get("count")  # a count made during play, keyed as it is made
    # 1. # opens the form offered ("# ENTER GAME n"); so does a digit, or a seat where
    # the first field is a seat and no count owns the seat keys; the seat check and a
    # confirmation open with # only. (A digit with no form: "NOTHING TO ENTER".)
    if k == "#" or (not f or f.get("kind", P.RESULT) == P.RESULT) and \
            (k.isdigit() or f and k in P.SEATS and not c and f["fields"][0].get("seat")):
        _start_entry(app, k, f)
    # 2. during play, the seat that made a count opens the count's entry
    elif k in P.SEATS and c:
        _start_entry(app, k, c)
    elif k == "*":
        if app.undo and c:
            # 3. the last count taken back in one key, as the idle screen offers it; a
            # wrong undo is keyed again (docs/firmware.md, "Points as they are made")
            said, kind, body = "UNDO LAST COUNT", P.COUNT_UNDONE, {"game": app.undo[1], "count": app.undo[0]}
            app.undo = None
        elif screen.between_games(app):
            # 4. after the finish bell a table between games says so in one key: its
            # session is over there (docs/firmware.md, "No game in hand")
            said, kind, body = "NO GAME IN HAND", P.NO_GAME, {}
        else:
            return
        app.outbox.add(app.table, kind, body)
        pump.kick(app)
        screen.note(app, [said, "SENT" if screen.linked(app) else "WILL SEND"], _NOTE_MS)


def _start_entry(app, k, form):
    if form is None:
        screen.flash(app, "NOTHING TO ENTER")
        return
    if len(app.outbox) >= _MAX_QUEUED:
        # The heap holds every unacked event; past this the board would
        # run out of memory before the hub comes back.
        screen.flash(app, "QUEUE FULL")
        return
    kind = (form.get("kind", P.RESULT), form["game"])
    if kind != app.draft_game:
        app.draft_game, app.draft = kind, {}
    from entry import Entry  # let go again when no entry is open (app.on_key)
    app.entry = Entry(form, app.draft)
    if k != "#":
        if app.entry.page < 0:
            app.entry.buf = ""  # the key begins the first field afresh, a kept value or not
        if app.entry.key(k, ticks_ms()) == "send":  # a digit in idle is the first digit of the entry
            _send_result(app)  # a count made in one key (the seat of a double)
    elif app.fix and app.entry.page >= 0:
        app.entry.key(app.fix)  # the refused entry: the field its reason names
    app.fix = None


def _event_of(form, values):
    # The form says which event its values make (docs/protocol.md, screen.form.kind).
    kind = form.get("kind", P.RESULT)
    if kind == P.SEAT_CHECK:
        return kind, {"cards": values}
    if kind == P.COUNT:
        return kind, {"game": form["game"], "values": values}
    if kind == P.CONFIRM:  # one seat field: the confirming player's seat
        seat = list(values.values())[0]
        return kind, {"entry": form.get("entry"), "seat": "ABCD"[seat - 1]}
    return P.RESULT, {"game": form["game"], "values": values}


def _send_result(app):
    e = app.entry
    # Written to flash first: if that fails the entry stays on screen, still keyed.
    eid = app.outbox.add(app.table, *_event_of(e.form, e.values()))
    # a count can be taken back until the hand's result is sent
    app.undo = [eid, e.form["game"], e.lines()[1:-1]] if e.form.get("kind") == P.COUNT else None
    app.entry = None
    app.draft_game, app.draft = None, {}
    pump.queued(app)
    pump.kick(app)
    if screen.linked(app):
        app.sending = (eid, ticks_ms(), e.form.get("title") or "")
    else:
        screen.note(app, ["HUB NOT REACHED", "KEPT ON BOARD", "SENDS BY ITSELF"], _NOTE_MS)


def _bell_button(app, k):
    long = k == "BELL-LONG"  # held: calls the conductor
    now = ticks_ms()
    if app.last_bell and ticks_diff(now, app.last_bell[1]) < _BELL_REPEAT_MS \
            and app.last_bell[0] == long:
        return  # a bounce or an impatient second press: already sent
    app.last_bell = (long, now)
    kind = P.CALL if long else P.BELL
    # One claim is waiting already: more presses say nothing new, and a
    # child at the button must not fill the outbox (and the heap).
    if not any(e[_E_KIND] == kind for e in app.outbox.entries):
        app.outbox.add(app.table, kind, {})
        pump.kick(app)
    screen.note(app, ["HOST CALLED" if long else "BELL RUNG", "" if screen.linked(app) else "WILL SEND"],
                _NOTE_MS)


def ack(app, m):
    # The hub's verdict on an event: sending -> a note (a refusal waits for a key, and
    # gives the refused values back to correct).
    seq, s = m.get("seq"), m.get("seal")
    keep = m.get("ok") is True and isinstance(seq, int) and app.safe is not None and seq > app.safe
    # the receipt: the journal's row and the end of its seal (kept on flash, shown after a reboot)
    r = "REC %d %s" % (seq, s[-6:]) if m.get("ok") is True and isinstance(s, str) and isinstance(seq, int) else None
    e = app.outbox.settle(m.get("id"), seq if keep else None, app.restored, r)
    if not e:
        return  # a repeated ack for an event already settled
    if app.sending and app.sending[0] == e[_E_ID]:
        app.sending = None
    if e[_E_KIND] == P.RESULT:
        pump.queued(app)
    if e[_E_KIND] == P.BELL_ACK:
        return  # the guests saw the bell; a late ack (the session moved on) is nothing to them
    u = app.undo if app.undo and app.undo[0] == e[_E_ID] else None
    if m.get("ok") is True:
        # a count: what was recorded, and how to take it back
        lines = [str(m.get("msg") or "SAVED")] + (u[2] + ["", "* UNDO"] if u else [])
        if r and len(lines) < 7:  # the receipt, on the last line
            lines = (lines + [""] * 6)[:6] + [r]
        screen.note(app, lines, _NOTE_MS)
        return
    if u:
        app.undo = None  # a refused count is nothing to undo
    screen.note(app, ["REFUSED", str(m.get("why") or "NO REASON"), "", "# OK"])
    if e[_E_KIND] == P.RESULT:
        # Give the guest the refused values back to correct, not to retype.
        body = json.loads(app.outbox.payload(e))["body"]
        app.draft_game, app.draft = (P.RESULT, body["game"]), body["values"]
        # a reason that names a seat ("B: 32 AT MOST") reopens on that seat's field
        why = str(m.get("why") or "")
        app.fix = why[0] if why[:1] in P.SEATS and why[1:2] in (" ", ":") else None


def bell(app, b):
    # The conductor's bell (on the screen or broadcast): a note over every state, until a key.
    if not isinstance(b, dict) or not isinstance(b.get("id"), str):
        return
    bid = b["id"]
    if bid == app.outbox.bell or not 0 < len(bid) <= P.ID_MAX or bid.strip(P.ID_CHARS):
        # acknowledged once per bell id, across reboots too; its characters checked by
        # strip, not one by one: each character taken out of a string is interned for good
        return
    words = screen.BELL_WORDS.get(b.get("meaning"), ("BELL", ""))
    # The ack event first: a power cut between the two writes then means a
    # second bell-ack after the reboot, never none.
    app.outbox.add(app.table, P.BELL_ACK, {"bell": bid})
    app.outbox.bell_acked(bid)
    pump.kick(app)
    app.notes.insert(0, [["** BELL **", words[0], words[1], "", "# OK"], None])


# What a key does, by the state the board is in (_NOTE.._IDLE above, key()).
STATES = (note, sending, entry, idle)
