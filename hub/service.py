"""The hub: tables' events in over MQTT, judged, journaled, acknowledged.

One writer thread owns the journal, the party state and the link to the broker
(hub/edge.py: it runs paho's network loop itself). Inputs — table events read
from the broker, actions from the console — queue up for it; it takes them in
batches, judges each against the state folded so far, appends the admitted
events in one durable transaction, and only then acknowledges and publishes
what changed (acks, retained screens, the bell). Everything the hub shows is
derived from the journal; a restarted hub replays it and carries on.
"""
# Why so long: the Hub is still the writer's loop, its batch policy and every edge around it,
# until issue 21's batch step takes the policy out as a pure function.
from __future__ import annotations

import logging
import queue
import socket
import sys
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from paho.mqtt.enums import CallbackAPIVersion

from . import conductor, edge, protocol
from .batch import HUB_ERROR, LocalInput, TableInput, admit_batch
from .changes import Changes
from .event import Proposal, Verdict
from .position_cache import PositionCache
from .rebuild import REBUILD_MAX_S, Heard
from .publishing import Publisher
from .reading import Reading
from .replication import Replication
from .runs import Runs
from .startup import JournalFailsAudit, OwnRows, open_party
from .tail import Tail
from .telemetry import Boards

__all__ = ["Hub", "TableInput", "JournalFailsAudit", "INPUT_QOS", "BATCH_MAX"]

log = logging.getLogger("hub")

BATCH_MAX = 512  # inputs judged and committed together; bounds a batch's latency
# Acks, screens and the bell's broadcast go at QoS 0 (edge.REPLY_QOS, `Client.reply`):
# what makes them safe is the protocol, not the hop (docs/protocol.md) — a board resends an
# unacked event until its ack comes, and the hub republishes every screen after a reconnect.
# At QoS 1 paho kept each of them until the broker's PUBACK and walked all those
# in flight on every PUBACK: a tenth of the hub's CPU in a rush (docs/performance.md).
# The tables' events reach the hub at QoS 0 too (a board publishes them at QoS 1;
# the broker's PUBACK frees the board's link, not its outbox). With clean sessions
# the broker forgets a QoS 1 message in flight to the hub when the hub's link drops,
# so QoS 1 on this hop kept nothing that QoS 0 loses: the board's resend until the
# hub's ack keeps an entry. QoS 1 cost a PUBACK per event and let the broker send
# the hub only so many unacknowledged at once (Mosquitto's max_inflight_messages,
# 20 by default): the first batch of a rush was those 20.
INPUT_QOS = 0
SWITCH_S = 0.001   # the interpreter's switch interval in a hub's process (Python's default: 0.005)


@dataclass(frozen=True)
class _LocalInput(LocalInput):
    reply: Future = field(compare=False)


class _Republish:
    """After a (re)connect: the broker may have lost retained screens."""


