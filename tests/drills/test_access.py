"""Provisioning and access control (issue 7): a guest with a laptop cannot post
scores for another table, an unauthenticated client gets nothing, and the real
firmware works with its own table's credentials — against a real Mosquitto
started with the password file and ACL `party provision` wrote."""
from __future__ import annotations

import json
import logging
import stat
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hardware.sim.board import VirtualBoard
from hardware.sim.party import key_in
from party.keyed import seats_as_seen
from party.provision import hub_settings
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, start_session

pytestmark = pytest.mark.broker


class Client:
    """A paho client speaking MQTT 5, so the broker's refusals carry a reason code."""

    def __init__(self, broker, user=None, password=None):
        self.connected = threading.Event()
        self.reason = None
        self.messages: list[tuple[str, bytes]] = []
        c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if user:
            c.username_pw_set(user, password)
        c.on_connect = self._on_connect
        c.on_message = lambda cl, u, m: self.messages.append((m.topic, m.payload))
        c.connect(broker.host, broker.port)
        c.loop_start()
        self.client = c

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self.reason = reason_code
        self.connected.set()

    def wait_connected(self) -> bool:
        assert self.connected.wait(5)
        return not self.reason.is_failure

    def publish(self, topic: str, payload: bytes):
        """The broker's answer to a QoS 1 publish: its PUBACK's reason code."""
        info = self.client.publish(topic, payload, qos=1)
        info.wait_for_publish(5)
        return info

    def subscribe(self, topic: str) -> None:
        # Mosquitto 2.0 grants any subscription and applies the ACL to each delivery.
        done = threading.Event()
        self.client.on_subscribe = lambda *a: done.set()
        self.client.subscribe(topic, qos=1)
        assert done.wait(5)

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


def config(provisioned, table: int) -> dict:
    out, _ = provisioned
    return json.loads((out / "tables" / f"table-{table}" / "config.json").read_text())


def event(table: int, board: str, seq: int = 1, kind: str = "call", body=None) -> bytes:
    return json.dumps({"v": 1, "id": f"{board}.1.{seq}", "table": table, "kind": kind,
                       "body": body or {}}).encode()


@pytest.fixture
def hub(secured_broker, provisioned, tmp_path):
    out, _ = provisioned
    h = Hub(tmp_path / "journal.sqlite3", secured_broker.host, secured_broker.port,
            **hub_settings(out)).start()
    assert create_party(h, tables=3, form="draw").ok
    assert seat_guests(h, guest_names(12), seed=7).ok
    assert start_session(h, 1).ok
    yield h
    h.stop()


def wait_connected_hub(hub: Hub) -> None:
    deadline = time.monotonic() + 10
    while not hub.mqtt.is_connected():
        assert time.monotonic() < deadline, "the hub could not log in to the broker"
        time.sleep(0.05)


def test_provisioning_writes_hashed_passwords_an_acl_and_a_config_per_board(provisioned):
    out, hub_json = provisioned
    passwd = (out / "passwd").read_text()
    for n in (1, 2, 3):
        cfg = config(provisioned, n)
        assert cfg["table"] == n and cfg["board"] == cfg["user"] == f"table-{n}"
        assert cfg["password"] and cfg["password"] not in passwd  # hashed, never in clear
        assert f"table-{n}:$7$" in passwd
        assert stat.S_IMODE((out / "tables" / f"table-{n}" / "config.json").stat().st_mode) == 0o600
    assert hub_json["password"] not in passwd and stat.S_IMODE((out / "passwd").stat().st_mode) == 0o600
    acl = (out / "acl").read_text()
    table_2 = acl.split("user table-2\n")[1].split("\n\n")[0].splitlines()
    assert table_2 == ["topic write party/table/2/event", "topic write party/table/2/status",
                       "topic write party/table/2/heartbeat", "topic read party/table/2/ack",
                       "topic read party/table/2/screen", "topic read party/all/cmd",
                       "topic read party/hub/status"]
    # A second provisioning makes new passwords: an old party's boards cannot log in.
    from party.provision import provision
    assert provision(3, out.parent / "again")["password"] != hub_json["password"]


