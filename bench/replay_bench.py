"""Journal replay end to end: a 100,000-event journal read from SQLite and folded,
and the hub's start-up on it.

    python bench/replay_bench.py [--quick] [--events 100000]
    python bench/replay_bench.py --against REV [--runs 3] [...]   # this tree and commit REV, side by side

The journal is the one bench/conductor_bench.py drives through the judge (a
Block party of 1,000 guests on 250 tables, every result confirmed, session after
session), written to a SQLite journal by `hub.journal.Journal` as the hub writes
it. That bench timed the fold alone over events in memory; here:
- read: `read_events` over the file (SQLite rows -> Event, body JSON parsed);
- fold: `conductor.replay` over the events read into a list first (the fold alone);
- read + fold: `conductor.replay(read_events(...))`, what `party replay` does;
- read + audit: `conductor.audit(read_events(...))`, every input admitted again
  (what a restarted hub and `party replay --audit` do);
- seal: the journal's hash chain checked from its first row (hub/seal.py), which a
  restarted hub and `party replay --audit` do besides;
- hub start-up: `Hub(journal)` (open, audit, last seq) and `start()` until it is
  connected to Mosquitto and has republished every table's retained screen, on a journal
  no hub had opened (a copy each time: every row admitted again);
- hub restart: `Hub(journal)` on a journal a hub's start-up audited already, by the same
  code, every row since (hub/startup.py: the rows folded, none admitted again);
- hub restart after its own rows: the restart a host meets, in a process of its own (its
  imports timed apart), on a journal whose second half a hub journaled itself — its start-up
  audited the first half, its writer's step (`Hub.write_batch`, batches of `BATCH_MAX`) took
  the inputs of the second, and its rows were marked as its orderly stop marks them
  (hub/startup.py, `OwnRows`) — and after a kill: the same, with its last mark a minute of
  an ordinary pace (6,000 inputs) before the end, those rows admitted again.
Each is run three times; the best is printed (the machine is shared).
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench.against import Figure, add_options, compare  # noqa: E402
from bench.room import machine  # noqa: E402
from conductor_bench import Hub as Driver, party, play_block_session  # noqa: E402
from hub import conductor, seal  # noqa: E402
from hub.conductor import events as k  # noqa: E402
from hub.journal import Journal, open_reader, read_events  # noqa: E402
from hub.startup import code  # noqa: E402


FIGURES = (
    Figure("read (SQLite -> Event)", r"^read \(SQLite.*: +([\d.]+) s", "s", False),
    Figure("fold (events in memory)", r"^fold \(events in memory\): +([\d.]+) s", "s", False),
    Figure("read + fold (replay)", r"^read \+ fold.*: +([\d.]+) s", "s", False),
    Figure("read + audit (admit each input)", r"^read \+ audit.*: +([\d.]+) s", "s", False),
    Figure("seal: the chain checked (every row)", r"^seal: the chain checked.*: +([\d.]+) s", "s", False),
    Figure("hub start-up: Hub()", r"^hub start-up: Hub\(\) \(open \+ (?:replay|audit)\) ([\d.]+) s", "s", False),
    Figure("... until connected, screens republished", r"^hub start-up: .* republished ([\d.]+) s", "s", False),
    Figure("hub restart: Hub() (audited once before)", r"^hub restart: Hub\(\) .*?: ([\d.]+) s", "s", False),
    Figure("restart after its own rows, stopped in order: Hub()",
           r"^hub restart after its own rows, stopped in order.*: Hub\(\) ([\d.]+) s", "s", False),
    Figure("restart after its own rows, killed: Hub()",
           r"^hub restart after its own rows, killed.*: Hub\(\) ([\d.]+) s", "s", False),
)
KILLED_INPUTS = 6_000   # a minute of an ordinary pace (bench/rush_bench.py's steady phase: ~100 a second)


def build(path: Path, players: int, events: int) -> int:
    driver, rng = Driver(), random.Random(2)
    party(driver, "block", players, 10_000, confirm=True)
    while len(driver.journal) < events:
        play_block_session(driver, rng)
        driver.staff(k.RESEAT, {"seed": len(driver.journal)})
    journal = Journal(path)
    for i in range(0, len(driver.journal), 1000):
        journal.append(driver.journal[i:i + 1000])
    journal.close()
    return len(driver.journal)


def best(f, runs: int = 3):
    """(what `f` returns, the best of `runs` wall times); `best.cpu`: that run's CPU figures
    (`cpu_shown`), for the seconds an instruction count does not see: the kernel's, the faults."""
    times, out = [], None
    for _ in range(runs):
        before, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        out = f()
        times.append((time.perf_counter() - t0, before, resource.getrusage(resource.RUSAGE_SELF)))
    wall, before, after = min(times, key=lambda t: t[0])
    best.cpu = (after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime,
                after.ru_minflt - before.ru_minflt)
    return out, wall


