"""A virtual table a person drives from a terminal: the real firmware on the
MicroPython unix port, its display drawn as on the device (8 lines of 16).

    python -m hardware.sim.terminal --table 3 --broker 127.0.0.1:1883

Keys: 0-9, A-D (or a-d), * and #; space = bell (short press), ! = bell held
(long press: call the conductor); q quits. Enter also means #, since a person at
a keyboard expects it. Without a terminal (a pipe), each line is a key string.
"""
from __future__ import annotations

import argparse
import sys
import threading

from hardware.sim.board import DEFAULT_HEAP, VirtualBoard

KEYMAP = {" ": "BELL", "!": "BELL-LONG", "\r": "#", "\n": "#"}


def draw(lines: list[str], out=sys.stdout) -> None:
    rows = (list(lines) + [""] * 8)[:8]
    out.write("\x1b[H\x1b[2J" if out.isatty() else "\n")
    out.write("+" + "-" * 16 + "+\n")
    for r in rows:
        out.write("|" + r[:16].ljust(16) + "|\n")
    out.write("+" + "-" * 16 + "+\n")
    out.write("keys 0-9 A-D * #   space=bell  !=call  q=quit\n")
    out.flush()


def key_for(ch: str) -> str | None:
    if ch in KEYMAP:
        return KEYMAP[ch]
    ch = ch.upper()
    return ch if ch in "0123456789ABCD*#" else None


def read_keys(board: VirtualBoard) -> None:
    if not sys.stdin.isatty():
        for line in sys.stdin:
            board.press(line.strip())
        return
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while (ch := sys.stdin.read(1)) and ch not in "qQ\x04":
            key = key_for(ch)
            if key:
                board.press(key)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--table", type=int, required=True)
    p.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT")
    p.add_argument("--board", help="board id (default sim-<table>)")
    p.add_argument("--data-dir", help="the board's flash: outbox and boot counter (default: a new temp dir)")
    p.add_argument("--heapsize", default=DEFAULT_HEAP)
    a = p.parse_args(argv)
    host, _, port = a.broker.rpartition(":")
    board = VirtualBoard(a.table, host or "127.0.0.1", int(port), a.data_dir, a.board, a.heapsize)
    lock = threading.Lock()

    def redraw(lines):
        with lock:
            draw(lines)

    board.on_frame = redraw
    board.start()
    try:
        read_keys(board)
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()


if __name__ == "__main__":
    main()
