"""How far behind the hub the journal's replica is (docs/takeover.md, docs/performance.md).

    python bench/replica_bench.py [--actions 40] [--sync 1.0]

A hub with `--replica` (Litestream to a directory, as a mounted share or a USB
stick is) on the embedded broker or Mosquitto; staff actions are submitted one
every 0.5 s, and for each the time from its commit until the replica holds it is
measured by reading the replica back (the hub's own probe, every 0.1 s here).
Prints the lag's median, p95 and max, and what restoring the replica costs.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from party.broker import best_available  # noqa: E402
from hub.conductor import events as ev  # noqa: E402
from hub.replica import restore  # noqa: E402
from hub.service import Hub  # noqa: E402
from party.setup import create_party, staff_action  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--actions", type=int, default=40)
    p.add_argument("--sync", type=float, default=1.0, help="Litestream's sync interval (party run's default 1)")
    a = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="replica-bench-"))
    broker = best_available().start()
    hub = Hub(work / "journal.sqlite3", broker.host, broker.port, replica=str(work / "replica"),
              replica_sync_s=a.sync)
    hub.replica.probe_s = 0.1
    hub.start()
    try:
        assert create_party(hub, tables=4, form="draw").ok
        lags = []
        for i in range(a.actions):
            assert staff_action(hub, ev.GUEST_LISTED, {"guest": f"Guest {i}"}).ok
            seq, t0 = hub.seq, time.monotonic()
            while (hub.replica.position or 0) < seq:
                if time.monotonic() - t0 > 60:
                    raise SystemExit(f"the replica never reached seq {seq}")
                time.sleep(0.01)
            lags.append(time.monotonic() - t0)
            time.sleep(max(0.0, 0.5 - lags[-1]))
        t0 = time.monotonic()
        restored = restore(hub.replica.url, work / "restored.sqlite3")
        restore_s = time.monotonic() - t0
    finally:
        hub.stop()
        broker.stop()
    lags.sort()
    print(f"broker {broker!r}; Litestream sync-interval {a.sync} s, monitor-interval 100 ms; "
          f"the replica read back every 0.1 s")
    print(f"commit -> in the replica, {len(lags)} staff actions: median {statistics.median(lags):.2f} s, "
          f"p95 {lags[int(0.95 * (len(lags) - 1))]:.2f} s, max {lags[-1]:.2f} s")
    print(f"restoring the replica ({restored} events, as `party takeover` does): {restore_s:.2f} s")


if __name__ == "__main__":
    main()
