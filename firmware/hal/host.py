# The unix-port board: keys arrive on stdin, frames leave on stdout as JSON
# lines ({"frame": [...]}) for tests, simulators and people; logs go to stderr.
# A frame's lines are laid out as the panel's driver lays them out (lines.layout:
# 8 lines of 16, a character the 8x8 font lacks made "?"), so they are the text a
# board's panel draws.
# Each stdin line holds key tokens: single characters ("12#") and the words
# BELL / BELL-LONG, separated by spaces where needed. The word MEM asks for a
# heap report ({"mem": {...}} on stdout, after a line of micropython.qstr_info()),
# which bench/firmware_bench.py reads; PIX for the pixels of the frame shown,
# drawn then by the display driver into its framebuffer (drivers/ssd1306.py's
# Panel), as {"pixels": hex of its 1024 bytes}, for hardware/sim/display.py.
# The framebuffer (1 KB) is not kept between requests: the heap figures stay
# those of the firmware's own state (docs/firmware.md, "Virtual boards").
import asyncio
import gc
import json
import sys

from micropython import const, qstr_info

from lines import layout

# Constants the compiler inlines (a leading _ keeps them out of the globals and the
# interned names): no heap.
_KEYS = const("0123456789ABCD*#")
_WORDS = const(("BELL-LONG", "BELL", "MEM", "PIX"))


class Board:
    def __init__(self, config):
        self.board_id = config.get("board") or "sim-%d" % config["table"]
        self.data_dir = config.get("data_dir") or "."
        self.fed = 0
        self.frame = ""  # the lines shown, as laid out, in one string (a list of 8 costs more heap)

    async def connect_network(self):
        pass  # the host's network is always up; a broker outage is the drill

    def network_up(self):
        return True

    def start_inputs(self, on_key):
        asyncio.create_task(self._keys(on_key))

    async def _keys(self, on_key):
        # StreamReader polls fd 0 through the asyncio loop: never blocks it.
        stdin = asyncio.StreamReader(sys.stdin)
        while True:
            line = await stdin.readline()
            if not line:
                return  # stdin closed: no more keys, the board keeps running
            try:
                keys = tokens(line.decode())
            except MemoryError:
                # A passing spike (a resend burst on a fragmented heap): let the
                # other tasks run and read the line again, never lose the task.
                gc.collect()
                await asyncio.sleep_ms(50)
                keys = tokens(line.decode())
            for key in keys:
                if key == "MEM":
                    gc.collect()
                    qstr_info()  # a line "qstr pool: n_pool=.., n_qstr=.." (the interned names), then the report
                    self._out({"mem": {"alloc": gc.mem_alloc(), "free": gc.mem_free(), "fed": self.fed}})
                elif key == "PIX":
                    # drawn by the display driver as a board draws the frame; imported on
                    # the first request only (by tests), so the heap's figures are without it
                    from binascii import hexlify
                    from drivers.ssd1306 import Panel
                    panel = Panel()
                    panel.show_lines(self.frame.split("\n"))
                    out = sys.stdout
                    out.write('{"pixels": "')
                    for i in range(0, len(panel.buffer), 32):  # in pieces: no 2 KB block asked of the heap
                        out.write(hexlify(bytes(panel.buffer[i:i + 32])).decode())
                    out.write('"}\n')
                    out.flush()
                    panel = out = None
                else:
                    on_key(key)

    def show(self, lines):
        lines = layout(lines)
        shown = "\n".join(lines)
        if shown != self.frame:  # a frame that draws as the one shown is not drawn again
            self.frame = shown
            self._out({"frame": lines})

    def _out(self, data):
        sys.stdout.write(json.dumps(data))
        sys.stdout.write("\n")
        if hasattr(sys.stdout, "flush"):
            sys.stdout.flush()

    def feed_watchdog(self):
        self.fed += 1

    def signal(self):
        return None

    def battery(self):
        return None

    def log(self, msg):
        sys.stderr.write(msg + "\n")


def tokens(line):
    """'12# BELL' -> ['1', '2', '#', 'BELL']; unknown characters are ignored."""
    out = []
    for word in line.upper().split():
        if word in _WORDS:
            out.append(word)
            continue
        for ch in word:
            if ch in _KEYS:
                out.append(ch)
    return out
