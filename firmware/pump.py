# The app's two loops: the pump, which sends the outbox and the heartbeat to
# the hub, and the tick, which expires messages and feeds the watchdog. Both
# read and write the app's state (app.py); neither draws but through screen.
import asyncio
import gc
import json
from time import ticks_add, ticks_diff, ticks_ms

from micropython import const

import protocol as P
import screen

# An outbox entry's fields (firmware/outbox.py): inlined by the compiler, no heap.
_E_KIND = const(2)
_E_SENT = const(3)

_NOTE_MS = const(4000)  # a passing hint stays this long
_SENDING_MS = const(3000)  # wait this long for the verdict before telling the guest it is queued
_STALE_MS = const(20000)  # a loop silent this long is hung: stop feeding the watchdog


def kick(app):
    # A new event to send: wake the pump at once. Cancelling its sleep ends
    # it early; an asyncio.Event would import its module, 1 KB of heap.
    app.kick = app.kick or 1  # a heartbeat asked behind the entries (2) stays asked
    if app.pump:
        app.pump.cancel()
        app.pump = None


def queued(app):
    # The highest game among queued results; parsed only when the outbox changes.
    app.queued_game = None
    for e in app.outbox.entries:
        if e[_E_KIND] == P.RESULT:
            g = json.loads(app.outbox.payload(e))["body"]["game"]
            if app.queued_game is None or g > app.queued_game:
                app.queued_game = g


async def tick(app):
    # Expires messages and notices link changes (HUB?) without any key. And
    # the hardware watchdog, which resets the board unless fed: fed here once
    # a second, only while the pump's and the link's loops have shown life
    # recently, so any hung loop (this one too) ends in a reset.
    n = 0
    while True:
        now = ticks_ms()
        if n % 5 == 0 and ticks_diff(now, app.pump_beat) < _STALE_MS \
                and ticks_diff(now, app.client.beat) < _STALE_MS:
            app.board.feed_watchdog()
        n += 1
        if app.notes and app.notes[0][1] is not None and ticks_diff(now, app.notes[0][1]) > 0:
            app.notes.pop(0)
        if app.flash and ticks_diff(now, app.flash[1]) > _NOTE_MS:
            app.flash = None
        if app.sending and ticks_diff(now, app.sending[1]) > _SENDING_MS:
            app.sending = None
            screen.note(app, ["NO REPLY YET", "KEPT ON BOARD", "SENDS BY ITSELF"], _NOTE_MS)
        try:
            screen.refresh(app)
        except Exception as e:  # keep ticking (and feeding the watchdog) whatever the screen held
            app.log("refresh: %r" % (e,))
        await asyncio.sleep_ms(200)


async def drain(app):
    # Sends the outbox oldest first: new events at once, all of them on every
    # (re)connect and when the hub comes back, and any still unacked every
    # resend_ms, until the hub's ack settles them.
    c = app.client
    last_beat = ticks_add(ticks_ms(), -app.beat_ms)  # the first heartbeat at once
    while True:
        app.pump_beat = ticks_ms()
        if not app.kick:
            # A second, for resends and heartbeats falling due, unless kick
            # ends the sleep first.
            app.pump = asyncio.current_task()
            try:
                await asyncio.sleep_ms(1000)
            except asyncio.CancelledError:
                pass
            app.pump = None
        if not c.isconnected():
            await asyncio.sleep_ms(50)  # a kick waits for the link, not for the next second
            continue
        due = app.kick == 2  # the hub came back: a heartbeat behind the entries sent
        app.kick = 0
        try:
            for e in list(app.outbox.entries):
                if e[_E_SENT] is None or ticks_diff(ticks_ms(), e[_E_SENT]) > app.resend_ms:
                    if e in app.outbox.entries:  # not settled while we were sending
                        # Marked before the await: a resend asked for meanwhile (the
                        # hub came back) clears the mark again and is not lost.
                        e[_E_SENT] = ticks_ms()
                        try:
                            await c.publish(app.topic + P.EVENT, app.outbox.payload(e), False, 1)
                        except Exception:  # the link broke, or a heap spike
                            e[_E_SENT] = None  # sent again at the next pass
                            raise
            e = None  # the last entry is not held until the next pass: it may be settled
            if due or ticks_diff(ticks_ms(), last_beat) >= app.beat_ms:
                last_beat = ticks_ms()
                b = app.board
                await c.publish(app.topic + P.HEARTBEAT, json.dumps({
                    "v": P.VERSION, "board": app.outbox.board_id, "up": ticks_diff(ticks_ms(), app.started) // 1000,
                    "outbox": len(app.outbox), "rssi": b.signal(), "battery": b.battery()}))
        except OSError as ex:
            app.log("pump: %r" % (ex,))  # the client reconnects; on_connect resends
        except MemoryError:
            # A burst (a whole queue resent while its acks pour in) on a full
            # heap: let it pass and try again; nothing is lost, the outbox is on flash.
            gc.collect()
            app.log("pump: out of memory, retrying")
            await asyncio.sleep_ms(500)
