"""A 32-bit table board: the real firmware on MicroPython's Cortex-M3 build, in QEMU.

The emulated board is an MPS2-AN385 (hardware/qemu_image.py builds its MicroPython and
the firmware's ROMFS image; firmware/hal/qemu.py is its hardware layer):
- UART0 is the board's console. The harness types the board's boot on its REPL (mount
  the flash at /, MicroPython having mounted the ROMFS image at /rom; on a blank
  flash, write config.json and main.py, as `deploy` does; then `import main`), and
  then keys on it, as VirtualBoard does on the unix port's stdin. The display's I2C bus
  comes back on it: the SSD1306 driver's frames, the 1,024 bytes of its framebuffer,
  which this harness reads as the panel would and turns back into the characters the
  8x8 font drew (`lines`, for wait_for; hardware/sim/display.py) and into PNGs (`screenshot`).
- UART1 is the board's USB-serial cable: a pty, with hub/serial_bridge.py (its own
  process, as at a party) carrying its lines to and from the broker.
- The flash is a file in data_dir (flash.bin), written through by the board: kill() is a
  power cut, and start() boots on what the flash held.
- The firmware is the ROMFS image (`deploy --romfs`), or with romfs=False the .mpy files
  copied onto the flash (deploy without --romfs).

QemuBoard keeps VirtualBoard's interface (start, stop, kill, restart, press, wait_for,
lines, frames, heap, pixels, screenshot, log), so a party can mix the two kinds of board.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from hardware import qemu_image
from hardware.sim import display
from hardware.sim.board import FIRMWARE, VirtualBoard, tool

FLASH_BYTES = 256 * 1024  # 64 erase blocks of 4 KB: an ESP32's data partition is 1-2 MB
PTY = re.compile(r"char device redirected to (/dev/pts/\d+) \(label serial1\)")
DATA, COMMAND = 0x40, 0x80  # an SSD1306 transfer's control byte: frame bytes / one command
# The board's boot, typed on its REPL: what a board's own _boot.py does (the flash's
# littlefs at /, made on a blank flash; MicroPython has mounted the ROMFS image at /rom
# and put it on sys.path already), then what `deploy` does on a blank flash (its files
# copied from the host's), then main.py.
BOOT = """\
def boot():
    import os, vfs, hostfile
    flash = hostfile.Flash({flash!r})
    try:
        vfs.mount(vfs.VfsLfs2(flash), "/")
    except OSError:
        vfs.VfsLfs2.mkfs(flash)
        vfs.mount(vfs.VfsLfs2(flash), "/")
    for name, src in {files!r}:
        if src is None:
            os.mkdir(name)
        else:
            with open(name, "wb") as f:
                f.write(hostfile.read(src))
