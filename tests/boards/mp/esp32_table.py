"""The whole firmware (firmware/main.py) on the ESP32 HAL, on the unix port.

    micropython esp32_table.py CONFIG DATA_DIR

machine and network are the fakes of this folder; main.py picks the unix port's
board (hal.host), so this file puts there the real ESP32 Board, with its data in
DATA_DIR instead of the flash's "/". Lines on stdin are what a person does:
keys ("15#"), BELL, or HOLD (the bell held 2 s). Each frame the OLED shows is
printed as a JSON line {"frame": [8 lines]}.
"""
import sys
import json
import asyncio

import fake_machine
import fake_network

sys.modules["machine"] = fake_machine
sys.modules["network"] = fake_network

import hal.esp32  # noqa: E402

fake_machine.wire(hal.esp32.PINS)
WHERE = {k: (i, j) for i, row in enumerate(("123A", "456B", "789C", "*0#D")) for j, k in enumerate(row)}
DATA_DIR = sys.argv[2]


class Board(hal.esp32.Board):
    def __init__(self, config):
        super().__init__(config)
        self.data_dir = DATA_DIR

    def show(self, lines):
        super().show(lines)
        shown = self._display.shown if self._display else None   # what the panel now holds
        sys.stdout.write(json.dumps({"frame": shown}) + "\n")


class _HalHost:
    Board = Board


sys.modules["hal.host"] = _HalHost


async def person():
    keypad = fake_machine.keypad
    bell = fake_machine.wiring[hal.esp32.PINS["bell"]]
    stdin = asyncio.StreamReader(sys.stdin)
    while True:
        line = (await stdin.readline()).decode().strip()
        if not line:
            await asyncio.sleep_ms(50)
            continue
        if line in ("BELL", "HOLD"):
            bell.value(0)
            await asyncio.sleep_ms(200 if line == "BELL" else 2000)
            bell.value(1)
            await asyncio.sleep_ms(100)
            continue
        for key in line:
            keypad.pressed = {WHERE[key]}
            await asyncio.sleep_ms(60)
            keypad.pressed = set()
            await asyncio.sleep_ms(60)


asyncio.create_task(person())
import main  # noqa: E402,F401  (runs the table app until killed)
