"""The 32-bit board's image: MicroPython's qemu port for the MPS2-AN385 board (an Arm
Cortex-M3), built from MicroPython's source, and the party firmware as a ROMFS image.

The source is the tarball in ../shared/micropython/ (its README says what was checked);
Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi and qemu-system-arm build and run it.
Built as that README says, with:
- asyncio frozen in (hardware/mps2/manifest.py), as every board's own image has it;
- the heap of a board (MICROPY_HEAP_SIZE, 110,000 bytes: an ESP32 without PSRAM);
- littlefs (MICROPY_VFS_LFS2) and the board's C module hardware/mps2/hostfile.c: its
  flash is a file on the host, written through, so a killed emulator loses nothing written;
- the CPU idling in WFI until the next 1 ms tick when asyncio waits, instead of spinning
  the host's CPU (the port's default), so several boards share a machine.
The firmware goes in as `deploy --romfs` puts it on a board: every module compiled for
the Cortex-M3 (armv7m) into one ROMFS image, which the emulator loads at the board's
ROMFS partition (0x21000000) and the board runs in place; main.py goes on its flash.

Both are built once per version of their sources into a cache folder outside the repo
($PARTY_CACHE, else ~/.cache/party), so a test session pays the ~30 s of CPU once.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from hardware import firmware_build

HERE = Path(__file__).resolve().parent
MPS2 = HERE / "mps2"  # the board's C module and freeze manifest
MICROPYTHON = HERE.parent.parent / "shared" / "micropython"  # ../shared beside the clone
HEAP = 110_000
ROMFS_ADDRESS = 0x21000000
ELF = "firmware.elf"
# The port's stdio: asyncio on; the idle loop waits for an interrupt (see above).
_ASYNCIO = ("#define MICROPY_PY_ASYNCIO          (0)", "#define MICROPY_PY_ASYNCIO          (1)")
_IDLE = '\n// idle until the next interrupt (the 1 ms SysTick)\n#define MICROPY_INTERNAL_WFE(TIMEOUT_MS) __asm__ volatile ("wfi")\n'
NEWLIB = Path("/usr/lib/arm-none-eabi/newlib")  # Debian's libnewlib-arm-none-eabi
TOOLS = {"make": "make", "arm-none-eabi-gcc": "gcc-arm-none-eabi", "qemu-system-arm": "qemu-system-arm"}


class BuildError(Exception):
    """The image could not be built; the message says what to install or fix."""


def tarball(source: Path | None = None) -> Path | None:
    """The MicroPython source tarball in `source` (default ../shared/micropython), or None."""
    found = sorted(Path(source or MICROPYTHON).glob("micropython-*-qemu.tar.gz"))
    return found[-1] if found else None


def missing(source: Path | None = None) -> str | None:
    """Why the 32-bit board cannot be built and run here, or None if it can."""
    if tarball(source) is None:
        return f"no MicroPython source tarball in {source or MICROPYTHON} (the project's ../shared)"
    need = [pkg for tool, pkg in TOOLS.items() if not shutil.which(tool)]
    if not NEWLIB.exists():
        need.append("libnewlib-arm-none-eabi")
    return "not installed: apt-get install " + " ".join(need) if need else None


def cache() -> Path:
    return Path(os.environ.get("PARTY_CACHE") or Path.home() / ".cache" / "party")


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()[:16]


def micropython(source: Path | None = None, heap: int = HEAP) -> Path:
    """The folder holding the board's MicroPython (firmware.elf), built once per source
    tarball, board module and heap size."""
    why = missing(source)
    if why:
        raise BuildError(why)
    tar = tarball(source)
    mps2 = sorted(p for p in MPS2.iterdir() if p.is_file())
    key = _digest(tar.read_bytes(), *(p.name.encode() + p.read_bytes() for p in mps2),
                  repr((_ASYNCIO, _IDLE, heap)).encode())
    out = cache() / f"mps2-an385-{key}"
    if (out / ELF).exists():
        return out
    cache().mkdir(parents=True, exist_ok=True)
    with open(cache() / f".mps2-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second process waits for the first build
        if not (out / ELF).exists():
            _build(tar, heap, out)
    return out


def _build(tar: Path, heap: int, out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="party-mps2-", dir=cache()) as tmp:
        with tarfile.open(tar) as t:
            t.extractall(tmp, filter="data")
        mp = Path(tmp) / "micropython"
        # the freeze step checks for this submodule; nothing from it is used
        (mp / "lib" / "micropython-lib").mkdir(parents=True, exist_ok=True)
        (mp / "lib" / "micropython-lib" / "README.md").touch()
        conf = mp / "ports" / "qemu" / "mpconfigport.h"
        text = conf.read_text()
        if _ASYNCIO[0] not in text:
            raise BuildError(f"{tar.name}: ports/qemu/mpconfigport.h no longer has {_ASYNCIO[0]!r}")
        conf.write_text(text.replace(*_ASYNCIO) + _IDLE)
        jobs = f"-j{min(2, os.cpu_count() or 1)}"
        for args in (["-C", "mpy-cross"],
                     ["-C", "ports/qemu", "BOARD=MPS2_AN385", "MICROPY_PY_BTREE=0", "MICROPY_VFS_LFS2=1",
                      f"USER_C_MODULES={MPS2}", f"FROZEN_MANIFEST={MPS2 / 'manifest.py'}",
                      f"MICROPY_HEAP_SIZE={heap}"]):
            done = subprocess.run(["make", jobs, *args], cwd=mp, capture_output=True, text=True, timeout=1200)
            if done.returncode != 0:
                raise BuildError(f"make {' '.join(args)}: " + (done.stderr or done.stdout)[-2000:])
        built = Path(tempfile.mkdtemp(prefix="mps2-", dir=cache()))
        shutil.copyfile(mp / "ports" / "qemu" / "build-MPS2_AN385" / ELF, built / ELF)
        built.rename(out)


def firmware() -> Path:
    """The folder holding the party firmware for the board: firmware.romfs (every module
    compiled for the Cortex-M3), main.py, and files/ (the same modules as .mpy files, for a
    board deployed without --romfs), built once per version of the firmware."""
    sources = sorted(p for p in firmware_build.FIRMWARE.rglob("*.py") if "__pycache__" not in p.parts)
    key = _digest(Path(firmware_build.__file__).read_bytes(),
                  *(str(p.relative_to(firmware_build.FIRMWARE)).encode() + p.read_bytes() for p in sources))
    out = cache() / f"firmware-qemu-{key}"
    if (out / firmware_build.IMAGE).exists():
        return out
    cache().mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="firmware-qemu-", dir=cache()))
    firmware_build.build(tmp / "build", "qemu", romfs=True)
    shutil.copyfile(tmp / "build" / firmware_build.IMAGE, tmp / firmware_build.IMAGE)
    shutil.copyfile(tmp / "build" / "main.py", tmp / "main.py")
    (tmp / "build" / firmware_build.IMAGE).unlink()
    (tmp / "build").rename(tmp / "files")
    try:
        tmp.rename(out)
    except OSError:  # another process built the same
        shutil.rmtree(tmp, ignore_errors=True)
    return out
