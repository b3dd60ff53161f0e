"""The bell's fan-out: from the conductor's bell until every table's bell-ack is journaled.

    python bench/bell_bench.py [--quick] [--tables 200] [--rounds 5] [--boards 20]
    python bench/bell_bench.py --against REV [--runs 3] [...]   # this tree and commit REV, side by side

One Mosquitto on 127.0.0.1, the hub in a child process (bench/room.py), a Draw
party of `--tables` tables in session. The tables are protocol-speaking clients
on one asyncio loop (bench/room.py): each acknowledges a bell once, from the
broadcast `party/all/cmd` or its retained screen, whichever comes first, as the
firmware does. Each round the hub process itself rings the conductor's bell
(`conductor.bell`, a staff action) and notes when each table's bell-ack is in
its state — the writer sets the state after the journal's COMMIT, so that is the
time the ack is durable. Between rounds the bell is undone (`bell-undone`), so
the next round rings a new bell id. Printed per round and over all rounds:
p50/p99 per table from the ring to its bell-ack journaled, and the time until
all tables' are; also when the tables received the bell.

`--boards N` then repeats the rounds with N VirtualBoards — the real firmware on
the MicroPython unix port, one process each — on a party of N tables.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.against import Figure, add_options, compare  # noqa: E402
from bench.room import HubProcess, Room, machine, percentile, spread  # noqa: E402
from party.broker import Mosquitto  # noqa: E402
from hub.conductor import events as k  # noqa: E402

PARTY = {"form": "draw", "sessions": 1, "seat_check": False}
FIGURES = (
    Figure("bell -> received at the table, p99", r"^ *bell -> received at the table: .* p99 +([\d.]+) ms", "ms", False),
    Figure("bell -> table's bell-ack journaled, p99", r"^goal: p99 .*: ([\d.]+) ms", "ms", False),
    Figure("VirtualBoards: bell -> bell-ack journaled, p99", r"^ *bell -> board's bell-ack .* p99 +([\d.]+) ms", "ms",
           False),
)


def ring_rounds(hub: HubProcess, rounds: int, received=None, silent=None, between=None
                ) -> tuple[list[float], list[float], list[float]]:
    """Ring, wait for every ack, undo; per-table latencies (ms), time-to-all per round, and
    (with `received(bell id) -> {table: time}`) the bell's arrival at each table.
    `silent(tables)` is told the tables that did not acknowledge a round's bell within 1 s;
    `between()` runs after each round."""
    per_table, to_all, arrivals = [], [], []
    for r in range(rounds):
        out = hub.call("bell", {"meaning": "finish", "timeout": 30.0})
        if "error" in out:
            raise SystemExit(f"the bell was refused: {out['error']}")
        lat = [(t - out["t0"]) * 1000 for t in out["acked"].values()]
        missing = out["tables"] - len(lat)
        per_table += lat
        if received:
            arrivals += [(t - out["t0"]) * 1000 for t in received(out["bell"]).values()]
        all_ms = max(lat) if not missing else float("inf")
        to_all.append(all_ms)
        print(f"  round {r + 1}: bell committed in {(out['committed'] - out['t0']) * 1000:5.1f} ms; "
              f"acks journaled {spread(lat)}; all {out['tables']}: "
              + (f"{all_ms:.1f} ms" if not missing else f"{missing} never acked in 30 s"))
        slow = [n for n, t in out["acked"].items() if t - out["t0"] > 1.0]
        if (missing or slow) and silent:
            silent(sorted(set(range(1, out["tables"] + 1)) - set(out["acked"])) + sorted(slow))
        ok, why = hub.call("staff", (k.BELL_UNDONE, {"bell": out["bell"], "why": "bench: next round"}))
        if not ok:
            raise SystemExit(f"undoing the bell was refused: {why}")
        if between:
            between()
        time.sleep(0.3)
    return per_table, to_all, arrivals


def protocol_tables(broker: Mosquitto, tables: int, rounds: int, work: Path, profile: bool = False) -> list[float]:
    hub = HubProcess(work / "tables.sqlite3", broker.port, profile=profile)
    hub.call("party", dict(tables=tables, **PARTY))
    room = Room(tables)
    seen: dict[str, dict[int, float]] = {}

    def note(t, bell_id):
        seen.setdefault(bell_id, {}).setdefault(t.n, time.monotonic())

    for t in room.tables:  # when the bell reached each table (broadcast or screen)
        handle = t._on_message

        def on_message(topic, payload, t=t, handle=handle):
            if b'"bell":{' in payload:
                note(t, payload.split(b'"bell":{"id":"')[1].split(b'"')[0].decode())
            handle(topic, payload)
        t.client.on_message = on_message

    async def run():
        await room.connect(broker.host, broker.port)
        await room.until(lambda: all(t.screen for t in room.tables))
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, lambda: ring_rounds(hub, rounds, lambda b: seen.get(b, {})))
        await room.close()
        return result

    try:
        print(f"{tables} protocol-speaking tables (asyncio, one process):")
        per_table, to_all, arrivals = asyncio.run(run())
        if profile:
            print(hub.call("profile", 30))
    finally:
        hub.stop()
    print(f"  bell -> received at the table:       {spread(arrivals)}")
    print(f"  bell -> table's bell-ack journaled:  {spread(per_table)}")
    print(f"  bell -> all {tables} acks journaled:    worst round {max(to_all):.1f} ms, "
          f"median round {sorted(to_all)[len(to_all) // 2]:.1f} ms")
    return per_table


def virtual_boards(broker: Mosquitto, boards: int, rounds: int, work: Path) -> list[float]:
    from hardware.sim.board import VirtualBoard
    from hardware.sim.party import dismiss
    hub = HubProcess(work / "boards.sqlite3", broker.port)
    hub.call("party", dict(tables=boards, **PARTY))
    started = [VirtualBoard(n, broker.host, broker.port, work / f"board-{n}").start() for n in range(1, boards + 1)]
    try:
        for b in started:
            b.wait_for(lambda lines: lines and "HUB?" not in lines[-1] and ("ENTER GAME" in " ".join(lines) or "# SEAT CHECK" in lines),
                       timeout=60)
        print(f"{boards} VirtualBoards (the firmware on the MicroPython unix port, one process each):")
        def silent(tables):
            for n in tables:
                b = started[n - 1]
                print(f"    table {n}: display {b.lines}; firmware log {b.log[-8:]}")
        def seen():   # the players saw the bell: "# OK"
            for b in started:
                dismiss(b)
        per_table, to_all, _ = ring_rounds(hub, rounds, silent=silent, between=seen)
    finally:
        for b in started:
            b.stop()
        hub.stop()
    print(f"  bell -> board's bell-ack journaled:  {spread(per_table)}")
    print(f"  bell -> all {boards} acks journaled:     worst round {max(to_all):.1f} ms")
    return per_table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 rounds, 5 VirtualBoards")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--profile", action="store_true", help="cProfile the hub's writer; print its top functions")
    ap.add_argument("--boards", type=int, default=20, help="VirtualBoards for the firmware's run (0: none)")
    add_options(ap)
    args = ap.parse_args()
    if args.against:
        return compare(__file__, args.against, args.runs, FIGURES)
    if args.quick:
        args.rounds, args.boards = 2, 5
    work = Path(tempfile.mkdtemp(prefix="bell-bench-"))
    broker = Mosquitto().start()
    print(f"Mosquitto on 127.0.0.1; hub in a child process; {machine()}")
    try:
        lat = protocol_tables(broker, args.tables, args.rounds, work, args.profile)
        p99 = percentile(lat, 99)
        print(f"goal: p99 < 200 ms at {args.tables} tables: {p99:.1f} ms, {'met' if p99 < 200 else 'NOT met'}")
        if args.boards:
            virtual_boards(broker, args.boards, args.rounds, work)
    finally:
        broker.stop()


if __name__ == "__main__":
    main()
