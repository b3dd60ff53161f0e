# The table app: a state machine driven by keys (from the board) and by the
# hub's messages (screen, ack, bell, hub status). It never talks to hardware
# or sockets directly: it draws through board.show() and sends through the
# outbox, which the pump task drains to the MQTT client whenever the link is up.
import asyncio
import gc
import json
import sys
from time import ticks_add, ticks_diff, ticks_ms

from micropython import const

from lines import fit
import protocol as P  # one name here: a board's heap counts every global

# Interned now, while the heap is in one piece, what would otherwise be interned
# mid-session: the entry's names (its module is imported while an entry is keyed and
# let go between entries, on_key) and every character a key or a seat can be (s[i] and
# iterating a string intern the character). Past a pool's last slot the interned names
# take a new pool, one block of up to 3.5 KB, which a fragmented heap may not have.
import entry  # noqa: E402
for _ in "0123456789ABCD*#":
    pass
del sys.modules["entry"], entry, _

# An outbox entry's fields (firmware/outbox.py): inlined by the compiler, no heap.
_E_ID = const(0)
_E_KIND = const(2)
_E_SENT = const(3)

_FW = const("0.1.0")
_NOTE_MS = const(4000)  # a passing message (verdict, "bell sent") stays this long
_SENDING_MS = const(3000)  # wait this long for the verdict before telling the guest it is queued
_BELL_REPEAT_MS = const(3000)  # a second press this soon is the same bell, not a new claim
_MAX_QUEUED = const(16)  # unacked events before a new entry waits for the hub (two sessions' games)
_STALE_MS = const(20000)  # a loop silent this long is hung: stop feeding the watchdog
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


