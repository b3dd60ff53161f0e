"""The virtual table a person drives from a terminal draws the device's display."""
import subprocess
import sys
import time


def test_terminal_table_draws_the_display_and_takes_keys(broker, hub):
    hub.screen(7)
    p = subprocess.Popen([sys.executable, "-m", "hardware.sim.terminal", "--table", "7",
                          "--broker", f"{broker.host}:{broker.port}"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        seen = []
        deadline = time.monotonic() + 15
        pressed = False
        for line in p.stdout:
            seen.append(line.rstrip("\n"))
            if not pressed and "|# ENTER GAME 2  |" in line:
                p.stdin.write("#\n")  # a line of keys, as typed
                p.stdin.flush()
                pressed = True
            if "|A SPOTS         |" in line or time.monotonic() > deadline:
                break
        assert "|A SPOTS         |" in seen, seen[-12:]
        assert "+----------------+" in seen  # drawn as a 16-column box
    finally:
        p.stdin.close()
        p.wait(10)
