# MicroPython runs main.py at boot, as source: all of the boot is in start.py.
import start
