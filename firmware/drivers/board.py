"""What the ESP32 and Pico W boards share: WiFi station, polled inputs, the OLED, the watchdog.

hal/esp32.py and hal/pico_w.py give the pin map and the few calls that differ.
"""
import asyncio
import binascii
from time import ticks_ms

import machine
import network

from drivers import battery
from drivers.button import Button
from drivers.keypad import Decoder, Matrix
from drivers.ssd1306 import SSD1306
from drivers.ticks import ticks_diff

POLL_MS = 10                 # input poll period: well under the 20-30 ms debounce
CONNECT_TIMEOUT_MS = 20000   # a WiFi join usually takes 2-5 s
SETTLE_MS = 500             # after a disconnect, before connecting again
WDT_MS = 8000                # within the RP2040's limit of 8388 ms, used on both


class WiFiBoard:
    """The HAL `Board` for a board with WiFi; subclasses set PINS, PREFIX and the ADC reading."""

    PINS: dict = {}
    PREFIX = ""

    def __init__(self, config: dict) -> None:
        self.config = config
        chip = binascii.hexlify(machine.unique_id()).decode()
        # A provisioned board speaks as its table's board (config "board", e.g. table-7)
        # and its own chip, so a spare given a failed board's config, whose boot counter
        # starts again at 1, never reuses that board's event ids.
        base = config.get("board")
        self.board_id = base + "-" + chip[-12:] if base else self.PREFIX + chip
        self.data_dir = "/"
        self._wlan = network.WLAN(network.STA_IF)
        self._led = machine.Pin(self.PINS["status_led"], machine.Pin.OUT, value=0)
        i2c = self.PINS["i2c"]
        self._i2c = machine.I2C(i2c["id"], sda=machine.Pin(i2c["sda"]),
                                scl=machine.Pin(i2c["scl"]), freq=400000)
        self._display: SSD1306 | None = None
        self._wdt: machine.WDT | None = None
        adc = self.PINS["battery_adc"]
        self._adc = machine.ADC(machine.Pin(adc["pin"])) if config.get("battery") else None

    # -- network --------------------------------------------------------------

    async def connect_network(self) -> None:
        wlan = self._wlan
        wlan.active(True)
        self.prepare_wlan(wlan)
        if not wlan.isconnected():
            # The ESP32's driver keeps retrying a lost network by itself and refuses
            # a connect() meanwhile ("Wifi Internal State Error"): stop it first.
            wlan.disconnect()
            await asyncio.sleep_ms(SETTLE_MS)
            wifi = self.config.get("wifi") or {}
            if not wifi.get("ssid"):
                raise OSError("wifi: not configured")  # deploy writes it: party firmware deploy
            wlan.connect(wifi["ssid"], wifi.get("key", ""))
            start = ticks_ms()
            while not wlan.isconnected():
                why = _FAILURES.get(wlan.status())
                if why is None and ticks_diff(ticks_ms(), start) > CONNECT_TIMEOUT_MS:
                    why = "timeout"
                if why:
                    wlan.disconnect()
                    raise OSError("wifi: " + why)
                await asyncio.sleep_ms(200)
        self._led.value(1)

    def prepare_wlan(self, wlan) -> None:
        """Port-specific WiFi settings made before connecting."""

    def network_up(self) -> bool:
        up = self._wlan.isconnected()
        self._led.value(1 if up else 0)
        return up

    def signal(self):
        try:
            return self._wlan.status("rssi") if self._wlan.isconnected() else None
        except OSError:
            return None

    # -- inputs ---------------------------------------------------------------

    def start_inputs(self, on_key) -> None:
        pull = machine.Pin.PULL_UP
        rows = [machine.Pin(p, machine.Pin.OPEN_DRAIN, value=1) for p in self.PINS["keypad_rows"]]
        cols = [machine.Pin(p, machine.Pin.IN, pull) for p in self.PINS["keypad_cols"]]
        bell = machine.Pin(self.PINS["bell"], machine.Pin.IN, pull)
        asyncio.create_task(_poll_keypad(Matrix(rows, cols), Decoder(), on_key))
        asyncio.create_task(_poll_bell(bell, Button("BELL", "BELL-LONG"), on_key))

    # -- display --------------------------------------------------------------

    def show(self, lines: list) -> None:
        # A loose display cable must not stop the board: entries still go out, and
        # the display is set up again on the next frame once it answers.
        try:
            if self._display is None:
                self._display = SSD1306(self._i2c)
            self._display.show_lines(lines)
        except OSError:
            self._display = None

    # -- health ---------------------------------------------------------------

    def feed_watchdog(self) -> None:
        # Created on the first feed: a machine.WDT cannot be stopped once started,
        # so it starts only when the app's tick is running to feed it.
        if self._wdt is None:
            self._wdt = machine.WDT(timeout=WDT_MS)
        self._wdt.feed()

    def battery(self):
        if self._adc is None:
            return None
        return battery.percent(self.adc_mv(self._adc) * self.PINS["battery_adc"]["divider"])

    def adc_mv(self, adc) -> int:
        """The ADC pin's voltage in millivolts (port-specific)."""
        raise NotImplementedError


_FAILURES = {
    network.STAT_WRONG_PASSWORD: "wrong key",
    network.STAT_NO_AP_FOUND: "no such ssid",
    network.STAT_CONNECT_FAIL: "refused",
}


async def _poll_keypad(matrix, decoder, on_key) -> None:
    while True:
        key = decoder.update(matrix.scan(), ticks_ms())
        if key:
            on_key(key)
        await asyncio.sleep_ms(POLL_MS)


async def _poll_bell(pin, button, on_key) -> None:
    while True:
        event = button.update(not pin.value(), ticks_ms())  # pulled up: pressed reads 0
        if event:
            on_key(event)
        await asyncio.sleep_ms(POLL_MS)
