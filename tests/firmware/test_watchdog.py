"""The tick feeds the watchdog only while every loop is alive, so a hung loop
ends in a hardware reset (firmware/pump.py, tick)."""
import subprocess

from hardware.sim.board import build, tool

SCRIPT = """
import asyncio, sys
sys.path.append(%(code)r)
from time import ticks_add, ticks_ms
from app import TableApp
from outbox import Outbox
import pump

class Board:
    fed = 0
    def feed_watchdog(self): self.fed += 1
    def show(self, lines): pass

class Link:
    beat = ticks_ms()
    def isconnected(self): return True

async def main():
    board = Board()
    app = TableApp(board, Outbox(%(data)r, "sim-1"), {"table": 1})
    app.client = Link()
    asyncio.create_task(pump.tick(app))
    app.pump_beat = ticks_ms()
    await asyncio.sleep_ms(2500)
    alive = board.fed
    Link.beat = ticks_add(ticks_ms(), -60000)  # the link's loop has hung
    await asyncio.sleep_ms(100)
    board.fed = 0
    await asyncio.sleep_ms(2500)
    link_hung = board.fed
    Link.beat = ticks_ms()
    app.pump_beat = ticks_add(ticks_ms(), -60000)  # the pump's loop has hung
    await asyncio.sleep_ms(100)
    board.fed = 0
    await asyncio.sleep_ms(2500)
    print(alive, link_hung, board.fed)
asyncio.run(main())
"""


def test_watchdog_is_fed_only_while_every_loop_is_alive(tmp_path):
    script = SCRIPT % {"code": str(build()), "data": str(tmp_path)}
    out = subprocess.run([tool("micropython"), "-c", script], capture_output=True, text=True,
                         timeout=20, env={"MICROPYPATH": ".frozen"})
    assert out.returncode == 0, out.stderr + out.stdout
    alive, link_hung, pump_hung = map(int, out.stdout.split())
    assert alive >= 2 and link_hung == 0 and pump_hung == 0
