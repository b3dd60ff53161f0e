"""The HAL for the 32-bit board in the emulator: MicroPython's qemu port on an MPS2-AN385
(an Arm Cortex-M3, the heap of an ESP32 without PSRAM), hardware/sim/qemu_board.py's board.

Its parts, each on the emulated board's own hardware:
- the keypad and the bell: key tokens on UART0, read as the unix port's board reads
  them (hal/host.py: the same tokens, and MEM for a heap report);
- the display: the real SSD1306 driver drawing into its framebuffer; its I2C bus is a
  wire to the harness on UART0, which gets every transaction the panel would (the frame
  as the 1 KB burst the driver sends) and shows or reads the pixels;
- the link to the hub: JSON lines on UART1 (config "serial": "uart1"), the USB-serial
  cable of a board without WiFi (firmware/seriallink.py; hub/serial_bridge.py at the
  other end of the emulator's pty);
- the flash: a file on the host, written through by semihosting (the board's C module,
  hardware/mps2/hostfile.c), with a littlefs on it mounted at / by the board's boot.
"""
import io
import sys

from machine import mem32
from micropython import const

from drivers.ssd1306 import SSD1306
from hal.host import Board as KeysOnStdin

_UART1 = const(0x40005000)  # CMSDK APB UART1 of the MPS2 board (UART0 is the REPL's)
_DATA = const(0)
_STATE = const(4)  # bit 0: TX full, bit 1: RX full
_CTRL = const(8)  # bit 0: TX enable, bit 1: RX enable
_BAUDDIV = const(16)
_POLL = const(3)  # MP_STREAM_POLL, the ioctl asyncio's poll asks
_RD = const(1)
_WR = const(4)


class Uart(io.IOBase):
    """A CMSDK UART as a stream asyncio can wait on (its RX holds one byte)."""

    def __init__(self, base):
        self.base = base
        mem32[base + _BAUDDIV] = 16  # the smallest divisor; the emulator ignores the rate
        mem32[base + _CTRL] = 3

    def ioctl(self, req, arg):
        if req != _POLL:
            return 0
        state = mem32[self.base + _STATE]
        return (arg & _RD if state & 2 else 0) | (arg & _WR if not state & 1 else 0)

    def readinto(self, buf):
        n = 0
        while n < len(buf) and mem32[self.base + _STATE] & 2:
            buf[n] = mem32[self.base + _DATA]
            n += 1
        return n or None

    def readline(self):
        # What has arrived, up to a newline; asyncio's StreamReader asks again for the rest.
        line = bytearray()
        base = self.base
        spins = 0
        while spins < 200:  # the emulator hands the next byte over within a few reads
            if mem32[base + _STATE] & 2:
                c = mem32[base + _DATA]
                line.append(c)
                if c == 10:
                    break
                spins = 0
            else:
                spins += 1
        return bytes(line) if line else None

    def write(self, buf):
        base = self.base
        for c in buf:
            while mem32[base + _STATE] & 1:
                pass
            mem32[base + _DATA] = c
        return len(buf)


class Wire:
    """The display's I2C bus: each transaction goes to the harness on UART0 as a record
    b"\\0" + address + 2-byte length + bytes; text never holds a zero byte."""

    def __init__(self):
        self.out = sys.stdout.buffer
        self.head = bytearray(4)

    def writeto(self, addr, buf):
        self.writevto(addr, (buf,))

    def writevto(self, addr, bufs):
        n = 0
        for b in bufs:
            n += len(b)
        h = self.head
        h[1], h[2], h[3] = addr, n >> 8, n & 255
        self.out.write(h)
        for b in bufs:
            self.out.write(b)


class Board(KeysOnStdin):
    def __init__(self, config):
        super().__init__(config)
        self.board_id = config.get("board") or "qemu-%d" % config["table"]
        self.data_dir = "/"
        self._display = None
        if config.get("serial") == "uart1":
            # The link's device, the UART itself: start.py hands config["serial"] to it.
            config["serial"] = Uart(_UART1)

    def show(self, lines):
        if self._display is None:
            self._display = SSD1306(Wire())
        self._display.show_lines(lines)
