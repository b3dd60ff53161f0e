"""Fuzz drills: malformed and mutated payloads into the hub, random keys into the firmware.

The hub's fuzz feeds a seeded mutator's payloads through the hub's own input path
(its inbox, as the MQTT callback does: parse, judge, journal, ack) in this process,
plus a few thousand through a real broker. Valid control events are mixed in and
must all be journaled once. The firmware's fuzz presses random key sequences
(digits, A-D, *, #, BELL, BELL-LONG) on real boards while the hub acknowledges.
Afterwards: no crash, every journaled event replays, and none of them is one the
conductor would refuse.
"""
from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from hub import conductor, protocol
from party.broker import best_available
from party.hands import played_values
from hub.conductor.cards import SEATS, number
from party.replay import read_journal

from .boards import board_crashes, start_boards, stop_boards
from .books import refusable_events
from .figures import ErrorCounter, Figures, fresh_dir
from .hubs import InProcessHub
from .lockstep import set_up_party

TABLES = 4


# ----- the mutator ----------------------------------------------------------------------------

def _valid(state, rng: random.Random, table: int, seq: int) -> dict:
    """A well-formed event for this moment of the party (many still refused by the rules)."""
    t = state.session.tables[table]
    kind = rng.choice(protocol.TABLE_KINDS)
    if kind == "seat-check":
        body = {"cards": {x: number(c) if c else 0 for x, c in zip(SEATS, t.seats)}}
    elif kind == "result":
        body = {"game": t.entered + 1, "values": played_values(state.setup, t.seats, rng, lead=True)}
    elif kind == "confirm":
        body = {"entry": f"sim-{table}.1.{rng.randrange(9)}", "seat": rng.choice(SEATS)}
    elif kind == "bell-ack":
        body = {"bell": rng.choice(["s1-bell-1", "x", "a" * 24])}
    else:
        body = {}
    return {"v": 1, "id": f"fz-{table}.{rng.randrange(3)}.{seq}", "table": table, "kind": kind, "body": body}


def _random_json(rng: random.Random, depth: int = 0):
    makers = [lambda: None, lambda: True, lambda: rng.randint(-2 ** 70, 2 ** 70), lambda: rng.random() * 1e308,
              lambda: float("nan"), lambda: rng.randint(-3, 1000),
              lambda: "".join(chr(rng.randrange(0x20, 0x2FFF)) for _ in range(rng.randrange(30))),
              lambda: rng.choice(["", "A", "result", "sim-1.1.1", "\u0000", "x" * 3000])]
    if depth < 3:
        keys = ["v", "id", "table", "kind", "body", "game", "values", "A", "cards", "entry", "seat", "bell"]
        makers += [lambda: [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))],
                   lambda: {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(5))}]
    return rng.choice(makers)()


def _mutate_object(msg: dict, rng: random.Random) -> dict:
    target = msg if rng.random() < 0.5 or not isinstance(msg.get("body"), dict) else msg["body"]
    if isinstance(target.get("values"), dict) and rng.random() < 0.5:
        target = target["values"]
    op = rng.randrange(4)
    keys = list(target) or ["v"]
    if op == 0:
        target.pop(rng.choice(keys), None)
    elif op == 1:
        target[rng.choice(keys)] = _random_json(rng)
    elif op == 2:
        target[rng.choice(["x", "table", "board", "id", "seq", "game", "E"])] = _random_json(rng)
    else:
        k = rng.choice(keys)
        v = target.get(k)
        target[k] = (v + rng.choice([-1, 1, 5, 10 ** 12, -10 ** 12])) if isinstance(v, int) and not isinstance(v, bool) \
            else str(v)
    return msg


