"""deploy/mosquitto.conf, the production broker configuration, is one Mosquitto
accepts: started on a free port with its paths pointed at a provisioned
directory, it refuses anonymous clients, lets the hub in, and keeps a table's
retained screen across an orderly restart (persistence)."""
from __future__ import annotations

import json
import re
import subprocess
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from party.broker import executable, free_port, wait_for_port

from .conftest import as_root_lines

CONF = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto.conf"

pytestmark = pytest.mark.broker


def local_conf(tmp_path: Path, provisioned_dir: Path, port: int) -> Path:
    text = CONF.read_text()
    text = text.replace("/etc/party/", f"{provisioned_dir}/")
    text = text.replace("persistence_location /var/lib/mosquitto/", f"persistence_location {tmp_path}/")
    text = re.sub(r"(?m)^listener 1883$", f"listener {port} 127.0.0.1", text)
    text = text.replace("log_dest syslog", "log_dest stderr")
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(text + as_root_lines())
    return conf


def start(conf: Path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([executable(), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port("127.0.0.1", port, timeout=10)
    except TimeoutError:
        proc.kill()
        raise AssertionError(f"mosquitto refused deploy/mosquitto.conf: {proc.stderr.read().decode()}")
    return proc


def connect(port: int, user=None, password=None) -> tuple[mqtt.Client, object]:
    result, done = [], threading.Event()
    c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    if user:
        c.username_pw_set(user, password)
    c.on_connect = lambda cl, u, f, rc, p: (result.append(rc), done.set())
    c.connect("127.0.0.1", port)
    c.loop_start()
    assert done.wait(5)
    return c, result[0]


def test_mosquitto_accepts_the_production_config_and_it_does_what_its_comments_say(tmp_path, provisioned):
    if executable() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    out, hub_json = provisioned
    text = CONF.read_text()
    for setting in ("persistence true", "max_queued_messages 100000", "set_tcp_nodelay true",
                    "allow_anonymous false", "password_file /etc/party/passwd", "acl_file /etc/party/acl"):
        assert re.search(rf"(?m)^{re.escape(setting)}$", text), setting
    port = free_port()
    conf = local_conf(tmp_path, out, port)
    proc = start(conf, port)
    try:
        anonymous, rc = connect(port)
        anonymous.loop_stop()
        assert rc.is_failure
        hub, rc = connect(port, "hub", hub_json["password"])
        assert not rc.is_failure
        hub.publish("party/table/1/screen", b'{"v":1,"lines":["KEPT"]}', qos=1, retain=True).wait_for_publish(5)
        hub.loop_stop()
        hub.disconnect()
    finally:
        proc.terminate()  # an orderly stop writes the persistence file
        proc.wait(10)
    proc = start(conf, port)
    try:
        got, done = [], threading.Event()
        board_cfg = json.loads((out / "tables" / "table-1" / "config.json").read_text())
        board, rc = connect(port, board_cfg["user"], board_cfg["password"])
        assert not rc.is_failure
        board.on_message = lambda c, u, m: (got.append(m.payload), done.set())
        board.subscribe("party/table/1/screen", qos=1)
        assert done.wait(5), "the retained screen did not survive the restart"
        assert got == [b'{"v":1,"lines":["KEPT"]}']
        board.loop_stop()
        board.disconnect()
    finally:
        proc.terminate()
        proc.wait(10)
