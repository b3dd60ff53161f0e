"""Staff actions in the replica's gap (issue 14; docs/takeover.md).

A check-in, a bell or a correction the hub journaled in the last seconds before
its machine was lost may not have reached the replica. The boards keep their own
entries for that gap; the staff's actions have no board. Their second copy is
the broker: the hub keeps, retained on `party/hub/unreplicated`, every staff
action it journaled that its replica does not hold yet (published right after
the commit, seconds before Litestream ships it). The broker must run off the
hub's machine for a takeover anyway — the boards and screens reconnect to it —
so it outlives the hub's disk; the console's browser may not (it may be the
hub's own laptop), and a second log on the hub's disk would die with it.

A hub with a replica reads that message as it starts: what it lists and the
journal lacks (after `party takeover`, what the lost hub's replica lacked) is
shown to the conductor as "not in the replica: redo or discard", and listed
there again until the conductor decides — a standby that restarts keeps it.
"""
from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt

from . import protocol
from .event import Event, Proposal

TOPIC = protocol.UNREPLICATED


def action(e: Event) -> dict:
    """A journaled staff event as the broker keeps it: enough to redo it as it was."""
    return {"id": e.id, "seq": e.seq, "at": e.at, "source": e.source, "kind": e.kind, "body": e.body}


def proposal(a: dict, source: str) -> Proposal:
    """The action redone by `source` (the conductor who redoes it: what the broker says
    of who did it first is shown, not trusted), with its own id; a draw or a movement with
    the seed the lost hub drew for it (`seed`), so it seats the room as announced."""
    body = a["body"]
    if isinstance(a.get("seed"), int) and body.get("seed") is None:   # its request takes a seed
        body = {**body, "seed": a["seed"]}
    return Proposal(a["id"], source, a["kind"], body)


class StaffGap:
    """The staff actions beyond the replica (this hub's own) and those a lost hub's
    replica lacked (inherited by a takeover, until redone or discarded)."""

    def __init__(self, inherited: list[dict] = (), own: list[dict] = ()):
        self._lock = threading.Lock()
        self.inherited: dict[str, dict] = {a["id"]: a for a in inherited}
        self._own: dict[str, dict] = {a["id"]: a for a in own}

    def journaled(self, events: list[Event]) -> bool:
        """Staff events just committed; True if the list changed."""
        staff = [e for e in events if e.source.startswith("staff:")]
        with self._lock:
            for e in staff:
                self._own[e.id] = action(e)
                self.inherited.pop(e.id, None)  # redone: in the journal now
            for e in events:
                # the seed the hub drew for a staff action (its decision `<id>/hub.<n>`)
                asked = self._own.get(e.id.split("/hub.", 1)[0]) if "/hub." in e.id else None
                if asked is not None and isinstance(e.body.get("seed"), int):
                    asked["seed"] = e.body["seed"]
        return bool(staff)

    def replicated(self, position: int) -> bool:
        """The replica holds the journal up to `position`; True if the list changed."""
        with self._lock:
            held = [i for i, a in self._own.items() if a["seq"] <= position]
            for i in held:
                del self._own[i]
        return bool(held)

    def redo(self, action_id: str, login: str) -> Proposal | None:
        """The inherited action `action_id` as the conductor `login` redoes it, to be judged
        now (None: not waiting, redone or discarded meanwhile). It leaves the list once it is
        journaled (`journaled`)."""
        with self._lock:
            waiting = self.inherited.get(action_id)
        return None if waiting is None else proposal(waiting, f"staff:{login}")

    def discard(self, action_id: str) -> dict | None:
        with self._lock:
            return self.inherited.pop(action_id, None)

    def waiting(self) -> list[dict]:
        """The inherited actions the conductor has still to redo or discard, oldest first."""
        with self._lock:
            return sorted(self.inherited.values(), key=lambda a: a["at"])

    def payload(self) -> bytes:
        with self._lock:
            actions = list(self.inherited.values()) + list(self._own.values())
        return protocol.encode({"v": protocol.VERSION, "actions": actions})


def read_unreplicated(host: str, port: int, username: str | None = None, password: str | None = None,
                      timeout: float = 5.0) -> list[dict]:
    """The staff actions a lost hub left retained on the broker ([] if none, or no broker)."""
    got: list[dict] = []
    done, subscribed = threading.Event(), threading.Event()

    def on_message(client, userdata, msg):
        try:
            doc = json.loads(msg.payload)
            got.extend(a for a in doc.get("actions", [])
                       if isinstance(a, dict) and {"id", "source", "kind", "body", "at"} <= a.keys())
        except (ValueError, AttributeError):
            pass
        done.set()

    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="hub-takeover")
    if username:
        c.username_pw_set(username, password)
    c.on_connect = lambda client, *a: client.subscribe(TOPIC, 1)
    c.on_message = on_message
    c.on_subscribe = lambda *a: subscribed.set()
    try:
        c.connect(host, port, keepalive=10)
    except OSError:
        return []
    c.loop_start()
    # The broker sends a retained message right behind its SUBACK: none soon after, none at all.
    if subscribed.wait(timeout):
        done.wait(1.0)
    c.disconnect()
    c.loop_stop()
    return got