def _spelled(msg) -> bytes:
    """As a board would spell it, but anything JSON can say (ints past 64 bits, NaN),
    which the hub's own encoder refuses to write."""
    return json.dumps(msg, separators=(",", ":")).encode()


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op, i = rng.randrange(5), rng.randrange(len(b) + 1)
        if op == 0 and b:
            b[min(i, len(b) - 1)] = rng.randrange(256)
        elif op == 1:
            del b[i:i + rng.randint(1, 16)]
        elif op == 2:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 3:
            b[i:i] = b[i:i + rng.randint(1, 64)] * rng.randint(1, 40)
        else:
            b = b[:i]
    return bytes(b)


def mutated(state, rng: random.Random, seq: int) -> tuple[int, bytes]:
    """(topic's table, payload): a valid event mutated in its JSON, its bytes, or both;
    or junk; sometimes deeply nested, oversized or on another table's topic."""
    table = rng.randint(1, TABLES)
    msg = _valid(state, rng, table, seq)
    how = rng.random()
    if how < 0.45:
        payload = _spelled(_mutate_object(msg, rng))
    elif how < 0.75:
        payload = _mutate_bytes(_spelled(msg), rng)
    elif how < 0.85:
        payload = _mutate_bytes(_spelled(_mutate_object(msg, rng)), rng)
    elif how < 0.9:
        d = rng.randint(100, 1100)
        payload = b"[" * d + b"]" * d if rng.random() < 0.5 else b'{"v":1,"body":' + b"{\"a\":" * d + b"1" + b"}" * (d + 1)
    elif how < 0.95:
        payload = json.dumps(_random_json(rng)).encode()
    else:
        payload = bytes(rng.randrange(256) for _ in range(rng.randrange(3000)))
    topic_table = table if rng.random() < 0.9 else rng.choice([rng.randint(1, 999), rng.randint(1, TABLES)])
    return topic_table, payload


def _control(table: int, i: int) -> tuple[str, bytes]:
    event_id = f"ctl-{table}.1.{i}"
    return event_id, _spelled({"v": 1, "id": event_id, "table": table, "kind": "call", "body": {}})


# ----- the hub ----------------------------------------------------------------------------------