def cpu_shown() -> str:
    user, kernel, faults = best.cpu
    return f"  (user {user:.2f} s, sys {kernel:.2f} s, {faults:,} page faults)"


def start_up(path: Path, tables: int) -> tuple[float, float, float, float]:
    """(seconds to construct the hub, seconds until connected with every screen republished,
    the CPU seconds the construction took in the hub's process and in its children: the
    audit's first rows and the seal's check, hub/audit_apart.py and hub/seal.py)."""
    from party.broker import Mosquitto
    from hub.service import Hub
    broker = Mosquitto().start()   # a child too, but reaped (and counted) only when stopped
    try:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu, t0 = time.process_time(), time.perf_counter()
        hub = Hub(path, broker.host, broker.port, client_id=f"bench-{time.monotonic_ns()}")
        built = time.perf_counter() - t0
        cpu = time.process_time() - cpu
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        hub.start()
        while len(hub.publisher.screens_sent) < tables:
            time.sleep(0.001)
        ready = time.perf_counter() - t0
        hub.stop()
        return built, ready, cpu, after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    finally:
        broker.stop()


def fresh_copy(path: Path) -> Path:
    """The journal as the bench wrote it, in a file of its own: no hub has audited it."""
    copy = path.with_name(f"copy-{time.monotonic_ns()}.sqlite3")
    shutil.copyfile(path, copy)
    shutil.copyfile(seal.head_path(path), seal.head_path(copy))   # the writer's head record beside it
    return copy


