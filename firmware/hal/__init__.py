# The hardware layer: one Board class per target, all with this interface, so
# the app and the MQTT client run unchanged on ESP32, Pico W and the unix port.
#
# class Board:
#     __init__(self, config: dict)      # the parsed /config.json
#     board_id: str                     # [a-z0-9-]{1,24}, e.g. "esp32-a1b2c3"
#     data_dir: str                     # where the outbox file lives (flash)
#     async connect_network(self) -> None
#         returns when the link is up (host: at once); raises OSError on failure
#     network_up(self) -> bool
#     start_inputs(self, on_key) -> None
#         creates asyncio tasks that poll the keypad and the bell button with
#         debouncing (no IRQs) and call on_key(key), key one of "0".."9",
#         "A".."D", "*", "#", "BELL" (short press), "BELL-LONG" (long press)
#     show(self, lines: list) -> None   # up to 8 lines of 16 characters
#         (SSD1306 128x64, 8x8 font)
#     feed_watchdog(self) -> None       # called by the app's tick while every loop lives
#     signal(self) -> int | None        # WiFi RSSI in dBm
#     battery(self) -> int | None       # percent
#     log(self, msg: str) -> None       # optional; print() where missing
import sys


def board_class():
    # Imported lazily: each target's module imports hardware the others lack.
    if sys.platform == "esp32":
        from hal.esp32 import Board
    elif sys.platform == "rp2":
        from hal.pico_w import Board
    else:
        from hal.host import Board
    return Board