class Hub(Reading):   # the screens' read calls: hub/reading.py
    REBUILD_S = REBUILD_MAX_S  # after a takeover, new entries wait at most this long (hub/rebuild.py)
    def __init__(self, journal_path: str | Path, broker_host: str, broker_port: int, *,
                 username: str | None = None, password: str | None = None, client_id: str = "hub",
                 boards: dict[int, str] | None = None, replica: str | None = None, replica_sync_s: float = 1.0,
                 audit: bool = True):
        self.journal, self.state = open_party(journal_path, audit)
        self.seq = self.journal.last_seq()
        # its own rows marked audited, for a restart to fold: only after an audited start-up
        self._own_rows = OwnRows(self.journal, self.seq) if audit else None
        self.runs = Runs(journal_path)   # the runs before this one, for the console after a restart
        # With provisioning (party/provision.py): the one board allowed to speak for each table.
        self.provisioned_boards = boards
        self.boards = Boards()   # what the boards say of themselves (hub/telemetry.py)
        self.cache = PositionCache()   # the standings and the web's views of them, once a seq
        self.tail = Tail()   # where the time of each batch went, and the process's pauses (hub/tail.py)
        self.journal.checkpoints.noted = self.tail.checkpointed
        # SimpleQueue: put and get in C, no Python-level lock per message on the MQTT thread
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._stopping = threading.Event()
        self.changes = Changes(lambda: self.seq, self._stopping)   # what the screens wait on (hub/changes.py)
        # Set while the broker has granted the hub's subscription to the tables' inputs: a
        # table's event published before it is not delivered (a board resends it; a tool
        # that never resends waits for this first).
        self.listening = threading.Event()
        self._writer = threading.Thread(target=self._write_loop, name="hub-writer", daemon=True)
        self.mqtt = self._make_client(broker_host, broker_port, username, password, client_id)
        self._link = edge.Link(self.mqtt, self._heard)   # driven by the writer thread
        self.publisher = Publisher(self.mqtt, self.journal)
        self.replication = Replication(self.journal, replica, replica_sync_s, self.mqtt, self._stopping)
        self._account = (username, password)
        self.broker_address = (broker_host, broker_port)

    # ----- life cycle -------------------------------------------------------
    def start(self) -> "Hub":
        # The writer lets go of the interpreter at each system call (SQLite, the socket) and
        # must win it back from the threads making the screens' views: at Python's 5 ms a
        # switch, a batch's dozen calls waited tens of ms behind them (docs/performance.md).
        sys.setswitchinterval(SWITCH_S)
        self.tail.start()
        self.replication.start(*self.broker_address, *self._account, tables=conductor.tables(self.state),
                               rebuild_s=self.REBUILD_S)
        self.mqtt.connect_async(*self.broker_address, keepalive=10)
        self._writer.start()
        self.runs.begin(self.broker_address, self._alive)
        log.info("hub started at journal seq %d, broker %s:%d", self.seq, *self.broker_address)
        return self

    def stop(self) -> None:
        """An orderly stop: say offline, drain the inbox, close the journal."""
        said = self.mqtt.publish(protocol.HUB_STATUS, protocol.encode({"v": 1, "state": "offline"}),
                                 qos=1, retain=True)
        if self.mqtt.is_connected():
            try:  # the boards must hear it before the link goes: no will follows a clean disconnect
                said.wait_for_publish(2)
            except (RuntimeError, ValueError):
                pass  # the link dropped meanwhile: the will says offline instead
        self._stopping.set()
        self._link.wake()
        self._writer.join(10)   # it drains the inbox, then disconnects
        if self._own_rows is not None and not self._writer.is_alive():
            self._own_rows.mark(self.seq)   # a restart folds every row (hub/startup.py)
        self.runs.end()
        self.journal.close()
        self.replication.stop()
        self.tail.stop()

    def _alive(self) -> tuple[int, dict[str, str]]:
        """What a run notes as it goes (hub/runs.py): the journal's last event, the boards online."""
        return self.seq, self.boards.online()

    # ----- the replica (hub/replication.py) -------------------------------------
    @property
    def replica(self):
        return self.replication.replica

    @property
    def staff_gap(self):
        return self.replication.staff_gap

    def discard(self, action_id: str, login: str) -> bool:
        """The conductor decided a staff action the replica lacked is not to be redone."""
        return self.replication.discard(action_id, login)

    def replica_lag(self, now: float):
        """The replica against the journal (hub/replica.py `Lag`), or None without one."""
        return self.replication.lag(self.seq, now)

    # ----- inputs -------------------------------------------------------------
    def submit(self, proposal: Proposal, timeout: float = 10.0) -> Verdict:
        """Judge and journal a local input (the console, the demo); waits for the commit."""
        reply: Future = Future()
        self._inbox.put(_LocalInput(proposal, reply))
        self._link.wake()
        return reply.result(timeout)

    def receive(self, table: int, payload: bytes) -> None:
        """A table's raw event payload in, as from the broker: queued for the writer,
        which parses, judges, journals and then acknowledges it on the table's topic."""
        self._inbox.put(TableInput(table, payload))
        self._link.wake()

    def backlog(self) -> int:
        """Inputs waiting for the writer."""
        return self._inbox.qsize()

    def _make_client(self, host, port, username, password, client_id) -> edge.Client:
        c = edge.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
        if username:
            c.username_pw_set(username, password)
        c.will_set(protocol.HUB_STATUS, protocol.encode({"v": 1, "state": "offline"}), qos=1, retain=True)
        c.reconnect_delay_set(min_delay=1, max_delay=4)
        c.max_inflight_messages_set(1000)  # acks to a roomful of tables at once
        c.max_queued_messages_set(0)       # never drop an outgoing ack locally
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_subscribe = lambda *a: self.listening.set()
        c.on_socket_open = _set_nodelay
        return c

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("broker refused the hub: %s", reason_code)
            return
        self._link.connected()
        # Clean session: subscriptions do not survive a reconnect, so make them every time.
        client.subscribe([(t, INPUT_QOS) for t in protocol.TABLE_INPUTS])
        self.replication.connected()   # the hub's status, online, and the staff gap
        self._inbox.put(_Republish())
        log.info("connected to the broker")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.listening.clear()
        if not self._stopping.is_set():
            log.warning("lost the broker (%s); reconnecting", reason_code)

    def _heard(self, topic: str, payload: bytes) -> None:
        """A message from the broker (hub/edge.py `Link`), on the writer's own thread."""
        where = protocol.split_table_topic(topic)
        if where is None:
            return
        table, leaf = where
        self.boards.heard(table, time.time())
        if leaf == "event":   # read on the writer's own thread (hub/edge.py): no wake-up
            self._inbox.put(TableInput(table, payload))
        else:
            self.boards.note(table, leaf, payload)
            if leaf == "status":
                self.runs.changed()
            if leaf == "heartbeat" and self.replication.rebuilding():
                self._inbox.put(Heard(table))   # after the entries its board sent back

    # ----- the writer ---------------------------------------------------------
    def _write_loop(self) -> None:
        """Read what the broker brought (and the console queued), judge and journal it as
        one batch, reply; a quiet second still looks at the clock (the party's time limit)."""
        last = time.monotonic()
        while not (self._stopping.is_set() and self._inbox.empty()):
            items = self._take(0.0)   # what has arrived meanwhile, without waiting
            if not items:
                self.changes.caught_up()
                items = self._take(0.0 if self._stopping.is_set() else 1.0)
            now = time.monotonic()
            if not items and now - last < 1.0:
                continue
            last = now
            try:
                self.write_batch(items)
            except Exception:  # the hub must keep running; unacked inputs will be resent
                log.exception("batch of %d inputs failed; nothing of it was journaled", len(items))
                if self._own_rows is not None:
                    self._own_rows.doubt()
                for item in items:
                    if isinstance(item, _LocalInput) and not item.reply.done():
                        item.reply.set_result(Verdict.refuse(HUB_ERROR))
            if not items and self._own_rows is not None and self._inbox.empty():
                self._own_rows.quiet(self.seq, now)   # a second with no input: no entry waits
        self._link.close()

    def _take(self, wait: float) -> list:
        """The next batch: what the link reads within `wait` s (it calls `_heard`,
        which queues table events) and what the console queued."""
        try:
            self._link.poll(wait if self._inbox.empty() else 0.0)
        except Exception:  # paho's own errors are its return codes: this is a bug, not the link
            log.exception("the MQTT loop failed; carrying on")
            time.sleep(0.1)
        items = []
        while len(items) < BATCH_MAX:
            try:
                items.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        if items:
            self.changes.busy()
        return items

    def write_batch(self, items: list) -> None:
        """The writer's step, on the caller's thread: a batch of inputs (TableInput, or the
        hub's own) through the batch policy (hub/batch.py), what is admitted journaled,
        then acknowledged and published. The writer thread calls it; a bench of the
        writer alone calls it on a hub not started."""
        taken = time.monotonic()
        inputs = [item for item in items if not isinstance(item, _Republish)]
        now = time.time()
        out = admit_batch(self.state, inputs, self.journal, now, boards=self.provisioned_boards,
                          rebuild=self.replication.rebuild)
        for level, message, args, exc in out.notes:
            log.log(level, message, *args, exc_info=exc)
        judged = time.monotonic()
        if out.events or out.refusals:
            self.journal.append(out.events, out.refusals)  # durable before anyone hears "saved"
            self.replication.journaled(out.events)
        committed = time.monotonic()
        self.state, self.seq = out.state, out.state.seq
        for item, _, verdict, _ in out.replies:
            if isinstance(item, _LocalInput):
                item.reply.set_result(verdict)
        self.publisher.acks(out.replies)
        self.publisher.bell(self.state)
        self._link.flush()   # the acks and a new bell leave before the screens are made
        acked = time.monotonic()
        self.publisher.screens(self.state, self.seq, out.events, force=len(inputs) < len(items))
        self._link.flush()
        self.tail.batch(taken, judged, committed, acked, time.monotonic(),
                        out.events[0].seq if out.events else self.seq + 1, self.seq, len(inputs))
        self.changes.batch_done()

    # ----- for the screens --------------------------------------------------------
    def standings(self) -> tuple[int, dict]:
        """(seq, standings) — computed once per journal position, shared by every screen."""
        state, seq = self.state, self.seq
        made = self.cache.get(seq, "standings", lambda: conductor.standings_after(state, self.cache.last("standings")))
        return seq, made.page

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def wait_for_change(self, after_seq: int, timeout: float, settle: float = 0.0, quiet: float = 0.0) -> int:
        """Until the journal has passed `after_seq` (hub/changes.py, `Changes.wait`); the seq now."""
        return self.changes.wait(after_seq, timeout, settle, quiet)


def _set_nodelay(client, userdata, sock) -> None:
    # A small publish otherwise waits for Nagle's algorithm: acks must not.
    if hasattr(sock, "setsockopt"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
