"""The hub's durable ingest against the bare Mosquitto relay of the same QoS 1 stream.

    python bench/hub_bench.py [--quick] [--tables 200] [--games 40] [--window 4] [--profile]
    python bench/hub_bench.py --writer-only [--profile]   # the writer alone, three times, nothing else
    python bench/hub_bench.py --against REV [--runs 3] [...]   # this tree and commit REV, side by side

One Mosquitto on 127.0.0.1; the same publishers (this process: `--tables`
tables on one asyncio loop, bench/room.py) send the same payloads — every
table's results for games 1..`--games` of a Draw party, values played out by the
scoring engine (`played_values`, as the simulator's tables key them), each
table keeping at most `--window` events unanswered:

1. relay: a plain paho subscriber in a child process (clean session, QoS 1,
   TCP_NODELAY: the hub's client as issue 13 found it) receives the stream; a
   publisher's window is the broker's PUBACK. Rate = messages delivered to the
   subscriber / time from the first publish to the last delivery. Then the same
   subscribed at QoS 0, as the hub now subscribes (`relay0`): no PUBACKs and no
   broker window of 20 unacknowledged messages, so a faster relay.
2. hub: the hub in a child process (bench/room.py) judges every result,
   journals it (SQLite WAL, synchronous=FULL, one transaction per batch),
   acknowledges it and publishes the table's changed retained screen; a
   publisher's window is the hub's ack. Rate = events acknowledged `ok` /
   time from the first publish to the last ack. Every event must be admitted.
3. writer alone: the same payloads handed straight to the hub's writer
   (`Hub.write_batch`, in this process, batches of 50, on a copy of the journal),
   no broker: judging, journaling (same fsync per batch), acks and screens
   built and queued in paho but not sent. What the hub's one thread costs
   before any network I/O: a ceiling for any hub built this way.
4. refused: the same publishers send every table's game 1 again under new ids;
   the conductor refuses each (ALREADY SAVED, nothing journaled). Rate of the
   refusals.

Printed: each rate, the ratio hub/relay (goal >= 0.3; its ceiling is 0.5), and the journal's
length as a check that the hub recorded each admitted event once.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.against import Figure, add_options, compare  # noqa: E402
from bench.room import HubProcess, Room, machine  # noqa: E402
from party.broker import Mosquitto  # noqa: E402
from hub.journal import appended_after  # noqa: E402
from hub.service import INPUT_QOS  # noqa: E402


FIGURES = (
    Figure("relay, best of three", r"^relay .*= *([\d,]+) msg/s", "msg/s", True),
    Figure("edge: paho ack + screen, nothing else", r"^edge .*= *([\d,]+) events/s", "events/s", True),
    Figure("edge's process CPU per event", r"^edge .*CPU (\d+) us/event", "us", False),
    Figure("writer alone", r"^writer .*= *([\d,]+) events/s", "events/s", True),
    Figure("writer alone, CPU per event", r"^writer .*CPU (\d+) us/event", "us", False),
    Figure("hub, admitted", r"^hub +\(judged.*= *([\d,]+) events/s", "events/s", True),
    Figure("hub CPU per admitted event", r"^hub +\(judged.*CPU (\d+) us/event", "us", False),
    Figure("hub CPU per refused event", r"^hub +refusing.*CPU (\d+) us/event", "us", False),
    Figure("hub / relay", r"^ratio hub / relay = ([\d.]+)", "ratio", True),
    Figure("relay at the hub's QoS 0, best of three", r"^relay0 .*= *([\d,]+) msg/s", "msg/s", True),
    Figure("hub / relay at the hub's QoS 0", r"^ratio hub / relay0 = ([\d.]+)", "ratio", True),
)


def _subscriber_child(port: int, expected: int, echo: bool, qos: int, conn) -> None:
    """The bare relay's receiving end: a paho client configured as the hub's, counting.

    With `echo` it is the hub's MQTT edge and nothing else (hub/edge.py: paho driven
    by one thread of its own, one `recv` and one `send` per batch): for each event it
    publishes the ack and a retained screen as the hub does, without judging or
    journaling — the ceiling of any hub built on paho in one Python process."""
    import json
    import socket
    import threading

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from hub import edge, protocol
    from hub.edge import REPLY_QOS   # as the hub publishes them
    got, times, done, subscribed = [0], [0.0, 0.0], threading.Event(), threading.Event()

    def heard(topic, payload):   # as the hub hears a message (hub/edge.py `Link`)
        if echo:
            n, _ = protocol.split_table_topic(topic)
            event_id = json.loads(payload)["id"]
            c.publish(protocol.ACK_TOPIC[n], json.dumps({"v": 1, "id": event_id, "ok": True, "seq": got[0],
                                                         "msg": "SAVED"}, separators=(",", ":")), qos=REPLY_QOS)
            c.publish(protocol.SCREEN_TOPIC[n], json.dumps({"v": 1, "seq": got[0], "table": n,
                                                            "state": "playing", "lines": ["TABLE"]}), qos=REPLY_QOS,
                      retain=True)
        now = time.monotonic()
        if not got[0]:
            times[0] = now
        got[0] += 1
        times[1] = now
        if got[0] >= expected:
            done.set()

    def on_connect(client, userdata, flags, reason_code, properties):
        client.subscribe([(protocol.table_topic("+", "event"), qos)])

    c = (edge.Client if echo else mqtt.Client)(CallbackAPIVersion.VERSION2, client_id="relay-subscriber",
                                                clean_session=True)
    c.max_inflight_messages_set(1000)
    c.max_queued_messages_set(0)
    c.on_connect = on_connect
    c.on_message = lambda client, userdata, message: heard(message.topic, message.payload)
    c.on_subscribe = lambda *a: subscribed.set()
    c.on_socket_open = lambda client, userdata, sock: sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if echo:   # the loop as the hub's writer runs it, on a thread of its own here
        link, stopped = edge.Link(c, heard), threading.Event()

        def run_link():
            while not stopped.is_set():
                link.poll(0.1)
        c.connect_async("127.0.0.1", port)
        loop = threading.Thread(target=run_link, daemon=True)
        loop.start()
    else:
        c.connect("127.0.0.1", port)
        c.loop_start()
    subscribed.wait(10)
    conn.send("ready")
    cpu = time.process_time()
    done.wait(conn.recv())
    conn.send((got[0], times[1], time.process_time() - cpu))
    if echo:
        stopped.set()
        loop.join(5)
    else:
        c.loop_stop()
        c.disconnect()


def results(setup_body: dict, seats: dict, tables: int, games: int, seed: int) -> dict[int, list[dict]]:
    """Each table's results for games 1..games, as the engine's players would key them."""
    from hub.conductor.leads import keys_lead
    from party.hands import played_values
    from hub.conductor.setup import from_body
    setup, rng = from_body(dict(setup_body, tables=tables)), random.Random(seed)
    return {n: [{"game": g, "values": played_values(setup, seats[n], rng, lead=keys_lead(setup.form, g))}
                for g in range(1, games + 1)] for n in range(1, tables + 1)}


async def relay(port: int, room: Room, payloads: dict, window: int, echo: bool = False,
                qos: int = 1) -> tuple[int, float, float]:
    """The plain subscriber's count, the time to its last delivery and its process's CPU
    seconds; with `echo`, the publishers' window is the echoed ack, as with the hub.
    `qos`: the subscription's."""
    import multiprocessing as mp
    total = sum(len(p) for p in payloads.values())
    ctx = mp.get_context("spawn")
    conn, child = ctx.Pipe()
    proc = ctx.Process(target=_subscriber_child, args=(port, total, echo, qos, child), daemon=True)
    proc.start()
    conn.recv()
    await room.connect("127.0.0.1", port, subscribe=echo)

    async def table(t):
        slots = asyncio.Semaphore(window)
        for event_id, payload in payloads[t.n]:
            await slots.acquire()
            done = t.send(event_id, payload) if echo else t.client.publish(t.topic("event"), payload, qos=1)
            done.add_done_callback(lambda f: slots.release())
        for _ in range(window):
            await slots.acquire()

    t0 = time.monotonic()
    conn.send(120.0)
    await asyncio.gather(*(table(t) for t in room.tables))
    got, last, cpu = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    proc.join(10)
    await room.close()
    return got, last - t0, cpu


