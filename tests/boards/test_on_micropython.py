"""The drivers and the ESP32/Pico W HALs run on the MicroPython unix port, with a fake
`machine` and `network` standing in for the chip (tests/boards/mp/): the glue between
pins, polling tasks, WiFi, display and watchdog, as the board runs it."""
import json
import re

import pytest

PRELUDE = """
import sys, json, asyncio
import fake_machine, fake_network
sys.modules["machine"] = fake_machine
sys.modules["network"] = fake_network
"""


@pytest.mark.parametrize("kind, prefix", [("esp32", "esp32-a1b2c3d4e5f6"), ("pico_w", "picow-a1b2c3d4e5f6")])
def test_keys_and_bell_reach_the_app_through_the_polling_tasks(micropython, kind, prefix):
    out = micropython(PRELUDE + f"""
from hal.{kind} import Board, PINS
fake_machine.wire(PINS)
board = Board({{"wifi": {{"ssid": "party", "key": "secret"}}}})
keys = []
board.start_inputs(keys.append)
where = {{"1": (0, 0), "5": (1, 1), "#": (3, 2), "D": (3, 3)}}
bell = fake_machine.wiring[PINS["bell"]]

async def person():
    for k in "15#D":
        fake_machine.keypad.pressed = {{where[k]}}
        await asyncio.sleep_ms(80)
        fake_machine.keypad.pressed = set()
        await asyncio.sleep_ms(80)
    fake_machine.keypad.pressed = {{(0, 0), (0, 1), (1, 0)}}   # mashed: a ghost appears
    await asyncio.sleep_ms(150)
    fake_machine.keypad.pressed = set()
    await asyncio.sleep_ms(80)
    bell.value(0); await asyncio.sleep_ms(200); bell.value(1); await asyncio.sleep_ms(100)
    bell.value(0); await asyncio.sleep_ms(1700); bell.value(1); await asyncio.sleep_ms(100)

asyncio.run(person())
modes = {{pid: (mode, pull) for pid, mode, pull in fake_machine.made}}
print(json.dumps({{"id": board.board_id, "keys": keys,
                   "rows": [modes[p] for p in PINS["keypad_rows"]],
                   "cols": [modes[p] for p in PINS["keypad_cols"]],
                   "bell": modes[PINS["bell"]]}}))
""")
    seen = json.loads(out)
    assert seen["id"] == prefix
    assert seen["keys"] == ["1", "5", "#", "D", "BELL", "BELL-LONG"]
    assert all(mode == 2 for mode, _ in seen["rows"])          # open-drain rows
    assert all(m == [0, 1] for m in seen["cols"] + [seen["bell"]])  # inputs, pulled up


def test_wifi_joins_and_reports_failures_as_oserror(micropython):
    out = micropython(PRELUDE + """
from hal.pico_w import Board, PINS
fake_machine.wire(PINS)
board = Board({"wifi": {"ssid": "party", "key": "secret"}})
led = fake_machine.wiring["LED"]
result = {"before": board.network_up(), "rssi_down": board.signal()}
asyncio.run(board.connect_network())
result.update(up=board.network_up(), led=led.value(), rssi=board.signal(),
              log=[list(x) if not isinstance(x[-1], dict) else [x[0], sorted(x[1].items())] for x in fake_network.log])
fake_network.WLAN._up = False
fake_network.plan["fail"] = fake_network.STAT_WRONG_PASSWORD
try:
    asyncio.run(board.connect_network())
    result["failed"] = None
except OSError as e:
    result["failed"] = str(e)
result["down"] = board.network_up()
result["led_down"] = led.value()
print(json.dumps(result))
""")
    r = json.loads(out)
    assert r["before"] is False and r["rssi_down"] is None
    assert r["up"] is True and r["led"] == 1 and r["rssi"] == -61
    assert ["connect", "party", "secret"] in r["log"]
    assert ["config", [["pm", 0x101]]] in r["log"]   # Pico W: WiFi power saving off
    assert r["failed"] == "wifi: wrong key"
    assert r["down"] is False and r["led_down"] == 0


def test_board_ids_fit_the_protocol(micropython):
    out = micropython(PRELUDE + """
from hal import esp32, pico_w
fake_machine.wire(pico_w.PINS)
fake_machine.uid[0] = bytes(range(0xe6, 0xee))    # 8 bytes, as on an RP2040
a = pico_w.Board({})
fake_machine.uid[0] = bytes(range(0xa0, 0xa6))    # 6 bytes, as on an ESP32
b = esp32.Board({})
print(json.dumps([a.board_id, b.board_id]))
""")
    ids = json.loads(out)
    assert ids == ["picow-e6e7e8e9eaebeced", "esp32-a0a1a2a3a4a5"]
    assert all(re.fullmatch(r"[a-z0-9-]{1,24}", i) for i in ids)


