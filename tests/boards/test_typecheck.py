"""Every firmware file type-checks against the MicroPython stubs of the ESP32 and RP2 ports.

Needs mypy and the stubs (see hardware/typecheck.py for the commands); skips, saying
which is missing, where they are not installed.
"""
import importlib.util
import shutil

import pytest

from hardware import typecheck

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (pip install mypy)")


def stubs(port):
    path = typecheck.stubs_dir(port)
    if not (path / "machine.pyi").exists():
        pytest.skip(f"{typecheck.PORTS[port][0]} not installed: "
                    f"pip install --target {path} {typecheck.PORTS[port][0]}")
    return path


BOARD_LAYERS = ("drivers/", "hal/esp32.py", "hal/pico_w.py")


@pytest.mark.parametrize("port", sorted(typecheck.PORTS))
def test_the_board_layers_type_check(port):
    _, report = typecheck.check(port, stubs(port))
    assert [line for line in report if line.startswith(BOARD_LAYERS)] == []


@pytest.mark.parametrize("port", sorted(typecheck.PORTS))
def test_every_firmware_file_type_checks(port):
    ok, report = typecheck.check(port, stubs(port))
    assert ok, "\n".join(report)


def test_each_port_checks_its_own_hal_only():
    assert "hal/esp32.py" in typecheck.files_for("esp32") and "hal/pico_w.py" not in typecheck.files_for("esp32")
    assert "hal/pico_w.py" in typecheck.files_for("rp2") and "hal/esp32.py" not in typecheck.files_for("rp2")


def test_a_wrong_call_into_machine_fails_the_check(tmp_path):
    """The check is not vacuous: a board API misused in a firmware file is caught."""
    port = "rp2"
    copy = tmp_path / "firmware"
    shutil.copytree(typecheck.FIRMWARE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    board = copy / "drivers" / "board.py"
    board.write_text(board.read_text().replace("machine.WDT(timeout=WDT_MS)", "machine.WDT(timeout='8 s')"))
    ok, report = typecheck.check(port, stubs(port), source=copy)
    assert not ok
    assert any(line.startswith("drivers/board.py:") and "timeout" in line for line in report), report
