"""A child process running one of the hub's modules (`python -m`), for work done on the
machine's other core at start-up (hub/seal.py, hub/audit_apart.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def spawn(module: str, *args: str) -> subprocess.Popen | None:
    """`python -m module args…` with this hub's code first on its path (not another copy that
    may be installed), its answer on its stdout; None where it cannot be started."""
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))}
    try:
        return subprocess.Popen([sys.executable, "-m", module, *args], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    except OSError:
        return None


def stop(child: subprocess.Popen | None) -> None:
    """A child not waited for (the start-up failed before it needed its answer)."""
    if child is not None:
        child.kill()
        child.wait()
