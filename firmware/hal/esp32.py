"""The HAL for an ESP32-DevKitC table board (see docs/hardware.md for the wiring)."""
from drivers.board import WiFiBoard

# The same map as hardware/pins.yaml (targets.esp32.pins): a test keeps them equal.
PINS = {
    "keypad_rows": [32, 33, 25, 26],
    "keypad_cols": [27, 14, 13, 4],
    "bell": 18,
    "i2c": {"id": 0, "sda": 21, "scl": 22},
    "battery_adc": {"pin": 34, "divider": 2},
    "status_led": 2,
}


class Board(WiFiBoard):
    PINS = PINS
    PREFIX = "esp32-"

    def __init__(self, config: dict) -> None:
        super().__init__(config)
        if self._adc is not None:
            self._adc.atten(self._adc.ATTN_11DB)   # full range up to about 3.1 V

    def adc_mv(self, adc) -> int:
        return adc.read_uv() // 1000   # calibrated by the chip's eFuse values
