"""The firmware core (app, MQTT client, outbox) runs on the real ESP32 HAL: keys scanned
from the (fake) keypad matrix, the bell polled, frames drawn on the (fake) OLED, WiFi
joined through the HAL, against a real broker. This is the HAL interface both sides
implement, exercised end to end on the MicroPython unix port."""
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "firmware"
FORM = {"game": 2, "title": "GAME 2", "fields": [
    {"k": "A", "label": "A SPOTS", "min": 0, "max": 200},
    {"k": "B", "label": "B SPOTS", "min": 0, "max": 200},
]}

pytestmark = pytest.mark.skipif(not (FIRMWARE / "main.py").exists(),
                                reason="needs the firmware core (firmware/main.py)")


class Table:
    """The board process: keys in on stdin, OLED frames out on stdout."""

    def __init__(self, micropython, config, tmp_path):
        (tmp_path / "data").mkdir()
        (tmp_path / "config.json").write_text(json.dumps(config))
        self.frames, self._cond = [], threading.Condition()
        self.proc = subprocess.Popen(
            [micropython, str(HERE / "mp" / "esp32_table.py"), str(tmp_path / "config.json"), str(tmp_path / "data")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
            env=dict(os.environ, MICROPYPATH=f"{FIRMWARE}:{HERE / 'mp'}:.frozen"))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            if line.startswith("{"):
                with self._cond:
                    self.frames.append(json.loads(line).get("frame"))
                    self._cond.notify_all()

    def do(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, text, timeout=10):
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (self.frames and self.frames[-1] and any(text in l for l in self.frames[-1])):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{text!r} not on the display; last frames {self.frames[-3:]}, "
                                       f"stderr {self.proc.stderr.read1() if hasattr(self.proc.stderr, 'read1') else ''}")
                self._cond.wait(0.1)

    def stop(self):
        self.proc.kill()
        self.proc.wait(5)


class Hub:
    """Just enough hub: retained status and screen, and every event it receives."""

    def __init__(self, host, port):
        self.events, self._cond = [], threading.Condition()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="boards-test-hub")
        self.c.on_message = self._on_message
        self.c.connect(host, port, keepalive=10)
        self.c.subscribe("party/table/+/event", 1)
        self.c.loop_start()
        self.c.publish("party/hub/status", json.dumps({"v": 1, "state": "online"}), 1, True).wait_for_publish(5)

    def _on_message(self, client, userdata, msg):
        with self._cond:
            self.events.append(json.loads(msg.payload))
            self._cond.notify_all()

    def screen(self, table):
        s = {"v": 1, "seq": 1, "table": table, "state": "playing", "lines": [f"TABLE {table}", "SESSION 1"],
             "bell": None, "form": FORM}
        self.c.publish(f"party/table/{table}/screen", json.dumps(s), 1, True).wait_for_publish(5)

    def ack(self, ev, **verdict):
        self.c.publish(f"party/table/{ev['table']}/ack", json.dumps({"v": 1, "id": ev["id"], **verdict}), 1)

    def wait_event(self, kind, timeout=10):
        deadline = time.monotonic() + timeout
        with self._cond:
            while not [e for e in self.events if e["kind"] == kind]:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no {kind} event; got {self.events}")
                self._cond.wait(0.1)
            return [e for e in self.events if e["kind"] == kind][0]

    def stop(self):
        self.c.loop_stop()
        self.c.disconnect()


@pytest.fixture
def hub(broker):
    h = Hub(broker.host, broker.port)
    yield h
    h.stop()


def test_a_result_keyed_and_the_bell_on_the_esp32_hal_reach_the_hub(broker, hub, tmp_path, micropython_bin):
    hub.screen(7)
    table = Table(micropython_bin, {"table": 7, "wifi": {"ssid": "party", "key": "k"}, "broker": broker.host,
                   "port": broker.port, "keepalive": 5, "resend_s": 2}, tmp_path)
    try:
        table.wait_for("ENTER GAME 2", timeout=15)
        for keys in ("#", "15#", "5#"):
            table.do(keys)
        table.wait_for("SEND", timeout=10)
        table.do("#")
        ev = hub.wait_event("result")
        assert ev["id"].startswith("esp32-a1b2c3d4e5f6.")   # the HAL's board id from machine.unique_id()
        assert ev["table"] == 7 and ev["body"] == {"game": 2, "values": {"A": 15, "B": 5}}
        hub.ack(ev, ok=True, seq=1, msg="GAME 2 SAVED")
        table.wait_for("GAME 2 SAVED")
        table.do("BELL")
        assert hub.wait_event("bell")["table"] == 7
        table.do("HOLD")
        assert hub.wait_event("call")["table"] == 7
    finally:
        table.stop()
