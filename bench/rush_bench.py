"""Entry-to-screen latency with a full room entering at once after the bell.

    python bench/rush_bench.py [--quick] [--tables 200] [--screens 20] [--gap 2.0]
    python bench/rush_bench.py --against REV [--runs 3] [...]   # this tree and commit REV, side by side

bench/screens_bench.py measured 50 tables with paho threads; this is its room
of 200: the same measure (its `report`), with the tables on one asyncio loop
(bench/room.py) so that 200 of them load the hub rather than this process's GIL,
and the SSE screens in a process of their own (bench/screens_apart.py), as a
projector is a browser of its own: as threads here (`--screens-here`, before
session 14) they read each 100 KB frame in 8 KB pieces, each waiting for the
tables' loop to let go of the interpreter. This process's collector is off
during the measured phases (on with `--screens-here`). With `--against`, this tree runs
with `--screens-here`: the older commit's own bench measures that way. The hub and its web app run in one child process
as `party run` runs them; one Mosquitto on 127.0.0.1.

A Draw party (four games a session) of `--tables` tables: each table keys games
1-3, one every `--gap` seconds on average (uniformly random gaps: the steady
phase); then the conductor rings the bell ("finish the game in hand") and every
table acknowledges it; then all tables key game 4 at the same moment (the
rush). Latency of one entry at one screen = from the table's publish to the
arrival at that screen of the first frame (`standings`, the whole view, or a
`change` since the one before, session 15) whose id (the journal seq) is at least
the seq the hub acknowledged for the entry. Printed: p50, p99
and max over every (entry, screen) pair, per phase. Goal: rush p99 < 100 ms at
200 tables; issue 25's: steady p99 < 50 ms and max < 150 ms, rush p99 < 50 ms.
After each phase, its worst entries with where their time went, from the hub's
own record (hub/tail.py, bench/tail_report.py), and the hub's threads' CPU. Last,
the frames of each kind a screen was sent and their bytes, and whether every screen's
view drawn from them (as the page draws it) is the hub's.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from urllib.request import urlopen

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.against import Figure, add_options, compare  # noqa: E402
from bench.hub_bench import results  # noqa: E402
from bench.room import HubProcess, Room, machine, percentile, spread  # noqa: E402
from bench.screens_apart import KINDS, Screens, digest  # noqa: E402
from bench.screens_bench import Screen, report  # noqa: E402
from bench.tail_report import report as explain  # noqa: E402
from hub.tail import Tail  # noqa: E402
from party.broker import Mosquitto  # noqa: E402

PARTY = {"form": "draw", "sessions": 1, "seat_check": False}
FIGURES = (
    Figure("steady: entry -> screens, p99", r"^ *steady:.* p99 +([\d.]+) ms", "ms", False),
    Figure("steady: entry -> screens, max", r"^ *steady:.* max +([\d.]+) ms", "ms", False),
    Figure("steady: publish -> ack, p99", r"^ *steady:.*\n.*publish -> ack at the table: .* p99 +([\d.]+) ms",
           "ms", False),
    Figure("rush: entry -> screens, p99", r"^goal: rush p99 .*: ([\d.]+) ms", "ms", False),
    Figure("hub CPU for the rush", r"^ .*CPU for the rush.*: (\d+) ms", "ms", False),
)


async def play(room: Room, hub: HubProcess, bodies: dict, gap: float, seed: int):
    rng = random.Random(seed)
    steady, rush, acked = [], [], {}

    async def key(t, game: int, log: list) -> None:
        sent = time.monotonic()
        ack = await asyncio.wait_for(t.send(*t.event("result", bodies[t.n][game - 1])), 60)
        if not ack["ok"]:
            raise SystemExit(f"table {t.n} game {game} refused: {ack['why']}")
        log.append((sent, ack["seq"]))
        acked[ack["seq"]] = time.monotonic() - sent

    async def table(t) -> None:
        for game in (1, 2, 3):
            await asyncio.sleep(rng.uniform(0, 2 * gap))
            await key(t, game, steady)

    await asyncio.gather(*(table(t) for t in room.tables))
    loop = asyncio.get_running_loop()
    threads = (await loop.run_in_executor(None, hub.call, "tail"))["threads"]   # the steady phase's
    bell = await loop.run_in_executor(None, lambda: hub.call("bell", {"meaning": "finish", "timeout": 30.0}))
    if "error" in bell or len(bell["acked"]) < bell["tables"]:
        raise SystemExit(f"the bell was not acknowledged by every table: {bell}")
    await asyncio.sleep(0.5)
    watcher = (await loop.run_in_executor(None, hub.call, "watch")).get("hub-tail", 0.0)   # threads' CPU
    cpu = await loop.run_in_executor(None, hub.call, "cpu")
    await asyncio.gather(*(key(t, 4, rush) for t in room.tables))
    await asyncio.sleep(1.0)   # the last standings reach every screen
    cpu = await loop.run_in_executor(None, hub.call, "cpu") - cpu
    watcher = (await loop.run_in_executor(None, hub.call, "watch")).get("hub-tail", 0.0) - watcher
    return steady, rush, acked, (cpu, watcher), threads


def shown(screens, first: int) -> str:
    """The frames each screen was sent from the rush's first seq on (a view the hub made once
    is sent to every screen that was not still sending the one before)."""
    sent = [len({seq for _, seq in s.arrivals if seq >= first}) for s in screens]
    return f"frames a screen {min(sent)}-{max(sent)}"


def frames(screens, web_port: int) -> str:
    """The frames of each kind a screen was sent, their bytes, and the views drawn from them
    against the hub's own (/standings.json)."""
    drawn = [s.drawn() for s in screens]
    hub = json.load(urlopen(f"http://127.0.0.1:{web_port}/standings.json", timeout=30))
    said = []
    for kind, name in zip(KINDS, ("whole", "change")):
        counts = [d.frames[kind] for d in drawn]
        each = sum(d.sent[kind] for d in drawn) / max(1, sum(counts)) / 1000
        said.append(f"{name} {min(counts)}-{max(counts)} of {each:.1f} KB on average")
    off = sum(d.off_base for d in drawn)
    wrong = sum(d.seq != hub["seq"] or d.digest != digest(hub["standings"]) for d in drawn)
    return (f"frames a screen was sent: {', '.join(said)}; changes not on the view held: {off}"
            f"{' (ERROR)' if off else ''}; screens whose last view is not the hub's (seq {hub['seq']}): "
            f"{wrong}{' (ERROR)' if wrong else ''}")


