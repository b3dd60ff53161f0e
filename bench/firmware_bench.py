"""Figures for the table firmware on the MicroPython unix port (docs/firmware.md), and
on the 32-bit board (MicroPython's Cortex-M3 build in QEMU; docs/performance.md).

    python bench/firmware_bench.py [--tables 50] [--games 8] [--only unix|qemu]

Prints: compiled size, heap after boot and in steady state after a full
session of entries (for a board running from a ROMFS image, as deployed with
`party firmware deploy --romfs`, and for one with the .mpy files on its
filesystem), keypress-to-publish latency, and bell-to-display latency with N
virtual tables at once. Uses Mosquitto (or the embedded broker) on a
free port and the hub stand-in (hardware/sim/hub_double.py), so the figures
are the firmware's and the broker's, not the hub's.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware import qemu_image  # noqa: E402
from hardware.sim.board import DEFAULT_HEAP, VirtualBoard, build, romfs_image, tool  # noqa: E402
from hardware.sim.qemu_board import QemuBoard  # noqa: E402
from hardware.sim.hub_double import HubDouble, form  # noqa: E402
from hardware.sim.party import dismiss, key_in  # noqa: E402
from party.broker import best_available  # noqa: E402


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def summary(samples: list[float]) -> str:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(len(s) * 0.95))]
    return f"median {ms(statistics.median(s))}, p95 {ms(p95)}, max {ms(s[-1])} (n={len(s)})"


def compiled_size() -> None:
    code = build()
    files = {f.relative_to(code).as_posix(): f.stat().st_size for f in sorted(code.rglob("*.mpy"))}
    # What each target carries: every file but the other targets' hardware layers.
    hals = {"unix port": "hal/host.mpy", "esp32": "hal/esp32.mpy", "pico_w": "hal/pico_w.mpy"}
    sizes = ", ".join(f"{target} {sum(v for k, v in files.items() if k not in set(hals.values()) - {mine})}"
                      for target, mine in hals.items())
    print(f"compiled size (mpy-cross), bytes per target: {sizes}")
    print("  " + ", ".join(f"{k} {v}" for k, v in files.items()))


CODE_PROBE = """
import gc, sys
ROMFS = %r
if ROMFS:  # code executed in place from the ROMFS image, as from a board's flash partition
    import vfs
    with open(ROMFS, "rb") as f:
        img = f.read()  # on a board this is flash, not heap: measured after it
    vfs.mount(vfs.VfsRom(img), "/rom")
    sys.path.insert(0, "/rom")
gc.collect()
base = gc.mem_alloc()
import asyncio, json
asyncio.StreamReader, asyncio.wait_for_ms  # the submodules the firmware loads on first use
for m in ("mqtt", "outbox", "lines", "app", "hal", "hal.host"):  # app imports entry and lets it go
    gc.collect()
    before = gc.mem_alloc()
    __import__(m)
    gc.collect()
    print(m, gc.mem_alloc() - before)
