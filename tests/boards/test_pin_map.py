"""The pin map has one source, hardware/pins.yaml: the firmware's maps and the drawings follow it."""
import ast
import shutil
from pathlib import Path

import pytest

from hardware import render

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"

HALS = {"esp32": "esp32.py", "pico_w": "pico_w.py"}


def firmware_pins(hal_file: str) -> dict:
    """The PINS dict of a HAL module, read as a literal (the HAL imports `machine`)."""
    tree = ast.parse((FIRMWARE / "hal" / hal_file).read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["PINS"]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"no PINS dict in firmware/hal/{hal_file}")


@pytest.mark.parametrize("target", sorted(HALS))
def test_the_firmware_pin_map_equals_pins_yaml(target):
    assert firmware_pins(HALS[target]) == render.load()[target]["pins"]


def test_every_target_in_pins_yaml_has_a_hal():
    assert set(render.load()) == set(HALS)


@pytest.mark.parametrize("target", sorted(HALS))
def test_no_pin_is_used_twice(target):
    pins = render.load()[target]["pins"]
    used = [*pins["keypad_rows"], *pins["keypad_cols"], pins["bell"], pins["i2c"]["sda"],
            pins["i2c"]["scl"], pins["battery_adc"]["pin"], pins["status_led"]]
    assert len(used) == len(set(used))


def test_the_committed_wiring_svgs_are_drawn_from_the_current_pins_yaml():
    assert render.stale(render.load()) == [], "run: python -m hardware.render"


def test_a_changed_pin_makes_the_drawing_stale():
    targets = render.load()
    targets["esp32"]["pins"]["bell"] = 19
    old = render.stale(targets)
    assert "esp32" in old and "pico_w" not in old
    assert "docs/hardware.md" in old   # its pin table shows the old bell pin


@pytest.mark.skipif(not shutil.which("dot"), reason="graphviz's dot is not installed (apt-get install graphviz)")
@pytest.mark.parametrize("target", sorted(HALS))
def test_the_drawing_names_every_pin_and_part(target):
    spec = render.load()[target]
    drawn = render.svg(render.dot(target, spec))
    assert render.DIGEST.search(drawn).group(1) == render.digest(render.dot(target, spec))
    for pin in [*spec["pins"]["keypad_rows"], *spec["pins"]["keypad_cols"], spec["pins"]["bell"]]:
        assert spec["header"]["label"].format(pin) in drawn
    for part in ("keypad", "SSD1306", "bell push button", "divider"):
        assert part in drawn