def own_rows(path: Path, killed: bool) -> tuple[Path, int, list[int]]:
    """(a journal, its last seq, the seqs marked: the start-up's audit's, then the hub's own
    rows'): `path`'s first half audited by a hub's start-up, the inputs of its second half
    judged and journaled by that hub, its own rows marked as its orderly stop marks them;
    `killed`: its last mark `KILLED_INPUTS` before the end, as a hub's quiet second left it,
    and no mark at the end."""
    import logging

    from hub.batch import LocalInput
    from hub.event import Proposal
    from hub.service import BATCH_MAX, Hub
    from hub.startup import OwnRows
    db = open_reader(path)
    with conductor.collector_paused():
        rows = list(read_events(db))
    db.close()
    half = next(e.seq for e in rows[len(rows) // 2:] if e.source != "hub")   # an input: none of its decisions cut off
    out = path.with_name(f"own-{'killed' if killed else 'stopped'}-{time.monotonic_ns()}.sqlite3")
    journal = Journal(out)
    for i in range(0, half - 1, 1000):
        journal.append(rows[i:min(i + 1000, half - 1)])
    journal.close()
    logging.getLogger("hub").setLevel(logging.ERROR)
    hub = Hub(out, "127.0.0.1", 1)   # its start-up's audit; never connected: its publishes only queued
    own, started = OwnRows(hub.journal, hub.seq), hub.seq
    inputs = [LocalInput(Proposal(e.id, e.source, e.kind, {k: v for k, v in e.body.items() if k != "outcome"}))
              for e in rows[half - 1:] if e.source != "hub"]
    del rows
    end = max(0, len(inputs) - (KILLED_INPUTS if killed else 0))
    for i in range(0, end, BATCH_MAX):
        hub.write_batch(inputs[i:min(i + BATCH_MAX, end)])
    own.mark(marked := hub.seq)
    for i in range(end, len(inputs), BATCH_MAX):   # after its last mark: killed before the next
        hub.write_batch(inputs[i:i + BATCH_MAX])
    last = hub.seq
    assert hub.journal.audited_to(code()) == marked   # as its orderly stop, or a quiet second, left it
    hub.journal.close()
    return out, last, [started, marked]


# A restart as a host makes one: (the imports' seconds, Hub()'s, its CPU seconds in the
# hub's process and in its children: the chain's check, hub/seal.py, and an audit's first rows)
RESTART = """
import resource, sys, time
t0 = time.perf_counter()
from hub.service import Hub
t1, cpu, kids = time.perf_counter(), time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
hub = Hub(sys.argv[1], "127.0.0.1", 1)
built, after = time.perf_counter() - t1, resource.getrusage(resource.RUSAGE_CHILDREN)
print(t1 - t0, built, time.process_time() - cpu, after.ru_utime + after.ru_stime - kids.ru_utime - kids.ru_stime)
hub.journal.close()
"""


def restart_alone(path: Path) -> tuple[float, ...]:
    """RESTART's figures for a hub started in a process of its own on a copy of `path`."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    copy = fresh_copy(path)
    try:
        done = subprocess.run([sys.executable, "-c", RESTART, str(copy)], env=env, cwd=ROOT, check=True,
                              capture_output=True, text=True)
    finally:
        removed(copy)
    return tuple(map(float, done.stdout.split()))


def removed(journal: Path) -> None:
    """A journal of the bench's own and the files beside it, gone (a 100,000-row one is 33 MB)."""
    for suffix in ("", "-head", "-wal", "-shm", ".runs.json"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)


def full_collection(state) -> tuple[float, float]:
    """Seconds one full (generation 2) collection takes while `state` is alive, before and
    after `gc.freeze()`: the pause the hub would take at a random moment of a rush."""
    def timed() -> float:
        t0 = time.perf_counter()
        gc.collect()
        return time.perf_counter() - t0
    gc.collect()
    full = min(timed() for _ in range(3))
    gc.freeze()
    try:
        frozen = min(timed() for _ in range(3))
    finally:
        gc.unfreeze()
    return full, frozen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="20,000 events")
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=1000)
    add_options(ap)
    args = ap.parse_args()
    if args.against:
        return compare(__file__, args.against, args.runs, FIGURES)
    if args.quick:
        args.events = 20_000

    path = Path(tempfile.mkdtemp(prefix="replay-bench-")) / "journal.sqlite3"
    t0 = time.perf_counter()
    n = build(path, args.players, args.events)
    print(f"journal: {n} events, {path.stat().st_size / 1e6:.1f} MB (built in {time.perf_counter() - t0:.0f} s); "
          f"{machine()}")

    def read():
        db = open_reader(path)
        try:
            return sum(1 for _ in read_events(db))
        finally:
            db.close()

    def read_fold():
        db = open_reader(path)
        try:
            return conductor.replay(read_events(db))
        finally:
            db.close()

    count, dt = best(read)
    assert count == n
    print(f"read (SQLite -> Event):      {dt:6.2f} s  {n / dt:9,.0f} events/s  {dt / n * 1e6:5.1f} us/event"
          f"{cpu_shown()}")
    with conductor.collector_paused():
        db = open_reader(path)
        events = list(read_events(db))
        db.close()
    state, dt = best(lambda: conductor.replay(events))
    del events
    print(f"fold (events in memory):     {dt:6.2f} s  {n / dt:9,.0f} events/s  {dt / n * 1e6:5.1f} us/event"
          f"{cpu_shown()}")
    state, dt = best(read_fold)
    assert state.seq == n and not state.anomalies
    print(f"read + fold (replay):        {dt:6.2f} s  {n / dt:9,.0f} events/s  {dt / n * 1e6:5.1f} us/event"
          f"{cpu_shown()}")
    def read_audit():
        db = open_reader(path)
        try:
            return conductor.audit(read_events(db))
        finally:
            db.close()

    (audited, findings), dt = best(read_audit)
    assert audited.seq == n and not findings
    print(f"read + audit (start-up):     {dt:6.2f} s  {n / dt:9,.0f} events/s  {dt / n * 1e6:5.1f} us/event")
    def seal_check():
        db = open_reader(path)
        try:
            return seal.check(db, seal.read_head(path))
        finally:
            db.close()

    chain, dt = best(seal_check)
    assert chain.seq == n and not chain.broken
    print(f"seal: the chain checked:     {dt:6.2f} s  {n / dt:9,.0f} events/s  {dt / n * 1e6:5.1f} us/event "
          f"(party replay --audit's and the hub's start-up's, besides the audit)")
    full, frozen = full_collection(state)
    print(f"a full garbage collection with the replayed party in memory: {full * 1000:5.1f} ms; "
          f"after gc.freeze(), as Hub() does: {frozen * 1000:5.1f} ms")
    runs = [start_up(fresh_copy(path), state.setup.tables) for _ in range(3)]
    built, ready, cpu, children = min(runs, key=lambda r: r[1])
    print(f"hub start-up: Hub() (open + audit) {built:.2f} s; connected, {state.setup.tables} screens "
          f"republished {ready:.2f} s; CPU in Hub(): the hub's {cpu:.2f} s, its children's {children:.2f} s")
    audited = fresh_copy(path)
    start_up(audited, state.setup.tables)   # the audit done, and recorded
    again = min(start_up(audited, state.setup.tables)[0] for _ in range(3))
    print(f"hub restart: Hub() (open + chain, rows audited before folded): {again:.2f} s")
    for killed in (False, True):
        journal, last, (_, marked) = own_rows(path, killed)
        imports, built, cpu, children = min((restart_alone(journal) for _ in range(3)), key=lambda r: r[1])
        how = f"killed, {last - marked:,} rows since its last mark" if killed else "stopped in order"
        print(f"hub restart after its own rows, {how} ({last:,} rows, a process of its own): Hub() {built:.2f} s "
              f"(CPU: the hub's {cpu:.2f} s, its children's {children:.2f} s), its imports {imports:.2f} s before it")
        removed(journal)


if __name__ == "__main__":
    main()