def test_an_unauthenticated_or_wrong_password_client_cannot_connect(secured_broker, provisioned):
    anonymous = Client(secured_broker)
    wrong = Client(secured_broker, "table-1", "guess")
    right = Client(secured_broker, "table-1", config(provisioned, 1)["password"])
    try:
        assert not anonymous.wait_connected() and anonymous.reason.value in (0x86, 0x87)  # bad auth / not authorized
        assert not wrong.wait_connected()
        assert right.wait_connected()
    finally:
        for c in (anonymous, wrong, right):
            c.close()


def test_a_board_publishing_as_another_table_is_refused_by_the_broker_and_never_journaled(
        secured_broker, provisioned, hub):
    wait_connected_hub(hub)
    guest = Client(secured_broker, "table-2", config(provisioned, 2)["password"])
    try:
        assert guest.wait_connected()
        rows = hub.seq
        # Table 2's credentials, table 1's topic, table 1's board id: the broker refuses it.
        info = guest.publish("party/table/1/event", event(1, "table-1"))
        assert info.rc == mqtt.MQTT_ERR_SUCCESS
        # Nor may it read another table's screens (retained: one would arrive at once) or acks.
        guest.subscribe("party/table/+/screen")
        guest.subscribe("party/table/1/ack")
        # Its own table's event on its own topic is fine: the hub journals that one.
        guest.publish("party/table/2/event", event(2, "table-2", kind="call"))
        deadline = time.monotonic() + 10
        while hub.seq == rows:
            assert time.monotonic() < deadline, "the guest's own table's event never arrived"
            time.sleep(0.05)
        time.sleep(0.5)
        sources = [e.source for e in hub.journal.events(after=rows)]
        assert sources == ["table:2"]
        assert [t for t, _ in guest.messages if t != "party/table/2/screen"] == []
        assert "party/table/2/screen" in [t for t, _ in guest.messages]  # its own: delivered
    finally:
        guest.close()


def test_an_event_from_a_board_that_is_not_the_tables_provisioned_board_is_refused(
        secured_broker, provisioned, hub, caplog):
    """Its own table's credentials (a board's password copied to a laptop) but another board id:
    the broker lets it through, the hub refuses it, logs it and does not answer."""
    wait_connected_hub(hub)
    laptop = Client(secured_broker, "table-2", config(provisioned, 2)["password"])
    try:
        assert laptop.wait_connected()
        laptop.client.subscribe("party/table/2/ack", qos=1)  # allowed: its own acks
        seq = hub.seq
        with caplog.at_level(logging.WARNING, logger="hub"):
            laptop.publish("party/table/2/event", event(2, "laptop", kind="call"))
            deadline = time.monotonic() + 5
            while "not the table's provisioned board" not in caplog.text:
                assert time.monotonic() < deadline, "the spoofed event was not refused in the log"
                time.sleep(0.05)
        time.sleep(0.5)
        assert hub.seq == seq
        assert not [m for m in laptop.messages if m[0].endswith("/ack")]  # no ack to a spoofer
    finally:
        laptop.close()


def test_the_real_firmware_works_with_its_credentials_and_not_without(secured_broker, provisioned, hub, tmp_path):
    good_cfg = config(provisioned, 1)
    good = VirtualBoard(1, secured_broker.host, secured_broker.port, data_dir=tmp_path / "b1",
                        board_id=good_cfg["board"], user=good_cfg["user"], password=good_cfg["password"])
    bad = VirtualBoard(2, secured_broker.host, secured_broker.port, data_dir=tmp_path / "b2",
                       board_id="table-2", user="table-2", password="stolen-but-wrong")
    good.start(), bad.start()
    try:
        good.wait_for("# SEAT CHECK", timeout=20)
        assert key_in(good, 0, seats_as_seen(hub.state.session.tables[1].seats))
        good.wait_for("# ENTER GAME 1", timeout=20)
        assert [e.kind for e in hub.journal.events() if e.source == "table:1"] == ["table.seat-check"]
        # Refused by the broker: the board never reads its screen, and says so.
        assert bad.wait_for("HUB?", timeout=10)
        assert "# ENTER GAME" not in bad.text
    finally:
        good.stop(), bad.stop()
