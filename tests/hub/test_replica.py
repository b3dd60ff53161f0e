"""The journal replicated with Litestream beside the hub (issue 14; docs/takeover.md):
the replica restores to the same events, the hub tells the boards and the console
how far it holds the journal, and says so when it falls behind."""
import json
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from hub import protocol
from hub.conductor.events import BELL, GUEST_LISTED
from hub.gap import read_unreplicated
from hub.journal import Journal, open_reader, read_events
from hub.replica import ReplicaError, litestream, replica_url, restore
from hub.service import Hub
from party.setup import create_party, guest_names, seat_guests, staff_action, start_session

pytestmark = pytest.mark.broker


def wait(test, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not (got := test()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)
    return got


def retained_status(broker) -> dict:
    got, done = {}, threading.Event()

    def on_message(client, userdata, msg):
        got.update(json.loads(msg.payload))
        done.set()
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    c.on_connect = lambda client, *a: client.subscribe(protocol.HUB_STATUS, 1)
    c.on_message = on_message
    c.connect(broker.host, broker.port)
    c.loop_start()
    done.wait(5)
    c.disconnect()
    c.loop_stop()
    return got


def events(path):
    db = open_reader(path)
    try:
        return [(e.seq, e.id, e.kind, e.body) for e in read_events(db)]
    finally:
        db.close()


@pytest.fixture
def replicated_hub(broker, tmp_path):
    hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port, replica=str(tmp_path / "usb-stick"),
              replica_sync_s=0.2)
    hub.replica.probe_s = 0.3
    hub.start()
    assert hub.listening.wait(10)
    yield hub
    if not hub.stopping:
        hub.stop()


def test_the_replica_restores_the_journal_and_the_hub_says_how_far_it_holds(replicated_hub, broker, tmp_path):
    hub = replicated_hub
    assert create_party(hub, tables=3, form="draw").ok
    assert seat_guests(hub, guest_names(12), seed=1).ok
    wait(lambda: hub.replica.position == hub.seq)
    lag = hub.replica_lag(time.time())
    assert (lag.position, lag.behind, lag.seconds, lag.warning) == (hub.seq, 0, 0.0, None)
    # The boards are told: entries up to here are safe beyond the hub's disk.
    assert wait(lambda: (s := retained_status(broker)).get("safe") == hub.seq and s)["state"] == "online"

    copy = tmp_path / "standby" / "journal.sqlite3"
    assert restore(replica_url(str(tmp_path / "usb-stick")), copy) == hub.seq
    assert events(copy) == events(hub.journal.path)
    assert Journal(copy).restored() is None  # restored, not yet taken over: `party takeover` marks it


def test_the_console_is_warned_when_the_replica_stops(replicated_hub, monkeypatch):
    hub = replicated_hub
    assert create_party(hub, tables=2, form="draw").ok
    wait(lambda: hub.replica.position == hub.seq)
    hub.replica._proc.kill()  # Litestream dies (the USB stick pulled out, a crash)
    hub.replica._proc.wait()
    assert seat_guests(hub, guest_names(8), seed=1).ok
    lag = hub.replica_lag(time.time() + 1)
    assert lag.behind > 0 and "litestream stopped" in lag.warning


def test_a_replica_that_falls_behind_is_named_with_its_lag(replicated_hub, monkeypatch):
    hub = replicated_hub
    assert create_party(hub, tables=2, form="draw").ok
    wait(lambda: hub.replica.position == hub.seq)
    hub.replica._stop.set()  # no more reading: the position stays where it is
    assert seat_guests(hub, guest_names(8), seed=1).ok
    lag = hub.replica_lag(time.time() + 60)
    assert lag.behind > 0 and lag.seconds >= 59 and "behind" in lag.warning


def test_a_hub_started_again_keeps_its_staff_action_on_the_broker_until_the_replica_holds_it(
        replicated_hub, broker, tmp_path):
    # The drills' machine-lost found it: a host's action journaled, the hub stopped and
    # started again before Litestream shipped it, then the machine lost. The broker's copy
    # (hub/gap.py) is all a standby has left; the hub started again must not drop it.
    hub = replicated_hub
    assert create_party(hub, tables=2, form="draw").ok
    wait(lambda: hub.replica.position == hub.seq)
    hub.replica._proc.kill()   # Litestream dies before it ships the next action
    hub.replica._proc.wait()
    action = staff_action(hub, GUEST_LISTED, {"guest": "Late Lottie"})
    assert action.ok
    listed = action.events[0]
    hub.stop()
    again = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port, replica=str(tmp_path / "usb-stick"),
                replica_sync_s=0.2)
    again.replica.probe_s = 3600   # the replica not read yet: nothing says it holds the action
    again.start()
    try:
        assert again.listening.wait(10)
        wait(lambda: retained_status(broker).get("safe") == 0)   # this hub has connected and published
        kept = {a["id"]: a["seq"] for a in read_unreplicated(broker.host, broker.port)}
        assert kept == {listed.id: listed.seq}
        wait(lambda: again.replica.probe() >= listed.seq)   # its Litestream shipped it: the broker's copy goes
        wait(lambda: not read_unreplicated(broker.host, broker.port))
    finally:
        again.stop()


def test_restore_refuses_to_overwrite_and_names_a_missing_replica(tmp_path):
    assert litestream()
    taken = tmp_path / "journal.sqlite3"
    taken.write_bytes(b"")
    with pytest.raises(ReplicaError, match="exists"):
        restore(replica_url(str(tmp_path / "replica")), taken)
    with pytest.raises(ReplicaError, match="litestream restore"):
        restore(replica_url(str(tmp_path / "nothing-here")), tmp_path / "new.sqlite3")


def test_after_a_takeover_the_lost_hubs_entries_come_back_in_its_order_before_anything_new(
        make_hub, table, tmp_path):
    # Entries the lost hub acknowledged beyond the replica, sent back by their boards with
    # its seq (docs/protocol.md), in any order across tables: journaled in the lost hub's
    # order; the console told to wait and a new entry held until every table has sent
    # back what it kept (its heartbeat behind its entries: hub/rebuild.py).
    hub = make_hub(tables=3)
    hub.stop()
    j = Journal(tmp_path / "journal.sqlite3")
    restored = j.mark_restored(time.time())  # what `party takeover` does after the restore
    j.close()
    standby = make_hub()
    t1, t2, t3 = table(1), table(2), table(3)
    second = t1.send("call", {}, seq=restored + 2)
    assert t1.no_ack(within=1.5)   # its turn has not come
    assert staff_action(standby, BELL, {"meaning": "finish"}).why == "REBUILDING"
    first = t2.send("call", {}, seq=restored + 1)
    assert (t2.ack_for(first)["seq"], t1.ack_for(second)["seq"]) == (restored + 1, restored + 2)
    new = t3.send("call", {})
    assert t3.no_ack(within=1.5)   # new: it waits for the rebuild
    for t in (t1, t2, t3):
        t.heartbeat()
    # Each table's client sends on its own thread: the hub may take the resend before
    # another table's heartbeat, hold it unanswered, and a board would send it again at
    # its next resend; this table sends once, when every table has been heard.
    wait(lambda: not standby.replication.rebuilding())
    t3.send("call", {}, event_id=new)   # the board's resend
    assert t3.ack_for(new)["seq"] == restored + 3
    assert staff_action(standby, BELL, {"meaning": "finish"}).why != "REBUILDING"


