"""`party drill [--quick]`: the fault drills of docs/reliability.md, one after another,
all traffic on 127.0.0.1, each bounded in time; prints per-drill figures and the
totals: drills run, entries lost, entries doubled, crashes.

- faults.py: the hub SIGKILLed, the broker restarted, a table cut off, boards' power cut
- attack.py: spoofing another table, unauthenticated clients, the console without login
- fuzz.py:   malformed payloads into the hub, random keys into the firmware
- what they are made of, a module per kit: hubs.py (a hub in this process or a child
  to kill, the journal read beside it), links.py (a link to cut, the provisioned
  broker), lockstep.py (a party played in rounds through the boards' keys),
  boards.py (the virtual boards, their crashes), books.py (keyed, journaled, lost,
  doubled), figures.py (what a drill reports)
"""
from __future__ import annotations

import logging
import platform
import os
import tempfile
import time
from pathlib import Path

# (name, full-length arguments, --quick arguments)
PLAN = (
    ("hub-kill", "faults.hub_kill", {"tables": 20, "kills": 20}, {"tables": 4, "kills": 5, "sessions": 1}),
    ("machine-lost", "faults.machine_lost", {"tables": 20}, {"tables": 4, "sessions": 1}),
    ("broker-restart", "faults.broker_restarts", {"tables": 20, "restarts": 5}, {"tables": 4, "restarts": 5}),
    ("cut-table", "faults.cut_table", {"tables": 20, "minutes": 5.0}, {"tables": 4, "minutes": 0.3}),
    ("power-cut", "faults.power_cuts", {"tables": 8}, {"tables": 3}),
    ("spoofing", "attack.spoofing", {"attempts": 200}, {"attempts": 20}),
    ("console-login", "attack.console_without_login", {}, {}),
    ("fuzz-hub", "fuzz.fuzz_hub", {"payloads": 100_000, "via_broker": 3_000}, {"payloads": 5_000, "via_broker": 300}),
    ("fuzz-firmware", "fuzz.fuzz_firmware", {"sequences": 10_000, "boards": 4}, {"sequences": 600, "boards": 2}),
)


def run_drills(work: Path, quick: bool = False, only: list[str] | None = None, say=print) -> list:
    import importlib
    results = []
    for name, target, full, short in PLAN:
        if only and name not in only:
            continue
        module, func = target.rsplit(".", 1)
        drill = getattr(importlib.import_module(f"{__name__}.{module}"), func)
        say(f"--- {name}")
        started = time.monotonic()
        try:
            fig = drill(work / name, say=say, **(short if quick else full))
        except Exception as exc:  # a drill that cannot finish is a failed drill, not a stopped run
            from .figures import Figures
            fig = Figures(name, failures=[f"the drill itself failed: {exc!r}"])
            fig.seconds = time.monotonic() - started
        say(fig.line())
        for failure in fig.failures[:10]:
            say(f"    {failure}")
        results.append(fig)
    return results


def summary(results: list) -> str:
    lines = ["", f"drills run       {len(results)}",
             f"entries lost     {sum(f.lost for f in results)}",
             f"entries doubled  {sum(f.doubled for f in results)}",
             f"crashes          {sum(f.crashes for f in results)}",
             f"drills failed    {sum(not f.ok for f in results)}",
             f"machine          {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
             f"{platform.system()} {platform.release()}"]
    return "\n".join(lines)


def _run(args) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s",
                        datefmt="%H:%M:%S")
    for noisy in ("hub", "drills", "werkzeug"):
        logging.getLogger(noisy).setLevel(logging.ERROR if not args.verbose else logging.INFO)
    work = Path(args.work or tempfile.mkdtemp(prefix="party-drill-"))
    say = lambda text: print(text, flush=True)  # noqa: E731
    say(f"party drill{' --quick' if args.quick else ''}: working in {work}")
    started = time.monotonic()
    results = run_drills(work, args.quick, args.only, say)
    say(summary(results))
    say(f"total            {time.monotonic() - started:.0f} s")
    return 0 if all(f.ok for f in results) else 1


def add_commands(subparsers) -> None:
    p = subparsers.add_parser("drill", help="run the fault drills (hub killed, broker restarted, "
                                            "table cut off, power cuts, spoofing, fuzz) and report")
    p.add_argument("--quick", action="store_true", help="short versions (about two minutes in all)")
    p.add_argument("--only", nargs="+", choices=[name for name, *_ in PLAN], help="run only these drills")
    p.add_argument("--work", help="directory for journals and logs (default: a new temporary one)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=_run)
