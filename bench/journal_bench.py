"""The journal's append alone: what the writer's commit costs, sealed (issue 24).

    python bench/journal_bench.py [--events 8000] [--batch 50]       # five runs, the median
    python bench/journal_bench.py --against REV [--runs 2]   # this tree and commit REV, side by side

The events of a Block party (bench/conductor_bench.py's driver: results, confirmations,
bells, staff actions, as the judge made them) appended by `hub.journal.Journal` to a fresh
file in batches, as the hub's writer commits them (WAL, synchronous=FULL: one fsync a
batch); each run on a new file. Printed: the median of the runs, wall-clock and CPU per
row. Since the seal each row is sealed as it is appended (hub/seal.py) and the head
written beside the journal after each commit.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench.against import Figure, add_options, compare  # noqa: E402
from bench.room import machine  # noqa: E402
from conductor_bench import Hub as Driver, party, play_block_session  # noqa: E402
from hub.conductor import events as k  # noqa: E402
from hub.journal import Journal  # noqa: E402

FIGURES = (
    Figure("append: wall per batch commit", r"^append: .* wall ([\d.]+) ms a batch", "ms", False),
    Figure("append: CPU per row", r"^append: .* CPU ([\d.]+) us a row", "us", False),
)


def events(count: int) -> list:
    driver, rng = Driver(), random.Random(2)
    party(driver, "block", 200, 10_000, confirm=True)
    while len(driver.journal) < count:
        play_block_session(driver, rng)
        driver.staff(k.RESEAT, {"seed": len(driver.journal)})
    for e in driver.journal:   # spelled and digested before the clock starts, as the writer has them
        e.body_json, e.digest
    return driver.journal[:count]


def appended(rows: list, batch: int, work: Path) -> tuple[float, float]:
    journal = Journal(work / "journal.sqlite3")
    t0, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(rows), batch):
        journal.append(rows[i:i + batch])
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu
    journal.close()
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=8000)
    ap.add_argument("--batch", type=int, default=50)
    add_options(ap)
    args = ap.parse_args()
    if args.against:
        return compare(__file__, args.against, args.runs, FIGURES)
    rows = events(args.events)
    print(f"{len(rows)} events of a Block party, batches of {args.batch}; {machine()}")
    runs = [appended(rows, args.batch, Path(tempfile.mkdtemp(prefix="journal-bench-"))) for _ in range(5)]
    wall = statistics.median(w for w, _ in runs)
    cpu = statistics.median(c for _, c in runs)
    batches = -(-len(rows) // args.batch)
    print(f"append: median of 5, wall {wall / batches * 1000:.2f} ms a batch ({wall:.2f} s), "
          f"CPU {cpu / len(rows) * 1e6:.1f} us a row")


if __name__ == "__main__":
    main()