def test_a_provisioned_board_speaks_as_its_table_and_its_own_chip(micropython):
    # The hub accepts "table-999" and "table-999-<chip>" (hub/service.py); a spare board
    # given the same config has another chip, so its event ids never repeat the first's.
    out = micropython(PRELUDE + """
from hal import pico_w
fake_machine.wire(pico_w.PINS)
fake_machine.uid[0] = bytes(range(0xe6, 0xee))
a = pico_w.Board({"board": "table-999"})
fake_machine.uid[0] = bytes(range(0xd6, 0xde))
b = pico_w.Board({"board": "table-999"})
print(json.dumps([a.board_id, b.board_id]))
""")
    ids = json.loads(out)
    assert ids == ["table-999-e8e9eaebeced", "table-999-d8d9dadbdcdd"]
    assert all(re.fullmatch(r"[a-z0-9-]{1,24}", i) for i in ids)


def test_a_board_without_wifi_config_says_so(micropython):
    out = micropython(PRELUDE + """
from hal.esp32 import Board, PINS
fake_machine.wire(PINS)
try:
    asyncio.run(Board({"table": 3}).connect_network())
except OSError as e:
    print(e)
""")
    assert out.strip() == "wifi: not configured"


def test_wifi_that_never_joins_times_out(micropython):
    out = micropython(PRELUDE + """
import drivers.board
drivers.board.CONNECT_TIMEOUT_MS = 600
from hal.esp32 import Board, PINS
fake_machine.wire(PINS)
fake_network.plan["polls"] = 10**9
board = Board({"wifi": {"ssid": "party", "key": "secret"}})
try:
    asyncio.run(board.connect_network())
except OSError as e:
    print(e)
""")
    assert out.strip() == "wifi: timeout"


def test_display_shows_text_survives_a_loose_cable_and_skips_unchanged_frames(micropython):
    out = micropython(PRELUDE + """
from hal.esp32 import Board, PINS
fake_machine.wire(PINS)
board = Board({"wifi": {"ssid": "p", "key": "k"}})
log = fake_machine.i2c_log
board.show(["TABLE 7", "REFUSED: NOT A MULTIPLE OF 5"])
first = list(log)
del log[:]
board.show(["TABLE 7", "REFUSED: NOT A MULTIPLE OF 5"])
unchanged = len(log)
fake_machine.i2c_fails[0] = True
board.show(["TABLE 7", "HUB?"])             # cable out: no exception
fake_machine.i2c_fails[0] = False
board.show(["TABLE 7", "HUB?"])             # cable back: set up again and drawn
again = list(log)
def frame(log):   # the last frame sent (the first after set-up clears the panel's RAM)
    return [d for a, d in log if d[0] == 0x40][-1][1:]
def lit(frame, page):   # pixels lit in one 8-pixel text row (MONO_VLSB: a page is 128 bytes)
    return sum(bin(b).count("1") for b in frame[page * 128:(page + 1) * 128])
print(json.dumps({"addresses": sorted(set(a for a, _ in first)),
                  "commands": [d[1] for a, d in first if d[0] == 0x80],
                  "frame_bytes": len(frame(first)), "lit": [lit(frame(first), p) for p in range(8)],
                  "unchanged": unchanged,
                  "again_has_init": any(d == bytes((0x80, 0xAF)) for a, d in again),
                  "again_lit": [lit(frame(again), p) for p in range(8)]}))
""")
    r = json.loads(out)
    assert r["addresses"] == [0x3C]
    assert r["commands"][0] == 0xAE and 0xAF in r["commands"] and 0x8D in r["commands"]
    assert r["frame_bytes"] == 1024
    lit = r["lit"]
    assert all(lit[:3]) and not any(lit[3:])  # "TABLE 7" + the reason wrapped over two lines
    assert r["unchanged"] == 0
    assert r["again_has_init"]
    assert all(r["again_lit"][:2]) and not any(r["again_lit"][2:])  # "TABLE 7", "HUB?"


def test_watchdog_starts_on_first_feed_within_the_rp2040_limit(micropython):
    out = micropython(PRELUDE + """
from hal.pico_w import Board, PINS
fake_machine.wire(PINS)
board = Board({"wifi": {"ssid": "p", "key": "k"}})
before = len(fake_machine.wdts)
for _ in range(3):
    board.feed_watchdog()
w = fake_machine.wdts
print(json.dumps([before, len(w), w[0].timeout, w[0].fed]))
""")
    before, made, timeout, fed = json.loads(out)
    assert before == 0 and made == 1 and fed == 3
    assert timeout <= 8388


@pytest.mark.parametrize("kind", ["esp32", "pico_w"])
def test_battery_percent_from_the_divider_and_none_when_not_wired(micropython, kind):
    out = micropython(PRELUDE + f"""
from hal.{kind} import Board, PINS
fake_machine.wire(PINS)
plain = Board({{"wifi": {{"ssid": "p", "key": "k"}}}})
wired = Board({{"wifi": {{"ssid": "p", "key": "k"}}, "battery": True}})
readings = []
for cell_mv in (4200, 3750, 3300, 3000):
    fake_machine.ADC.uv[0] = cell_mv * 1000 // 2     # behind the 2:1 divider
    readings.append(wired.battery())
print(json.dumps([plain.battery(), readings]))
""")
    plain, readings = json.loads(out)
    assert plain is None
    assert readings[0] >= 99 and 45 <= readings[1] <= 55 and readings[2] == 0 and readings[3] == 0
