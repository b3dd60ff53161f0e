# The unix-port board: keys arrive on stdin, frames leave on stdout as JSON
# lines ({"frame": [...]}) for tests, simulators and people; logs go to stderr.
# Each stdin line holds key tokens: single characters ("12#") and the words
# BELL / BELL-LONG, separated by spaces where needed. The word MEM asks for a
# heap report ({"mem": {...}} on stdout, after a line of micropython.qstr_info()),
# which bench/firmware_bench.py reads.
import asyncio
import gc
import json
import sys

from micropython import const, qstr_info

# Constants the compiler inlines (a leading _ keeps them out of the globals and the
# interned names): no heap.
_KEYS = const("0123456789ABCD*#")
_WORDS = const(("BELL-LONG", "BELL"))


class Board:
    def __init__(self, config):
        self.board_id = config.get("board") or "sim-%d" % config["table"]
        self.data_dir = config.get("data_dir") or "."
        self.fed = 0

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
                else:
                    on_key(key)

    def show(self, lines):
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
        if word in _WORDS or word == "MEM":
            out.append(word)
            continue
        for ch in word:
            if ch in _KEYS:
                out.append(ch)
    return out