def timeline(rush: list, tail: dict, first: int, last: int) -> str:
    """When the rush's batches and views were made, in ms from its first publish."""
    zero = min(sent for sent, _ in rush)
    ms = lambda t: f"{(t - zero) * 1000:.0f}"  # noqa: E731
    batches = [f"{ms(b.taken)}-{ms(b.committed)}-{ms(b.shown)} ({b.last - b.first + 1})" for b in tail["batches"]
               if b.first <= b.last and first <= b.last and b.first <= last]
    views = [f"{ms(a)}-{ms(z)} (seq {seq - first + 1})" for seq, a, z in tail["views"] if first <= seq <= last]
    return (f"ms from the first publish: batches taken-committed-shown (events) {', '.join(batches)}; "
            f"views started-made (the rush's events in) {', '.join(views)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="50 tables, 5 screens, gap 0.5 s")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--screens", type=int, default=20)
    ap.add_argument("--gap", type=float, default=2.0, help="mean seconds between a table's entries")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--screens-here", action="store_true",
                    help="the screens as threads of this process (http.client) and its collector left on, "
                         "as before session 14 (what --against runs this tree with)")
    add_options(ap)
    args = ap.parse_args()
    if args.against:
        # an older commit's own bench reads with threads, its collector on: so does this tree's there
        return compare(__file__, args.against, args.runs, FIGURES, here=("--screens-here",))
    if args.quick:
        args.tables, args.screens, args.gap = 50, 5, 0.5

    work = Path(tempfile.mkdtemp(prefix="rush-bench-"))
    broker = Mosquitto().start()
    hub = HubProcess(work / "journal.sqlite3", broker.port, web=True)
    try:
        hub.call("party", dict(tables=args.tables, **PARTY))
        bodies = results(PARTY, hub.call("seats"), args.tables, 4, args.seed)
        if args.screens_here:
            screens = [Screen(hub.web_port) for _ in range(args.screens)]
            for s in screens:
                s.start()
                s.connected.wait(10)
        else:
            apart = Screens(hub.web_port, args.screens)
        room = Room(args.tables)
        here = Tail()

        async def run():
            await room.connect(broker.host, broker.port)
            await room.until(lambda: all(t.screen for t in room.tables))
            cpu_before = hub.call("watch")
            here.start()   # and this process's own pauses: a late table or screen is not the hub's
            here.watch()
            if not args.screens_here:   # this process's collector kept out of the measured phases
                gc.collect()
                gc.disable()
            steady, rush, acked, cpu, threads = await play(room, hub, bodies, args.gap, args.seed)
            gc.enable()
            await room.close()
            return steady, rush, acked, cpu, {k: v - cpu_before.get(k, 0.0) for k, v in threads.items()}

        steady, rush, acked, cpu, threads = asyncio.run(run())
        if not args.screens_here:
            screens, reading = apart.stop()
        print(f"{args.tables} tables (asyncio), {args.screens} SSE screens "
              f"({'threads' if args.screens_here else 'a process of their own'}), Mosquitto, "
              f"hub+web in one child process; {machine()}")
        report("steady", steady, screens)
        print(f"         of which publish -> ack at the table: {spread([acked[q] * 1000 for _, q in steady])}")
        if not args.screens_here:   # after the line above: bench/against.py reads it as the next line
            print(f"         the screens' process read {sum(len(s.arrivals) for s in screens)} frames "
                  f"with {reading * 1000:.0f} ms of CPU")
        tail = hub.call("tail")
        explain(steady, acked, screens, tail, here)
        print("         the hub's threads' CPU in the steady phase: "
              + ", ".join(f"{name} {s * 1000:.0f} ms" for name, s in sorted(threads.items(), key=lambda x: -x[1])))
        first, last = min(q for _, q in steady), max(q for _, q in steady)
        views = sum(first <= seq <= last for seq, _, _ in tail["views"]) or 1
        print(f"         of which a view made in the phase (n={views}): "   # the streams: "screens", "web requests"
              + ", ".join(f"{name} {threads[name] / views * 1000:.1f} ms"
                          for name in ("projection", "screens", "web requests") if name in threads))
        report("rush", rush, screens)
        print(f"         of which publish -> ack at the table: {spread([acked[q] * 1000 for _, q in rush])}")
        explain(rush, acked, screens, tail, here, worst=3)
        first, last = min(q for _, q in rush), max(q for _, q in rush)
        sizes = [b.last - b.first + 1 for b in tail["batches"] if b.first <= b.last and first <= b.last and b.first <= last]
        views = sum(first <= seq <= last for seq, _, _ in tail["views"])
        print(f"         the rush's batches (n={len(sizes)}), events each: {' '.join(map(str, sizes))}; "
              f"views made: {views}, {shown(screens, first)}")   # bench/rush_instructions.py's batches
        print("         " + timeline(rush, tail, first, last))
        print("         " + frames(screens, hub.web_port))
        # The bench's own instrument left out: hub/tail.py's watcher thread (`watch`, started by this
        # bench, never by a party's hub) wakes every 5 ms; a commit before it had none to count.
        cpu, watcher = cpu
        print(f"         the hub process's CPU for the rush (ingest, screens, standings, SSE; without the "
              f"bench's watcher thread, hub/tail.py `watch`, which took {watcher * 1000:.0f} ms): "
              f"{(cpu - watcher) * 1000:.0f} ms")
        lat = [(s.first_at_or_after(seq) - sent) * 1000 for sent, seq in rush for s in screens]
        p99 = percentile(lat, 99)
        print(f"goal: rush p99 < 100 ms at {args.tables} tables: {p99:.1f} ms, {'met' if p99 < 100 else 'NOT met'}")
    finally:
        hub.stop()
        broker.stop()


if __name__ == "__main__":
    main()