boot()
del boot
import main
"""


class QemuBoard(VirtualBoard):
    def __init__(self, table: int, host: str, port: int, data_dir=None, board_id: str | None = None,
                 heap: int = qemu_image.HEAP, source: Path | None = None, **config):
        super().__init__(table, host, port, data_dir, board_id or f"qemu-{table}", **config)
        self.config["serial"] = "uart1"  # hal/qemu.py: the link on UART1, the emulator's pty
        self.config.pop("data_dir")  # the board's data is on its flash, at /
        self.heap_bytes = heap
        self.source = source
        self.fb: bytes | None = None  # the panel's pixels: the latest frame the driver sent
        self.display_on = False
        self.pty: str | None = None
        self._bridge: subprocess.Popen | None = None
        self._cable: int | None = None  # the harness's own hold on the pty

    # --- life cycle ---------------------------------------------------------
    def start(self, timeout: float = 120.0) -> "QemuBoard":
        build = qemu_image.micropython(self.source, self.heap_bytes)
        code = qemu_image.firmware()
        flash = self.data_dir / "flash.bin"
        blank = not flash.exists()
        if blank:
            flash.write_bytes(b"\xff" * FLASH_BYTES)
        self._proc = proc = subprocess.Popen(
            ["qemu-system-arm", "-machine", "mps2-an385", "-display", "none", "-monitor", "none",
             "-semihosting-config", "enable=on,target=native",
             "-serial", "stdio", "-serial", "pty", "-kernel", str(build / qemu_image.ELF),
             *(["-device", f"loader,file={code / 'firmware.romfs'},addr={qemu_image.ROMFS_ADDRESS:#x},force-raw=on"]
               if self.romfs else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=self.data_dir)
        self._eof = False
        self.pty = None
        self._prompt = threading.Event()
        threading.Thread(target=self._read_uart0, args=(proc,), daemon=True, name=f"qemu-{self.table}-out").start()
        threading.Thread(target=self._read_log, args=(proc,), daemon=True, name=f"qemu-{self.table}-err").start()
        deadline = time.monotonic() + timeout
        if not self._prompt.wait(timeout) or self.pty is None:  # the emulator names its pty first
            raise TimeoutError(f"table {self.table}: no REPL prompt and UART1 pty from qemu; log: {self.log[-5:]}")
        # The cable's other end, as at a party: the bridge to the broker, its own process.
        bridge_log = open(self.data_dir / "bridge.log", "ab")
        self._bridge = subprocess.Popen(
            [sys.executable, "-m", "hub.serial_bridge", "--port", self.pty,
             "--broker", f"{self.config['broker']}:{self.config['port']}"],
            stdout=bridge_log, stderr=bridge_log, cwd=FIRMWARE.parent)
        bridge_log.close()
        # The cable plugged in before the board speaks: its first line (its status, which
        # tells the bridge its table) is written once. The harness holds the pty open too,
        # so the emulator counts the line connected while the bridge process comes up.
        self._cable = os.open(self.pty, os.O_RDWR | os.O_NOCTTY)
        while not self._opened_by(self._bridge):
            if self._bridge.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"table {self.table}: the serial bridge did not open {self.pty}: "
                                   + (self.data_dir / "bridge.log").read_text()[-500:])
            time.sleep(0.05)
        files = self._deploy(code) if blank else []
        boot = BOOT.format(flash=str(flash), files=files)
        proc.stdin.write(b"\x01" + boot.encode() + b"\x04")  # the raw REPL: ctrl-A, the code, ctrl-D
        proc.stdin.flush()
        return self

    def _deploy(self, code: Path) -> list[tuple[str, str | None]]:
        """What `deploy` puts on a blank flash: config.json and main.py, and with romfs=False
        the compiled modules too (.mpy files, loaded into the heap when imported)."""
        (self.data_dir / "config.json").write_text(json.dumps(self.config))
        files: list[tuple[str, str | None]] = [("config.json", str(self.data_dir / "config.json")),
                                               ("main.py", str(code / "main.py"))]
        if not self.romfs:
            built = code / "files"
            files += [(d.relative_to(built).as_posix(), None) for d in sorted(built.rglob("*")) if d.is_dir()]
            files += [(p.relative_to(built).as_posix(), str(p)) for p in sorted(built.rglob("*.mpy"))]
        return files

    def _opened_by(self, proc: subprocess.Popen) -> bool:
        fds = Path(f"/proc/{proc.pid}/fd")
        try:
            return any(os.readlink(fd) == self.pty for fd in fds.iterdir())
        except OSError:  # an fd closed while listed
            return False

    def kill(self) -> None:
        """Power cut: the emulator and its bridge SIGKILLed; the flash file keeps what was written."""
        for p in (self._proc, self._bridge):
            if p and p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait()
        self._unplug()

    def _unplug(self) -> None:
        if self._cable is not None:
            os.close(self._cable)
            self._cable = None

    def stop(self) -> None:
        for p in (self._bridge, self._proc):
            if p and p.poll() is None:
                p.terminate()
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self._unplug()
        for f in (self._proc.stdin, self._proc.stdout, self._proc.stderr) if self._proc else ():
            try:
                f.close()
            except OSError:
                pass

    def pixels(self, timeout: float = 5.0) -> bytes:
        """The display's framebuffer: the 1,024 bytes the driver last sent the panel."""
        with self._cond:
            if self.fb is None:
                raise RuntimeError(f"table {self.table}: nothing drawn yet")
            return self.fb

    # --- UART0: the console, the display's wire ------------------------------
    def _read_uart0(self, proc: subprocess.Popen) -> None:
        fd = proc.stdout.fileno()
        buf = b""
        names: dict[str, str] = {}
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            buf += chunk
            while buf:
                if buf[0] == 0:  # an I2C transaction: 0, address, length (2 bytes), bytes
                    if len(buf) < 4 or len(buf) < 4 + (n := buf[2] << 8 | buf[3]):
                        break
                    self._i2c(buf[4:4 + n])
                    buf = buf[4 + n:]
                    continue
                end = min((i for i in (buf.find(b"\n"), buf.find(b"\0")) if i >= 0), default=-1)
                if end < 0:
                    if b">>> " in buf:
                        self._prompt.set()
                    break
                line, buf = buf[:end].decode(errors="replace").strip("\r"), buf[end + (buf[end] == 10):]
                names = self._text(line, names)
        with self._cond:
            if proc is self._proc:
                self._eof = True
            self._cond.notify_all()

    def _i2c(self, data: bytes) -> None:
        if data[:1] == bytes([COMMAND]) and data[1:] == b"\xaf":
            self.display_on = True
        elif data[:1] == bytes([DATA]) and len(data) == 1 + display.SIZE:
            lines = display.text_of(data[1:], tool("micropython"))
            with self._cond:
                self.fb = data[1:]
                self.lines = lines
                self.frames.append(lines)
                del self.frames[:-200]
                if self.on_frame:
                    self.on_frame(lines)
                self._cond.notify_all()

    def _text(self, line: str, names: dict) -> dict:
        if found := PTY.search(line):
            self.pty = found.group(1)
        if line.startswith("qstr pool:"):  # the interned names, printed before a heap report
            return dict(kv.split("=") for kv in line.split(":", 1)[1].strip().split(", "))
        try:
            msg = json.loads(line) if line.startswith("{") else None
        except ValueError:
            msg = None
        with self._cond:
            if isinstance(msg, dict) and "mem" in msg:
                self.mem = msg["mem"]
                if names:
                    self.mem["names"], self.mem["name_pools"] = int(names["n_qstr"]), int(names["n_pool"])
                self._cond.notify_all()
            elif line:
                self.log.append(line)
                del self.log[:-200]
        return names

    def __repr__(self) -> str:
        return f"QemuBoard(table={self.table}, board={self.board_id!r})"