gc.collect()
print("total", gc.mem_alloc() - base)
"""


def code_heap(romfs: bool = False) -> dict[str, int]:
    """Heap taken by importing the compiled modules alone (bytecode, function
    objects, module dicts): the part of the heap that is code, not state. With
    romfs, imported from the ROMFS image (mpremote romfs build) mounted as on a
    board whose firmware has a ROMFS partition: bytecode runs in place."""
    code = build()
    image = str(romfs_image() / "firmware.romfs") if romfs else ""
    out = subprocess.run([tool("micropython"), "-X", "heapsize=256K", "-c", CODE_PROBE % image],
                         capture_output=True, text=True, check=True, cwd=code,
                         env={**os.environ, "MICROPYPATH": f".frozen:{code}"})
    return {k: int(v) for k, v in (line.split() for line in out.stdout.split("\n") if line)}


def session(broker, games: int, romfs: bool, kept: bool = False, make=VirtualBoard) -> list[float]:
    """One table plays a whole session: a result per game, a bell, acks; then
    the heap after a collection, against the heap right after boot. Returns
    the keypress-to-publish latencies. `kept`: the hub keeps a replica that never
    moves on (`safe` 0), so the board keeps every entry it acknowledged. `make`: the kind of
    board (VirtualBoard, the unix port; or a QemuBoard, the 32-bit build)."""
    hub = HubDouble(broker.host, broker.port)
    if kept:
        hub.set_status("online", safe=0)
    hub.screen(1, form=form(1))
    board = make(1, broker.host, broker.port, tempfile.mkdtemp(prefix="bench-"),
                 resend_s=10, romfs=romfs).start()
    try:
        board.wait_for("# ENTER GAME 1", timeout=60)
        board.wait_for(lambda lines: "HUB?" not in lines[-1], timeout=60)
        boot = board.heap()
        latencies, sends = [], []
        press = board.press

        def pressing(keys):   # the send is the '#' on the review page: its time, for the latency
            if "# SEND  * BACK" in board.lines:
                sends.append(time.monotonic())
            press(keys)

        board.press = pressing
        for game in range(1, games + 1):
            hub.screen(1, form=form(game), lines=["TABLE 1", f"GAME {game}"])
            board.wait_for(f"# ENTER GAME {game}")
            n = len(hub.journal)
            key_in(board, game, {"A SPOTS": str(5 * game), "B SPOTS": "0", "DOMINO BY": "B"})
            hub.wait(lambda: len(hub.journal) > n)
            eid = list(hub.journal)[-1]
            latencies.append(hub.arrived[eid] - sends[-1])
            board.wait_for(f"GAME {game} SAVED")
            board.press("BELL") if game == games else None
        hub.bell("bench-bell", "finish")
        board.wait_for("FINISH GAME")
        dismiss(board)
        board.wait_for(lambda lines: "PEND" not in lines[-1])
        steady = board.heap()
    finally:
        board.stop()
        hub.stop()
    how = ("code run in place from the ROMFS image (party firmware deploy --romfs)" if romfs
           else ".mpy files on the board's filesystem, loaded into the heap (deploy without --romfs)")
    if kept:
        how += f", every acknowledged entry kept (a replica that never moves on: {games + 2} kept)"
    print(f"{how}:")
    print(f"  heap after boot: {boot['alloc']} bytes allocated, {boot['free']} free")
    print(f"  heap in steady state after {games} games, a bell and a conductor's bell: "
          f"{steady['alloc']} bytes allocated, {steady['free']} free")
    print(f"    interned names (qstrs made at run time): {steady.get('names')} in {steady.get('name_pools')} pools "
          f"(after boot: {boot.get('names')}); on the unix port the pools hold 20, 40, 80, 160, 320 names, "
          f"the fifth takes 3.5 KB from the 301st name on")
    if make is not VirtualBoard:  # the 32-bit board: its log says whether the heap ever ran out
        spikes = [line for line in board.log if "MemoryError" in line or "out of memory" in line]
        print(f"    MemoryError during the session: {len(spikes)}" + (f" ({spikes[-1]})" if spikes else ""))
        return latencies
    code = code_heap(romfs)
    parts = ", ".join(f"{k} {v}" for k, v in code.items() if k != "total")
    print(f"    of which code (importing the compiled modules, asyncio included): "
          f"{code['total']} bytes ({parts})")
    print(f"    state (tasks, streams, retained screen, outbox, interpreter): "
          f"{steady['alloc'] - code['total']} bytes")
    return latencies


def bell_fanout(broker, tables: int, rounds: int) -> None:
    """The conductor rings: one publish on party/all/cmd; how long until each
    of N tables shows it."""
    hub = HubDouble(broker.host, broker.port)
    boards = []
    shown: dict[tuple[int, str], float] = {}
    lock = threading.Lock()

    def watcher(table):
        def on_frame(lines):
            for word in ("FINISH GAME", "STOP NOW"):
                if word in lines and lines[0] == "** BELL **":
                    with lock:
                        shown.setdefault((table, word), time.monotonic())
        return on_frame

    try:
        for t in range(1, tables + 1):
            hub.screen(t)
            b = VirtualBoard(t, broker.host, broker.port, tempfile.mkdtemp(prefix=f"bench-{t}-"))
            b.on_frame = watcher(t)
            boards.append(b.start())
        for b in boards:
            b.wait_for(lambda lines: "HUB?" not in lines[-1], timeout=60)
        samples = []
        for r in range(rounds):
            meaning, word = (("finish", "FINISH GAME"), ("stop", "STOP NOW"))[r % 2]
            with lock:
                for t in range(1, tables + 1):
                    shown.pop((t, word), None)
            t0 = time.monotonic()
            hub.bell(f"bench-{r}", meaning)
            deadline = t0 + 30
            while time.monotonic() < deadline:
                with lock:
                    if all((t, word) in shown for t in range(1, tables + 1)):
                        break
                time.sleep(0.01)
            with lock:
                round_samples = [shown[(t, word)] - t0 for t in range(1, tables + 1) if (t, word) in shown]
            missing = tables - len(round_samples)
            if missing:
                print(f"  round {r}: {missing} tables did not show the bell within 30 s")
            samples += round_samples
            for b in boards:
                dismiss(b)  # as a table would
            time.sleep(0.5)
        print(f"bell-to-display with {tables} virtual tables (publish -> frame on each table): "
              f"{summary(samples)}")
    finally:
        for b in boards:
            b.stop()
        hub.stop()


def board_32_bit(broker, games: int) -> None:
    """The same session on the 32-bit board (MicroPython's Cortex-M3 build in QEMU,
    hardware/sim/qemu_board.py), on its serial line through hub/serial_bridge.py: with a
    board's heap (110,000 bytes), from the ROMFS image and from .mpy files; then from the
    ROMFS image with the heap capped at 48 KB (an ESP32's once WiFi and TLS are up)."""
    why = qemu_image.missing()
    if why:
        print(f"32-bit board (qemu): not measured: {why}")
        return
    for heap in (qemu_image.HEAP, 48 * 1024):
        print(f"32-bit board (MPS2-AN385, Cortex-M3, in QEMU), heap {heap} bytes "
              f"({qemu_image.micropython(heap=heap) / qemu_image.ELF}):")
        for romfs in ((True, False) if heap == qemu_image.HEAP else (True,)):
            session(broker, games, romfs=romfs, make=lambda *a, **kw: QemuBoard(*a, heap=heap, **kw))


def main() -> None:
    p = argparse.ArgumentParser(description="firmware figures on the MicroPython unix port and the 32-bit board")
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--only", choices=("unix", "qemu"), help="the unix port's figures, or the 32-bit board's, alone")
    a = p.parse_args()
    broker = best_available()
    broker.start()
    try:
        print(f"broker: {broker!r}")
        if a.only != "unix":
            board_32_bit(broker, a.games)
        if a.only == "qemu":
            return
        compiled_size()
        print(f"heap capped at {DEFAULT_HEAP} (a ROMFS board's image lies outside it, as flash does)")
        session(broker, a.games, romfs=True)
        session(broker, a.games, romfs=True, kept=True)
        latencies = session(broker, a.games, romfs=False)
        print(f"keypress-to-publish (# on the review page -> event at the hub's client): "
              f"{summary(latencies)}")
        bell_fanout(broker, a.tables, a.rounds)
    finally:
        broker.stop()


if __name__ == "__main__":
    main()
