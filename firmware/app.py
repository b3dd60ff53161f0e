# The table app, wired: the board's state, the hub's messages (screen, ack,
# bell, hub status) and the keys, into the parts that act on them: keys.py (the
# keys' state machine), screen.py (what the display shows), pump.py (the
# outbox, the heartbeat and the watchdog). It never talks to hardware or sockets
# directly: it draws through board.show() and sends through the outbox, which the
# pump drains to the link whenever it is up.
import asyncio
import gc
import json
import sys
from time import ticks_ms

from micropython import const

import protocol as P  # one name here: a board's heap counts every global
import keys
import pump
import screen

# Interned now, while the heap is in one piece, what would otherwise be interned
# mid-session: the entry's names (its module is imported while an entry is keyed and
# let go between entries, on_key) and every character a key or a seat can be (s[i] and
# iterating a string intern the character). Past a pool's last slot the interned names
# take a new pool, one block of up to 3.5 KB, which a fragmented heap may not have.
import entry  # noqa: E402
for _ in "0123456789ABCD*#":
    pass
del sys.modules["entry"], entry, _

_E_SENT = const(3)  # an outbox entry's time sent (firmware/outbox.py): inlined, no heap
_FW = const("0.1.0")


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
        # which takeover restored the hub's journal from a replica (two in a row may restore
        # at one seq: docs/protocol.md, `took`); None: never
        self.restored = None
        self.entry = None
        self.draft_game = None  # (form kind, game) the draft belongs to
        self.draft = {}  # values keyed so far for draft_game; survives cancel and refusal
        self.notes = []  # [lines, expiry ticks or None when it waits for a key]
        self.sending = None  # (event id, ticks, title) while waiting for a fresh result's verdict
        self.flash = None  # (one line, ticks): a short hint under the current screen
        self.last_bell = None
        self.frame = None
        self.kick = 0  # something new to send: 1; 2 with a heartbeat behind it (pump.py)
        self.pump = None  # the pump's task while it sleeps, to wake it (pump.kick)
        self.started = ticks_ms()
        self.pump_beat = self.started  # the pump's loop was last seen alive
        self.queued_game = None
        self.fix = None  # the seat whose field a refusal named, opened when the entry is
        self.undo = None  # [event id, game, lines recorded] of the last count sent: * takes it back
        pump.queued(self)
        if outbox.receipt:  # what the journal held last, as the guests last saw it
            screen.note(self, ["LAST SAVED", "", "", "", "", "", outbox.receipt], 4000)

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
            keys.ack(self, m)
        elif topic == self.topic + P.SCREEN:
            self.screen = screen.clean_screen(m)
            keys.bell(self, m.get("bell"))
        elif topic == P.T_CMD:
            if m.get("cmd") == P.BELL:
                keys.bell(self, m.get("bell"))
        elif topic == P.T_HUB:
            was, self.hub = self.hub, m.get("state")
            if self.hub == "online":
                # Its replica's position: acked events beyond it are kept until it passes them.
                self.safe = m.get("safe") if isinstance(m.get("safe"), int) else None
                r, t = m.get("restored"), m.get("took")
                r = r if isinstance(r, int) else None
                self.restored = t if isinstance(t, int) else r
                back = self.outbox.hub_safe(r, self.restored, self.safe)
                if was != "online" or back:
                    for e in self.outbox.entries:  # a restarted hub has none of our unacked events
                        e[_E_SENT] = None
                    pump.kick(self)
                    self.kick = 2  # and a heartbeat after them: a restored hub knows this board sent all it kept
        screen.refresh(self)

    # --- keys --------------------------------------------------------------
    def on_key(self, k):
        try:
            keys.key(self, k)
        except OSError as e:  # the outbox could not be written (flash full or failing)
            self.log("key %s: %r" % (k, e))
            screen.flash(self, "STORAGE ERROR")
        except MemoryError:  # a passing spike: the key is lost, never the keypad task
            gc.collect()
            screen.flash(self, "BUSY - TRY AGAIN")
        if self.entry is None:
            # The entry's module is imported when an entry opens and let go when none is
            # open: its code is not held in the heap between entries (2 KB from a ROMFS
            # image, 5 KB as a .mpy file), e.g. while a long outage fills the outbox.
            sys.modules.pop("entry", None)
        screen.refresh(self)

    async def run(self):
        screen.refresh(self)
        self.board.start_inputs(self.on_key)
        asyncio.create_task(pump.tick(self))
        asyncio.create_task(pump.drain(self))
        await self.client.run()
