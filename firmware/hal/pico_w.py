"""The HAL for a Raspberry Pi Pico W table board (see docs/hardware.md for the wiring)."""
from drivers.board import WiFiBoard

# The same map as hardware/pins.yaml (targets.pico_w.pins): a test keeps them equal.
PINS = {
    "keypad_rows": [6, 7, 8, 9],
    "keypad_cols": [10, 11, 12, 13],
    "bell": 15,
    "i2c": {"id": 0, "sda": 4, "scl": 5},
    "battery_adc": {"pin": 26, "divider": 2},
    "status_led": "LED",
}


class Board(WiFiBoard):
    PINS = PINS
    PREFIX = "picow-"

    def prepare_wlan(self, wlan) -> None:
        # With power saving on, the CYW43 sleeps between beacons and every message
        # to the board waits for it to wake (mqtt_as turns it off too).
        wlan.config(pm=wlan.PM_NONE)

    def adc_mv(self, adc) -> int:
        return adc.read_u16() * 3300 // 65535   # ADC_VREF is the 3.3 V rail
