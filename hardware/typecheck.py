"""Type-checks the firmware against the MicroPython stubs of each board's port, with mypy.

    pip install --target /tmp/stubs-esp32 micropython-esp32-stubs
    pip install --target /tmp/stubs-rp2 micropython-rp2-stubs
    python -m hardware.typecheck            # exit 0 when every firmware file checks

(`--install` runs the two pip commands; `--stubs-esp32 DIR` / `--stubs-rp2 DIR` or
STUBS_ESP32 / STUBS_RP2 point elsewhere.) Each port checks every firmware file
but the other board's HAL. The stubs are a typeshed of their own (MicroPython's
`time`, `asyncio`, `os` differ from CPython's), so mypy gets them as its
--custom-typeshed-dir and on MYPYPATH. mypy reports errors inside the stubs
themselves (a few dozen, upstream's); only errors in firmware/ count here.

Function bodies are checked even without annotations (--check-untyped-defs: most
firmware code is unannotated, and unchecked it would pass vacuously). Optional
is not strict (--no-strict-optional): the firmware sets some attributes after
construction, and a None-check on every use would cost a board code and RAM.
The stubs type ticks_ms() as an opaque value, so arithmetic on ticks that
breaks when the counter wraps is caught: use ticks_diff / ticks_add.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
# stubs package per port, and the HAL module that runs on it
PORTS = {"esp32": ("micropython-esp32-stubs", "esp32"), "rp2": ("micropython-rp2-stubs", "pico_w")}
# and the emulator's board (hal/qemu.py), whose modules (hostfile) no stubs describe
HALS = {hal for _, hal in PORTS.values()} | {"qemu"}


def stubs_dir(port: str, given=None) -> Path:
    return Path(given or os.environ.get(f"STUBS_{port.upper()}") or f"/tmp/stubs-{port}")


def install(port: str, target: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(target), PORTS[port][0]],
                   check=True, timeout=600)


def files_for(port: str, source: Path = FIRMWARE) -> list:
    """Every firmware .py but the HALs of the other boards, relative to source."""
    others = HALS - {PORTS[port][1]}
    return [p.relative_to(source).as_posix() for p in sorted(source.rglob("*.py"))
            if "__pycache__" not in p.parts
            and not (p.parent.name == "hal" and p.stem in others)]


def check(port: str, stubs: Path, source: Path = FIRMWARE):
    """Runs mypy for one port; returns (ok, the report lines about firmware files)."""
    files = files_for(port, source)
    with tempfile.TemporaryDirectory(prefix="mypy-") as cache:
        done = subprocess.run(
            [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(stubs), "--explicit-package-bases",
             "--check-untyped-defs", "--no-strict-optional", "--cache-dir", cache, "--no-error-summary", "--hide-error-context", *files],
            cwd=source, env=dict(os.environ, MYPYPATH=str(stubs)), capture_output=True, text=True, timeout=300)
    lines = (done.stdout + done.stderr).splitlines()
    ours = [line for line in lines if line.split(":", 1)[0] in files]
    # a blocking error (a stub that does not parse, a bad option) stops mypy before our files
    blocked = any("errors prevented further checking" in line or line.startswith("mypy: error") for line in lines)
    errors = [line for line in ours if ": error:" in line]
    if blocked:
        ours += [line for line in lines if line not in ours][-5:]
    return not errors and not blocked, ours


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.typecheck", description=__doc__.splitlines()[0])
    parser.add_argument("--install", action="store_true", help="pip install the stubs first")
    for port in PORTS:
        parser.add_argument(f"--stubs-{port}", help=f"where {PORTS[port][0]} is installed")
    args = parser.parse_args(argv)
    failed = False
    for port in PORTS:
        stubs = stubs_dir(port, getattr(args, f"stubs_{port}"))
        if args.install:
            install(port, stubs)
        if not (stubs / "machine.pyi").exists():
            print(f"{port}: no stubs in {stubs}: pip install --target {stubs} {PORTS[port][0]}", file=sys.stderr)
            failed = True
            continue
        ok, report = check(port, stubs)
        for line in report:
            print(f"{port}: firmware/{line}")
        print(f"{port}: {len(files_for(port))} files {'type-check' if ok else 'FAIL the type check'} "
              f"against {PORTS[port][0]}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