async def through_hub(port: int, room: Room, payloads: dict, window: int) -> tuple[list[dict], float]:
    await room.connect("127.0.0.1", port)
    acks: list[dict] = []

    async def table(t):
        slots = asyncio.Semaphore(window)

        def answered(f):
            acks.append(f.result())
            slots.release()
        for event_id, payload in payloads[t.n]:
            await slots.acquire()
            t.send(event_id, payload).add_done_callback(answered)
        for _ in range(window):
            await slots.acquire()

    t0 = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(table(t) for t in room.tables)), 300)
    elapsed = time.monotonic() - t0
    await room.close()
    return acks, elapsed


def writer_alone(journal: Path, scratch: Path, payloads: dict, batch: int = 50) -> tuple[int, float, float, str]:
    """(events admitted, seconds, CPU seconds, where the CPU went) for the hub's writer fed
    directly, on a copy of `journal`. Where it went: the writer's thread in user and system
    time (`RUSAGE_THREAD`), the process's other threads (the checkpoints'), the switches the
    writer waited in (its commits' syncs) and the WAL's size at the end: what an instruction
    count does not see (docs/performance.md section 3, "Session 16")."""
    import logging
    import resource

    from hub.service import Hub, TableInput
    with sqlite3.connect(journal) as src, sqlite3.connect(scratch) as dst:
        src.backup(dst)
    logging.getLogger("hub").setLevel(logging.ERROR)
    hub = Hub(scratch, "127.0.0.1", 1)   # never connected: its publishes are only queued
    start = hub.seq
    # the order a room sends in: every table's first result, then every second...
    items = [TableInput(n, payload) for i in range(max(len(p) for p in payloads.values()))
             for n, p in sorted(payloads.items()) if i < len(p) for payload in (p[i][1],)]
    usage = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_THREAD)
    t0, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(items), batch):
        hub.write_batch(items[i:i + batch])
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu
    process, thread = [(after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, after.ru_nvcsw - before.ru_nvcsw)
                       for before, after in zip(usage, (resource.getrusage(resource.RUSAGE_SELF),
                                                        resource.getrusage(resource.RUSAGE_THREAD)))]
    wal = Path(f"{scratch}-wal").stat().st_size
    admitted = hub.seq - start
    hub.journal.close()
    per = 1e6 / max(admitted, 1)
    split = (f"writer thread user {thread[0] * per:.0f} + system {thread[1] * per:.0f} us, other threads "
             f"{(sum(process[:2]) - sum(thread[:2])) * per:.0f} us; {thread[2] / max(admitted, 1):.2f} waits a result, "
             f"WAL {wal / 2**20:.1f} MB")
    return admitted, elapsed, cpu, split