def fuzz_hub(work: Path, *, payloads: int = 100_000, via_broker: int = 3_000, seed: int = 19, say=print) -> Figures:
    work = fresh_dir(work)
    fig = Figures("fuzz-hub")
    broker = best_available().start()
    handle = InProcessHub(work / "journal.sqlite3", broker).start()
    rng = random.Random(seed)
    controls: list[str] = []
    try:
        with ErrorCounter() as errors:
            set_up_party(handle, tables=TABLES, seed=seed, sessions=1)
            hub = handle.hub
            started = time.monotonic()
            for i in range(payloads):
                table, payload = mutated(hub.state, rng, i)
                hub.receive(table, payload)  # as the MQTT callback hands them in
                if i % 1000 == 0:
                    event_id, control = _control(1 + i // 1000 % TABLES, i)
                    hub.receive(1 + i // 1000 % TABLES, control)
                    hub.receive(1 + i // 1000 % TABLES, control)  # and its resend
                    controls.append(event_id)
                if hub.backlog() > 2000:
                    while hub.backlog() > 200:
                        time.sleep(0.01)
            while hub.backlog():
                time.sleep(0.05)
            in_process_s = time.monotonic() - started
            say(f"fuzz-hub: {payloads} payloads through the hub's input path in {in_process_s:.1f} s")

            # A few thousand through a real broker, on the tables' event topics.
            started = time.monotonic()
            c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="fuzzer")
            c.connect(broker.host, broker.port)
            c.loop_start()
            acks: dict[str, dict] = {}
            c.on_message = lambda cl, u, m: acks.update({json.loads(m.payload)["id"]: json.loads(m.payload)})
            c.subscribe(protocol.table_topic("+", "ack"), 1)
            for i in range(via_broker):
                table, payload = mutated(hub.state, rng, payloads + i)
                c.publish(protocol.table_topic(table, "event"), payload, qos=rng.choice([0, 1]))
            event_id, control = _control(2, payloads + via_broker)
            c.publish(protocol.table_topic(2, "event"), control, qos=1).wait_for_publish(10)
            controls.append(event_id)
            deadline = time.monotonic() + 60
            while event_id not in acks and time.monotonic() < deadline:
                time.sleep(0.05)
            broker_s = time.monotonic() - started
            c.loop_stop()
            c.disconnect()
            if event_id not in acks:
                fig.failures.append("the hub did not acknowledge a valid event after the broker's fuzz")
            if not hub._writer.is_alive():
                fig.failures.append("the hub's writer thread died")
        fig.crashes += errors.count
        ids = {e.id: 0 for e in read_journal(handle.journal)}
        fig.lost = sum(1 for e in controls if e not in ids)
        journaled = [e for e in read_journal(handle.journal) if e.source.startswith("table:")]
        fig.failures += refusable_events(handle.journal)
        fig.entries = payloads + via_broker
        fig.seconds = in_process_s + broker_s
        fig.detail = {"in-process": payloads, "in-process s": round(in_process_s, 1),
                      "via broker": via_broker, "via broker s": round(broker_s, 1),
                      "journaled": len(journaled) - len(controls), "controls journaled": len(controls) - fig.lost}
    finally:
        handle.stop()
        broker.stop()
    return fig


# ----- the firmware -------------------------------------------------------------------------------

KEYS = [*"0123456789", *SEATS, "*", "#", "BELL", "BELL-LONG"]
WEIGHTS = [3] * 10 + [2] * 4 + [4, 8, 1, 1]


def fuzz_firmware(work: Path, *, sequences: int = 10_000, boards: int = 4, seed: int = 23, say=print) -> Figures:
    work = fresh_dir(work)
    fig = Figures("fuzz-firmware")
    broker = best_available().start()
    handle = InProcessHub(work / "journal.sqlite3", broker).start()
    fleet = start_boards(boards, lambda n: (broker.host, broker.port), work / "boards")
    pressed = {"sequences": 0, "keys": 0}
    lock = threading.Lock()
    started = time.monotonic()

    def press(n: int, count: int) -> None:
        try:
            press_keys(n, count)
        except Exception as exc:
            fig.failures.append(f"table {n}: {exc!r}")

    def press_keys(n: int, count: int) -> None:
        rng, board = random.Random(f"{seed}:{n}"), fleet[n]
        for i in range(count):
            tokens = rng.choices(KEYS, WEIGHTS, k=rng.randint(1, 8))
            board.press(" ".join(tokens))
            with lock:
                pressed["sequences"] += 1
                pressed["keys"] += len(tokens)
            if i % 25 == 24:
                board.heap(timeout=20)  # the board has handled every key so far, and lives

    try:
        with ErrorCounter() as errors:
            # No seat check: the random keys go straight at the results' entry form.
            set_up_party(handle, tables=boards, seed=seed, sessions=1, seat_check=False)
            for board in fleet.values():
                board.wait_for("# ENTER GAME 1", timeout=30)
            threads = [threading.Thread(target=press, args=(n, sequences // boards + (n <= sequences % boards)),
                                        daemon=True) for n in fleet]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for board in fleet.values():  # every entry sent is answered: acked, or refused with a reason
                try:
                    board.wait_for(lambda lines: "PEND" not in lines[-1], timeout=30)
                except TimeoutError as exc:
                    fig.failures.append(f"outbox not drained: {exc}")
        fig.seconds = time.monotonic() - started
        crashed = board_crashes(fleet.values())
        fig.crashes += errors.count + len(crashed)
        fig.failures += crashed
        fig.failures += refusable_events(handle.journal)
        journaled = [e for e in read_journal(handle.journal) if e.source.startswith("table:")]
        fig.entries = pressed["sequences"]
        fig.detail = {"boards": boards, "keys": pressed["keys"], "events journaled": len(journaled),
                      "by kind": ", ".join(f"{k} {v}" for k, v in sorted(_count(e.kind for e in journaled).items()))}
    finally:
        stop_boards(fleet)
        handle.stop()
        broker.stop()
    return fig


def _count(items) -> dict:
    out: dict = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out
