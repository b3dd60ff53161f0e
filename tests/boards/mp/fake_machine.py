"""A stand-in for MicroPython's `machine` on the unix port: pins, I2C, ADC and WDT that record.

Installed as sys.modules["machine"] by the HAL tests before the HAL is imported.
"""
from fakematrix import FakeMatrix

OUT, IN, OPEN_DRAIN, PULL_UP = 1, 0, 2, 1
keypad = FakeMatrix()
wiring = {}        # pin id -> the fake pin it is (set by wire())
made = []          # every Pin() made: (id, mode, pull)
i2c_log = []       # every I2C transfer, as (address, bytes)
i2c_fails = [False]
wdts = []


class _Level:
    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


def wire(pins):
    """Connect the fake keypad, bell and LED to the HAL's pin map."""
    for pid, pin in zip(pins["keypad_rows"], keypad.rows):
        wiring[pid] = pin
    for pid, pin in zip(pins["keypad_cols"], keypad.cols):
        wiring[pid] = pin
    wiring[pins["bell"]] = _Level(1)
    wiring[pins["status_led"]] = _Level(0)


class Pin:
    OUT, IN, OPEN_DRAIN, PULL_UP = OUT, IN, OPEN_DRAIN, PULL_UP

    def __init__(self, pid, mode=-1, pull=-1, value=None):
        made.append((pid, mode, pull))
        self.pin = wiring.setdefault(pid, _Level(1))
        if value is not None:
            self.pin.value(value)

    def value(self, v=None):
        return self.pin.value(v)


class I2C:
    def __init__(self, bus, sda=None, scl=None, freq=0):
        self.bus = bus

    def writeto(self, address, buf):
        self._io(address, bytes(buf))

    def writevto(self, address, bufs):
        self._io(address, b"".join(bytes(b) for b in bufs))

    def _io(self, address, data):
        if i2c_fails[0]:
            raise OSError(19)  # ENODEV: nothing answers at that address
        i2c_log.append((address, data))


class ADC:
    ATTN_11DB = 3
    uv = [0]

    def __init__(self, pin):
        self.attenuation = None

    def atten(self, a):
        self.attenuation = a

    def read_uv(self):
        return ADC.uv[0]

    def read_u16(self):
        return ADC.uv[0] * 65535 // 3300000


class WDT:
    def __init__(self, timeout):
        self.timeout = timeout
        self.fed = 0
        wdts.append(self)

    def feed(self):
        self.fed += 1


uid = [b"\xa1\xb2\xc3\xd4\xe5\xf6"]   # an ESP32's is its 6-byte MAC; an RP2040's flash id has 8


def unique_id():
    return uid[0]