def _writer_only(journal: Path, work: Path, payloads: dict, profile: bool) -> None:
    """The writer alone three times in this process, each on a fresh copy of the journal:
    its CPU per result, the figure each cut of the writer was judged by (docs/performance.md)."""
    import cProfile
    import pstats
    for run in range(3):
        profiler = cProfile.Profile() if profile and run == 2 else None
        if profiler:
            profiler.enable()
        got, dt, cpu, split = writer_alone(journal, work / f"writer-{run}.sqlite3", payloads)
        if profiler:
            profiler.disable()
        print(f"writer (judge + journal + screens, no MQTT I/O): {got} in {dt:.2f} s = {got / dt:8,.0f} events/s"
              f"  (CPU {cpu / got * 1e6:.0f} us/event: {split}){'  [profiled]' if profiler else ''}")
        if profiler:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="50 tables x 20 games")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--games", type=int, default=40, help="results per table")
    ap.add_argument("--window", type=int, default=4, help="events a table keeps unanswered")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="cProfile the hub's writer; print its top functions")
    ap.add_argument("--writer-only", action="store_true",
                    help="only the writer alone, three times in this process (with --profile: the last profiled)")
    add_options(ap)
    args = ap.parse_args()
    if args.against:
        return compare(__file__, args.against, args.runs, FIGURES)
    if args.quick:
        args.tables, args.games = 50, 20

    work = Path(tempfile.mkdtemp(prefix="hub-bench-"))
    journal = work / "journal.sqlite3"
    setup_body = {"form": "draw", "games_per_session": args.games, "sessions": 1, "seat_check": False}
    broker = Mosquitto().start()
    try:
        # The party first (its seating decides the values), then the hub leaves the
        # broker to the relay run and comes back on the same journal.
        hub = HubProcess(journal, broker.port)
        hub.call("party", dict(tables=args.tables, **setup_body))
        seats = hub.call("seats")
        hub.stop()
        bodies = results(setup_body, seats, args.tables, args.games, args.seed)
        room = Room(args.tables, ack_bells=False)
        payloads = {t.n: [t.event("result", b) for b in bodies[t.n]] for t in room.tables}
        total = sum(len(p) for p in payloads.values())
        size = sum(len(p) for ps in payloads.values() for _, p in ps) / total
        print(f"{args.tables} tables x {args.games} results = {total} events, mean payload {size:.0f} bytes, "
              f"window {args.window} per table; Mosquitto; {machine()}")

        if args.writer_only:
            return _writer_only(journal, work, payloads, args.profile)

        # a relay run is short: the best of three, so the ratio errs against the hub
        relay_rates = {1: 0.0, INPUT_QOS: 0.0}
        for qos, name in ((1, "relay "), (INPUT_QOS, "relay0")) if INPUT_QOS != 1 else ((1, "relay "),):
            for _ in range(3):
                got, dt, _ = asyncio.run(relay(broker.port, Room(args.tables, ack_bells=False), payloads, args.window,
                                               qos=qos))
                relay_rates[qos] = max(relay_rates[qos], got / dt)
                print(f"{name} (Mosquitto -> plain paho subscriber, QoS {qos}): {got} delivered in {dt:.2f} s = "
                      f"{got / dt:8,.0f} msg/s")
                if got != total:
                    print(f"  ! the subscriber got {got} of {total}")
        relay_rate = relay_rates[1]
        got, dt, cpu = asyncio.run(relay(broker.port, Room(args.tables, ack_bells=False), payloads, args.window,
                                         echo=True, qos=INPUT_QOS))
        print(f"edge   (paho: ack + screen per event, no judge, no journal): {got} in {dt:.2f} s = {got / dt:8,.0f} events/s"
              f"  (its process CPU {cpu / got * 1e6:.0f} us/event)")

        got, dt, cpu, split = writer_alone(journal, work / "writer.sqlite3", payloads)
        print(f"writer (judge + journal + screens, no MQTT I/O): {got} in {dt:.2f} s = {got / dt:8,.0f} events/s"
              f"  (CPU {cpu / got * 1e6:.0f} us/event: {split})")

        hub = HubProcess(journal, broker.port, profile=args.profile)
        start_seq = hub.started_seq
        room = Room(args.tables, ack_bells=False)
        cpu = hub.call("cpu")
        acks, dt = asyncio.run(through_hub(broker.port, room, payloads, args.window))
        cpu = hub.call("cpu") - cpu
        admitted = sum(a["ok"] for a in acks)
        hub_rate = admitted / dt
        print(f"hub    (judged, journaled, acked):          {admitted} admitted in {dt:.2f} s = {hub_rate:8,.0f} events/s"
              f"  (hub process CPU {cpu / admitted * 1e6:.0f} us/event)")
        refusals = sorted({a.get("why") for a in acks if not a["ok"]})
        if admitted != total:
            print(f"  ! {total - admitted} refused: {refusals}")

        # new ids (boot 2 of each board) for games already saved
        room = Room(args.tables, ack_bells=False)
        refused_payloads = {t.n: [t.event("result", bodies[t.n][0], f"{t.board}.2.{i}") for i in range(args.games)]
                            for t in room.tables}
        cpu = hub.call("cpu")
        racks, rdt = asyncio.run(through_hub(broker.port, room, refused_payloads, args.window))
        cpu = hub.call("cpu") - cpu
        refused = sum(not a["ok"] for a in racks)
        print(f"hub    refusing (ALREADY SAVED):            {refused} refused  in {rdt:.2f} s = {refused / rdt:8,.0f} events/s"
              f"  (hub process CPU {cpu / len(racks) * 1e6:.0f} us/event)")
        if refused != len(racks):
            print(f"  ! {len(racks) - refused} of the refused run were admitted")
        if args.profile:
            print(hub.call("profile", 30))
        end_seq = hub.call("seq")
        hub.stop()
        rows = appended_after(journal, start_seq)
        print(f"journal: {rows[0]} events appended ({rows[1]} distinct ids), seq {start_seq} -> {end_seq}")
        print(f"ratio hub / relay = {hub_rate / relay_rate:.2f}  (goal >= 0.30, ceiling 0.50: every event crosses "
              f"the broker twice; {'met' if hub_rate >= 0.3 * relay_rate else 'NOT met'})")
        if INPUT_QOS != 1:
            print(f"ratio hub / relay0 = {hub_rate / relay_rates[INPUT_QOS]:.2f}  (against the relay subscribed at "
                  f"QoS {INPUT_QOS}, as the hub is)")
    finally:
        broker.stop()


if __name__ == "__main__":
    main()