class TableApp:
    def __init__(self, board, outbox, config, log=print):
        self.board = board
        self.outbox = outbox
        self.log = log
        self.table = t = config["table"]
        # the table's own topics: this prefix and a leaf, joined where used (a name per
        # topic would cost heap for as long as the board runs)
        self.topic = P.T_TABLE % t
        self.resend_ms = int(config.get("resend_s", 10) * 1000)
        self.beat_ms = int(config.get("heartbeat_s", 60) * 1000)
        self.client = None
        self.screen = {}  # the latest retained screen
        self.hub = None  # the hub's retained status: "online" / "offline"
        self.safe = None  # the journal seq its replica holds; None: it keeps no replica
        self.restored = None  # where its journal was restored from a replica; None: never
        self.entry = None
        self.draft_game = None  # (form kind, game) the draft belongs to
        self.draft = {}  # values keyed so far for draft_game; survives cancel and refusal
        self.notes = []  # [lines, expiry ticks or None when it waits for a key]
        self.sending = None  # (event id, ticks, title) while waiting for a fresh result's verdict
        self.flash = None  # (one line, ticks): a short hint under the current screen
        self.last_bell = None
        self.frame = None
        self.kick = False  # something new to send
        self.pump = None  # the pump's task while it sleeps, to wake it (_kick)
        self.started = ticks_ms()
        self.pump_beat = self.started  # the pump's loop was last seen alive
        self.queued_game = None
        self.fix = None  # the seat whose field a refusal named, opened when the entry is
        self.undo = None  # [event id, game, lines recorded] of the last count sent: * takes it back
        self._count_queue()

    # --- MQTT wiring -------------------------------------------------------
    def subs(self):
        return [(self.topic + P.ACK, 1), (self.topic + P.SCREEN, 1), (P.T_CMD, 1), (P.T_HUB, 1)]

    def will(self):
        return (self.topic + P.STATUS, self.status("offline"), True, 1)

    def status(self, state):
        s = {"v": P.VERSION, "state": state, "board": self.outbox.board_id}
        if state == "online":
            s["boot"] = self.outbox.boot
            s["fw"] = _FW
        return json.dumps(s)

    async def on_connect(self):
        # Whether the hub is there is unknown until its retained status comes
        # in: a restarted broker may have lost it, and the hub may not be back.
        # Its "online" then resends every unacked entry.
        self.hub = None
        await self.client.publish(self.topic + P.STATUS, self.status("online"), True, 1)

    def on_message(self, topic, payload, retain):
        try:
            m = json.loads(payload)
        except ValueError:
            self.log("bad json on " + topic)
            return
        if not isinstance(m, dict) or m.get("v") != P.VERSION:
            return  # another protocol version: not ours to read
        if topic == self.topic + P.ACK:
            self._on_ack(m)
        elif topic == self.topic + P.SCREEN:
            self.screen = clean_screen(m)
            self._on_bell(m.get("bell"))
        elif topic == P.T_CMD:
            if m.get("cmd") == P.BELL:
                self._on_bell(m.get("bell"))
        elif topic == P.T_HUB:
            was, self.hub = self.hub, m.get("state")
            if self.hub == "online":
                # Its replica's position: acked events beyond it are kept until it passes them.
                self.safe = m.get("safe") if isinstance(m.get("safe"), int) else None
                r = m.get("restored")
                self.restored = r if isinstance(r, int) else None
                back = self.outbox.hub_safe(self.restored, self.safe)
                if was != "online" or back:
                    for e in self.outbox.entries:  # a restarted hub has none of our unacked events
                        e[_E_SENT] = None
                    self._kick()
        self.refresh()

    def _on_ack(self, ack):
        seq = ack.get("seq")
        keep = ack.get("ok") is True and isinstance(seq, int) and self.safe is not None and seq > self.safe
        e = self.outbox.settle(ack.get("id"), seq if keep else None, self.restored)
        if not e:
            return  # a repeated ack for an event already settled
        if self.sending and self.sending[0] == e[_E_ID]:
            self.sending = None
        if e[_E_KIND] == P.RESULT:
            self._count_queue()
        if e[_E_KIND] == P.BELL_ACK:
            return  # the guests saw the bell; a late ack (the session moved on) is nothing to them
        u = self.undo if self.undo and self.undo[0] == e[_E_ID] else None
        if ack.get("ok") is True:
            # a count: what was recorded, and how to take it back
            lines = [str(ack.get("msg") or "SAVED")] + (u[2] + ["", "* UNDO"] if u else [])
            s = ack.get("seal")
            if isinstance(s, str) and isinstance(seq, int) and len(lines) < 7:
                # the receipt, on the last line: the journal's row and the end of its seal
                lines = (lines + [""] * 6)[:6] + ["REC %d %s" % (seq, s[-6:])]
            self._note(lines, _NOTE_MS)
            return
        if u:
            self.undo = None  # a refused count is nothing to undo
        self._note(["REFUSED", str(ack.get("why") or "NO REASON"), "", "# OK"])
        if e[_E_KIND] == P.RESULT:
            # Give the guest the refused values back to correct, not to retype.
            body = json.loads(self.outbox.payload(e))["body"]
            self.draft_game, self.draft = (P.RESULT, body["game"]), body["values"]
            # a reason that names a seat ("B: 32 AT MOST") reopens on that seat's field
            why = str(ack.get("why") or "")
            self.fix = why[0] if why[:1] in P.SEATS and why[1:2] in (" ", ":") else None

    def _on_bell(self, bell):
        if not isinstance(bell, dict) or not isinstance(bell.get("id"), str):
            return
        bid = bell["id"]
        if bid == self.outbox.bell or not 0 < len(bid) <= P.ID_MAX or bid.strip(P.ID_CHARS):
            # acknowledged once per bell id, across reboots too; its characters checked by
            # strip, not one by one: each character taken out of a string is interned for good
            return
        words = BELL_WORDS.get(bell.get("meaning"), ("BELL", ""))
        # The ack event first: a power cut between the two writes then means a
        # second bell-ack after the reboot, never none.
        self.outbox.add(self.table, P.BELL_ACK, {"bell": bid})
        self.outbox.bell_acked(bid)
        self._kick()
        self.notes.insert(0, [["** BELL **", words[0], words[1], "", "# OK"], None])

    # --- keys --------------------------------------------------------------
    def on_key(self, k):
        try:
            self._key(k)
        except OSError as e:  # the outbox could not be written (flash full or failing)
            self.log("key %s: %r" % (k, e))
            self._flash("STORAGE ERROR")
        except MemoryError:  # a passing spike: the key is lost, never the keypad task
            gc.collect()
            self._flash("BUSY - TRY AGAIN")
        if self.entry is None:
            # The entry's module is imported when an entry opens and let go when none is
            # open: its code is not held in the heap between entries (2 KB from a ROMFS
            # image, 5 KB as a .mpy file), e.g. while a long outage fills the outbox.
            sys.modules.pop("entry", None)
        self.refresh()

    def _key(self, k):
        self.flash = None
        if k == "BELL" or k == "BELL-LONG":
            self._bell_button(k)
        elif self.notes and self.notes[0][1] is None:
            self.notes.pop(0)  # a message that waits for a key: this key only dismisses it
        else:
            if self.notes:
                self.notes.pop(0)  # a passing message gives way to typing
            if self.sending:
                self._flash("PLEASE WAIT")
            elif self.entry:
                r = self.entry.key(k, ticks_ms())
                if r == "send":
                    self._send_result()
                elif r == "cancel":
                    self.entry = None
                    self._note(["CANCELLED", "VALUES KEPT", "# TO GO ON"], _NOTE_MS)
            elif k == "#" or self._opens(k):
                self._start_entry(k)
            elif k in P.SEATS and self.screen.get("count"):
                # a count made during play: the seat that made it opens the entry
                self._start_entry(k, self.screen["count"])
            elif k == "*" and self.undo and self.screen.get("count"):
                # the last count taken back in one key, as the idle screen offers it; a
                # wrong undo is keyed again (docs/firmware.md, "Points as they are made")
                self.outbox.add(self.table, P.COUNT_UNDONE, {"game": self.undo[1], "count": self.undo[0]})
                self.undo = None
                self._kick()
                self._note(["UNDO LAST COUNT", "SENT" if self._linked() else "WILL SEND"], _NOTE_MS)
            elif k == "*" and self._between_games():
                # After the finish bell a table between games says so in one key: its
                # session is over there (docs/firmware.md, "No game in hand").
                self.outbox.add(self.table, P.NO_GAME, {})
                self._kick()
                self._note(["NO GAME IN HAND", "SENT" if self._linked() else "WILL SEND"], _NOTE_MS)

    def _bell_button(self, k):
        long = k == "BELL-LONG"  # held: calls the conductor
        now = ticks_ms()
        if self.last_bell and ticks_diff(now, self.last_bell[1]) < _BELL_REPEAT_MS \
                and self.last_bell[0] == long:
            return  # a bounce or an impatient second press: already sent
        self.last_bell = (long, now)
        kind = P.CALL if long else P.BELL
        # One claim is waiting already: more presses say nothing new, and a
        # child at the button must not fill the outbox (and the heap).
        if not any(e[_E_KIND] == kind for e in self.outbox.entries):
            self.outbox.add(self.table, kind, {})
            self._kick()
        self._note(["HOST CALLED" if long else "BELL RUNG", "" if self._linked() else "WILL SEND"],
                   _NOTE_MS)

    def _opens(self, k):
        # On the idle screen that offers "# ENTER GAME n", a digit, or a seat where the
        # first field is a seat and no count made in play owns the seat keys, is the
        # first key of the entry. The seat check and a confirmation open with # only.
        f = self._form()
        if f and f.get("kind", P.RESULT) != P.RESULT:
            return False
        if k.isdigit():
            return True  # (with no form: "NOTHING TO ENTER")
        return bool(f and k in P.SEATS and not self.screen.get("count") and f["fields"][0].get("seat"))

    def _between_games(self):
        s = self.screen
        return s.get("state") == "finishing" and not any(e[_E_KIND] == P.NO_GAME for e in self.outbox.entries)

    def _form(self):
        """The form to key next. While results wait in the outbox the board
        moves on to the following game by itself, so a table keeps playing
        through a hub outage; the hub checks the game number when it returns."""
        form = self.screen.get("form")
        if not isinstance(form, dict) or not form.get("fields"):
            return None
        game = form.get("game", 0)
        q = self.queued_game
        if q is not None and q >= game and form.get("kind", P.RESULT) == P.RESULT:
            form = dict(form)
            form["game"] = game = q + 1
            form["title"] = "GAME %d" % game
        return form

    def _count_queue(self):
        # The highest game among queued results; parsed only when the outbox changes.
        self.queued_game = None
        for e in self.outbox.entries:
            if e[_E_KIND] == P.RESULT:
                g = json.loads(self.outbox.payload(e))["body"]["game"]
                if self.queued_game is None or g > self.queued_game:
                    self.queued_game = g

    @staticmethod
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

    def _start_entry(self, k, form=None):
        form = form or self._form()
        if form is None:
            self._flash("NOTHING TO ENTER")
            return
        if len(self.outbox) >= _MAX_QUEUED:
            # The heap holds every unacked event; past this the board would
            # run out of memory before the hub comes back.
            self._flash("QUEUE FULL")
            return
        key = (form.get("kind", P.RESULT), form["game"])
        if key != self.draft_game:
            self.draft_game, self.draft = key, {}
        from entry import Entry  # let go again when no entry is open (on_key)
        self.entry = Entry(form, self.draft)
        if k != "#":
            if self.entry.page < 0:
                self.entry.buf = ""  # the key begins the first field afresh, a kept value or not
            if self.entry.key(k, ticks_ms()) == "send":  # a digit in idle is the first digit of the entry
                self._send_result()  # a count made in one key (the seat of a double)
        elif self.fix and self.entry.page >= 0:
            self.entry.key(self.fix)  # the refused entry: the field its reason names
        self.fix = None

    def _send_result(self):
        e = self.entry
        # Written to flash first: if that fails the entry stays on screen, still keyed.
        eid = self.outbox.add(self.table, *self._event_of(e.form, e.values()))
        # a count can be taken back until the hand's result is sent
        self.undo = [eid, e.form["game"], e.lines()[1:-1]] if e.form.get("kind") == P.COUNT else None
        self.entry = None
        self.draft_game, self.draft = None, {}
        self._count_queue()
        self._kick()
        if self._linked():
            self.sending = (eid, ticks_ms(), e.form.get("title") or "")
        else:
            self._note(["HUB NOT REACHED", "KEPT ON BOARD", "SENDS BY ITSELF"], _NOTE_MS)

    def _kick(self):
        # A new event to send: wake the pump at once. Cancelling its sleep ends
        # it early; an asyncio.Event would import its module, 1 KB of heap.
        self.kick = True
        if self.pump:
            self.pump.cancel()
            self.pump = None

    # --- display -----------------------------------------------------------
    def _note(self, lines, timeout=None):
        # timeout: ms until it passes; None: it waits for a key
        if timeout is not None:
            # A passing message replaces passing messages: after an outage the
            # acks of a whole queue arrive at once, and only the latest matters.
            self.notes = [n for n in self.notes if n[1] is None]
        self.notes.append([lines, None if timeout is None else ticks_add(ticks_ms(), timeout)])

    def _flash(self, text):
        self.flash = (text, ticks_ms())

    def _linked(self):
        return self.client is not None and self.client.isconnected() and self.hub == "online"

    def refresh(self):
        # The frame, drawn only when it changed.
        if self.notes:
            body = self.notes[0][0]
        elif self.sending:
            body = [self.sending[2], "SENDING..."]
        elif self.entry:
            body = self.entry.lines()
        else:
            body = self._idle()
        body = (list(body) + [""] * 7)[:7]
        if self.flash:
            body[5] = self.flash[0]
        n = len(self.outbox)
        bar = fit("T%d%s" % (self.table, "" if self._linked() else " HUB?"), "PEND %d" % n if n else "")
        f = [l[:16] for l in body] + [bar]
        shown = "\n".join(f)  # one string, not a list of eight, kept between frames
        if shown != self.frame:
            self.frame = shown
            self.board.show(f)

    def _idle(self):
        s = self.screen
        lines = s.get("lines") or ["TABLE %d" % self.table, "WAITING FOR HUB"]
        # up to 6 of the hub's lines: the last two only where no bell or choice is shown
        body = [str(l) for l in lines[:6]] + [""] * (6 - min(6, len(lines)))
        bell = s.get("bell")
        if s.get("state") in ("finishing", "stopped") and isinstance(bell, dict):
            body[4] = BELL_WORDS.get(bell.get("meaning"), ("BELL",))[0]
        form = self._form()
        if self._between_games():
            body[5] = "* NO GAME BEGUN"
        elif s.get("count"):
            body[5] = "A-D: POINTS MADE"
            if self.undo:  # until the hand's result is sent (the hub refuses it after that)
                body[4] = fit("LAST " + " ".join(l.split()[-1] for l in self.undo[2]), "* UNDO")
        if form:  # what # does now
            body.append("# SEAT CHECK" if form.get("kind") == P.SEAT_CHECK else "# ENTER GAME %d" % form["game"])
        else:
            body.append("")
        return body

    # --- loops -------------------------------------------------------------
    async def _tick(self):
        # Expires messages and notices link changes (HUB?) without any key. And
        # the hardware watchdog, which resets the board unless fed: fed here once
        # a second, only while the pump's and the link's loops have shown life
        # recently, so any hung loop (this one too) ends in a reset.
        n = 0
        while True:
            now = ticks_ms()
            if n % 5 == 0 and ticks_diff(now, self.pump_beat) < _STALE_MS \
                    and ticks_diff(now, self.client.beat) < _STALE_MS:
                self.board.feed_watchdog()
            n += 1
            if self.notes and self.notes[0][1] is not None and ticks_diff(now, self.notes[0][1]) > 0:
                self.notes.pop(0)
            if self.flash and ticks_diff(now, self.flash[1]) > _NOTE_MS:
                self.flash = None
            if self.sending and ticks_diff(now, self.sending[1]) > _SENDING_MS:
                self.sending = None
                self._note(["NO REPLY YET", "KEPT ON BOARD", "SENDS BY ITSELF"], _NOTE_MS)
            try:
                self.refresh()
            except Exception as e:  # keep ticking (and feeding the watchdog) whatever the screen held
                self.log("refresh: %r" % (e,))
            await asyncio.sleep_ms(200)

    async def _pump(self):
        # Sends the outbox oldest first: new events at once, all of them on every
        # (re)connect and when the hub comes back, and any still unacked every
        # resend_ms, until the hub's ack settles them.
        c = self.client
        last_beat = ticks_add(ticks_ms(), -self.beat_ms)  # the first heartbeat at once
        while True:
            self.pump_beat = ticks_ms()
            if not self.kick:
                # A second, for resends and heartbeats falling due, unless _kick
                # ends the sleep first.
                self.pump = asyncio.current_task()
                try:
                    await asyncio.sleep_ms(1000)
                except asyncio.CancelledError:
                    pass
                self.pump = None
            if not c.isconnected():
                await asyncio.sleep_ms(50)  # a kick waits for the link, not for the next second
                continue
            self.kick = False
            try:
                for e in list(self.outbox.entries):
                    if e[_E_SENT] is None or ticks_diff(ticks_ms(), e[_E_SENT]) > self.resend_ms:
                        if e in self.outbox.entries:  # not settled while we were sending
                            # Marked before the await: a resend asked for meanwhile (the
                            # hub came back) clears the mark again and is not lost.
                            e[_E_SENT] = ticks_ms()
                            try:
                                await c.publish(self.topic + P.EVENT, self.outbox.payload(e), False, 1)
                            except Exception:  # the link broke, or a heap spike
                                e[_E_SENT] = None  # sent again at the next pass
                                raise
                e = None  # the last entry is not held until the next pass: it may be settled
                if ticks_diff(ticks_ms(), last_beat) >= self.beat_ms:
                    last_beat = ticks_ms()
                    b = self.board
                    await c.publish(self.topic + P.HEARTBEAT, json.dumps({
                        "v": P.VERSION, "board": self.outbox.board_id, "up": ticks_diff(ticks_ms(), self.started) // 1000,
                        "outbox": len(self.outbox), "rssi": b.signal(), "battery": b.battery()}))
            except OSError as ex:
                self.log("pump: %r" % (ex,))  # the client reconnects; on_connect resends
            except MemoryError:
                # A burst (a whole queue resent while its acks pour in) on a full
                # heap: let it pass and try again; nothing is lost, the outbox is on flash.
                gc.collect()
                self.log("pump: out of memory, retrying")
                await asyncio.sleep_ms(500)

    async def run(self):
        self.refresh()
        self.board.start_inputs(self.on_key)
        asyncio.create_task(self._tick())
        asyncio.create_task(self._pump())
        await self.client.run()
