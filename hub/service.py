"""The hub: tables' events in over MQTT, judged, journaled, acknowledged.

One writer thread owns the journal, the party state and the link to the broker
(hub/edge.py: it runs paho's network loop itself). Inputs — table events read
from the broker, actions from the console — queue up for it; it takes them in
batches, judges each against the state folded so far, appends the admitted
events in one durable transaction, and only then acknowledges and publishes
what changed (acks, retained screens, the bell). Everything the hub shows is
derived from the journal; a restarted hub replays it and carries on.
"""
from __future__ import annotations

import logging
import queue
import socket
import threading
import time
from dataclasses import dataclass, field
from concurrent.futures import Future
from pathlib import Path

from paho.mqtt.enums import CallbackAPIVersion

from . import conductor, edge, gap, protocol
from .batch import HUB_ERROR, LocalInput, TableInput, admit_batch
from .event import Event, Proposal, Verdict
from .journal import Journal, JournalDamaged, open_reader
from .gap import StaffGap
from .replica import Replica
from .runs import Runs

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


@dataclass(frozen=True)
class _LocalInput(LocalInput):
    reply: Future = field(compare=False)


class _Republish:
    """After a (re)connect: the broker may have lost retained screens."""


@dataclass
class BoardSeen:
    """Telemetry from a table's board: shown on the console, never journaled."""
    state: str = "unknown"
    board: str = ""
    boot: int | None = None
    seen_at: float = 0.0
    heartbeat: dict = field(default_factory=dict)


class Hub:
    TAKEOVER_SETTLE_S = 60.0  # after a takeover, tables' refusals are held this long (_settling)

    def __init__(self, journal_path: str | Path, broker_host: str, broker_port: int, *,
                 username: str | None = None, password: str | None = None, client_id: str = "hub",
                 boards: dict[int, str] | None = None, replica: str | None = None, replica_sync_s: float = 1.0,
                 audit: bool = True):
        self.journal = Journal(journal_path)
        try:
            with conductor.collector_paused():  # reading the journal too, not only the fold
                if audit:  # serve only a journal the conductor would have written (docs/journal.md)
                    self.state, findings = conductor.audit(self.journal.events())
                    if self.journal.chain.broken:   # checked as it opened (hub/seal.py); a row it
                        # could not read was said first, by the audit's reading
                        raise JournalDamaged(f"its seal is broken: {self.journal.chain.broken}; "
                                             f"`party run --no-audit` serves it as it is")
                    if findings:
                        raise JournalFailsAudit(journal_path, findings)
                else:
                    self.state = conductor.replay(self.journal.events())
        except (JournalFailsAudit, JournalDamaged):   # not served (JournalDamaged: which row, where)
            self.journal.close()
            raise
        conductor.collector_spares_the_party()   # what was replayed stays for the party
        # Litestream beside the hub (hub/replica.py); its position is what the boards may forget.
        self.replica = Replica(replica, journal_path, sync_s=replica_sync_s,
                               on_advance=self._replica_advanced) if replica else None
        restored = self.journal.restored()
        self.restored, self._restored_at = restored or (None, None)
        # Staff actions beyond the replica, kept on the broker (hub/gap.py); at start, read
        # there: those a lost hub's replica lacked, for the conductor to redo or discard.
        self.staff_gap = StaffGap()
        # With provisioning (party/provision.py): the one board allowed to speak for each table.
        self.provisioned_boards = boards
        self.seq = self.journal.last_seq()
        self.runs = Runs(journal_path)   # the runs before this one, for the console after a restart
        self.boards: dict[int, BoardSeen] = {}
        # SimpleQueue: put and get in C, no Python-level lock per message on the MQTT thread
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._changed = threading.Condition()
        self._standings_cache: tuple[int, dict] | None = None
        self._standings_lock = threading.Lock()
        self._published_screens: dict[int, dict] = {}
        self._bell_sent: str | None = None
        self._stopping = threading.Event()
        # Set while the broker has granted the hub's subscription to the tables' inputs: a
        # table's event published before it is not delivered (a board resends it; a tool
        # that never resends waits for this first).
        self.listening = threading.Event()
        self._busy = False   # the writer has inputs waiting (read or queued) that it has not judged
        self._writer = threading.Thread(target=self._write_loop, name="hub-writer", daemon=True)
        self.mqtt = self._make_client(broker_host, broker_port, username, password, client_id)
        self._link = edge.Link(self.mqtt)   # driven by the writer thread
        self._account = (username, password)
        self.broker_address = (broker_host, broker_port)

    # ----- life cycle -------------------------------------------------------
    def start(self) -> "Hub":
        if self.replica:
            lost = gap.read_unreplicated(*self.broker_address, *self._account)
            known = self.journal.find_many(a["id"] for a in lost)
            self.staff_gap = StaffGap([a for a in lost if a["id"] not in known])
            self.replica.start()
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
        self.runs.end()
        self.journal.close()
        if self.replica:
            self.replica.stop()  # after the last commit: Litestream ships it as it stops

    def _alive(self) -> tuple[int, dict[str, str]]:
        """What a run notes as it goes (hub/runs.py): the journal's last event, the boards online."""
        return self.seq, {str(t): seen.board for t, seen in list(self.boards.items()) if seen.state == "online"}

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
        c.on_message = self._on_message
        c.on_socket_open = _set_nodelay
        return c

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("broker refused the hub: %s", reason_code)
            return
        self._link.connected()
        # Clean session: subscriptions do not survive a reconnect, so make them every time.
        client.subscribe([(t, INPUT_QOS) for t in protocol.TABLE_INPUTS])
        self._say_online(client)
        if self.replica:
            self._publish_gap()
        self._inbox.put(_Republish())
        log.info("connected to the broker")

    def _say_online(self, client) -> None:
        """The hub's retained status (docs/protocol.md): with a replica, how far it holds
        the journal (`safe`: the boards may forget entries up to it), and after a
        takeover where this journal was restored (`restored`: they resend what is after)."""
        status = {"v": 1, "state": "online"}
        if self.replica:
            status["safe"] = self.replica.position or 0
        if self.restored is not None:
            status["restored"] = self.restored
        client.publish(protocol.HUB_STATUS, protocol.encode(status), qos=1, retain=True)

    def _settling(self, now: float) -> bool:
        """Within TAKEOVER_SETTLE_S of `party takeover`: the boards are sending back, in
        any order across tables, the entries the replica lacked (docs/takeover.md)."""
        return self._restored_at is not None and now < self._restored_at + self.TAKEOVER_SETTLE_S

    def _replica_advanced(self, position: int) -> None:
        if self.mqtt.is_connected() and not self._stopping.is_set():
            self._say_online(self.mqtt)
            if self.staff_gap.replicated(position):
                self._publish_gap()

    def _publish_gap(self) -> None:
        self.mqtt.publish(gap.TOPIC, self.staff_gap.payload(), qos=1, retain=True)

    def discard(self, action_id: str, login: str) -> bool:
        """The conductor decided a staff action the replica lacked is not to be redone."""
        dropped = self.staff_gap.discard(action_id)
        if dropped:
            log.warning("%s discarded %s %s (not in the replica): %s", login, dropped["kind"], action_id,
                        dropped["body"])
            self._publish_gap()
        return dropped is not None

    def replica_lag(self, now: float):
        """The replica against the journal (hub/replica.py `Lag`), or None without one."""
        if not self.replica:
            return None
        seq, position = self.seq, self.replica.position or 0
        oldest = None
        if seq > position:
            db = open_reader(self.journal.path)
            try:
                row = db.execute("SELECT at FROM journal WHERE seq = ?", (position + 1,)).fetchone()
                oldest = row[0] if row else None
            finally:
                db.close()
        return self.replica.lag(seq, oldest, now)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.listening.clear()
        if not self._stopping.is_set():
            log.warning("lost the broker (%s); reconnecting", reason_code)

    def _on_message(self, client, userdata, message) -> None:
        where = protocol.split_table_topic(message.topic)
        if where is None:
            return
        table, leaf = where
        # anything from a board is news that it is there: a result as much as a heartbeat
        seen = self.boards.get(table) or self.boards.setdefault(table, BoardSeen())  # no new BoardSeen per event
        seen.seen_at = time.time()
        if leaf == "event":   # read on the writer's own thread (hub/edge.py): no wake-up
            self._inbox.put(TableInput(table, message.payload))
        else:
            self._note_board(table, leaf, message.payload)

    def _note_board(self, table: int, leaf: str, payload: bytes) -> None:
        try:
            msg = protocol.decode_object(payload)
        except ValueError as exc:
            log.warning("table %d: unreadable %s: %s", table, leaf, exc)
            return
        seen = self.boards[table]
        if leaf == "status":
            seen.state = str(msg.get("state", "unknown"))
            seen.board = str(msg.get("board", seen.board))
            seen.boot = msg.get("boot", seen.boot)
        else:
            seen.heartbeat = msg

    # ----- the writer ---------------------------------------------------------
    def _write_loop(self) -> None:
        """Read what the broker brought (and the console queued), judge and journal it as
        one batch, reply; a quiet second still looks at the clock (the party's time limit)."""
        last = time.monotonic()
        while not (self._stopping.is_set() and self._inbox.empty()):
            items = self._take(0.0)   # what has arrived meanwhile, without waiting
            if not items:
                self._caught_up()
                items = self._take(0.0 if self._stopping.is_set() else 1.0)
            now = time.monotonic()
            if not items and now - last < 1.0:
                continue
            last = now
            try:
                self.write_batch(items)
            except Exception:  # the hub must keep running; unacked inputs will be resent
                log.exception("batch of %d inputs failed; nothing of it was journaled", len(items))
                for item in items:
                    if isinstance(item, _LocalInput) and not item.reply.done():
                        item.reply.set_result(Verdict.refuse(HUB_ERROR))
        self._link.close()

    def _take(self, wait: float) -> list:
        """The next batch: what the link reads within `wait` s (it calls `_on_message`,
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
            self._busy = True
        return items

    def _caught_up(self) -> None:
        """Nothing waits for the writer: a screen held back by `wait_for_change`'s settle may go."""
        if self._busy:
            with self._changed:
                self._busy = False
                self._changed.notify_all()

    def write_batch(self, items: list) -> None:
        """The writer's step, on the caller's thread: a batch of inputs (TableInput, or the
        hub's own) through the batch policy (hub/batch.py), what is admitted journaled,
        then acknowledged and published. The writer thread calls it; a bench of the
        writer alone calls it on a hub not started."""
        inputs = [item for item in items if not isinstance(item, _Republish)]
        now = time.time()
        outcome = admit_batch(self.state, inputs, self.journal, now, settling=self._settling(now),
                              boards=self.provisioned_boards)
        for level, message, args, exc in outcome.notes:
            log.log(level, message, *args, exc_info=exc)
        if outcome.events or outcome.refusals:
            self.journal.append(outcome.events, outcome.refusals)  # durable before anyone hears "saved"
            if self.replica and self.staff_gap.journaled(outcome.events):
                self._publish_gap()  # on the broker before the console hears "done"
        self.state, self.seq = outcome.state, outcome.state.seq
        self._reply(outcome.replies)
        self._publish_bell()
        self._link.flush()   # the acks and a new bell leave before the screens are made
        self._publish_screens(_screens_changed(outcome.events), force=len(inputs) < len(items))
        self._link.flush()
        with self._changed:  # also when nothing was appended: a settling screen waits for the inbox
            self._changed.notify_all()

    # ----- outputs --------------------------------------------------------------
    def _reply(self, replies) -> None:
        reply, ack, topic, seal_of = self.mqtt.reply, protocol.ack, protocol.ACK_TOPIC, self.journal.seal_of
        for item, event_id, verdict, seq in replies:   # (those asked for once: every result)
            if isinstance(item, _LocalInput):
                item.reply.set_result(verdict)
            elif verdict.ok:   # with the seal of its row: the board shows it as a receipt
                reply(topic[item.table], ack(event_id, seq=seq, msg=verdict.msg, seal=seal_of(seq)))
            else:
                reply(topic[item.table], ack(event_id, why=verdict.why))

    def _publish_bell(self) -> None:
        """A new bell: one publish reaches every table, before the screens that show it."""
        bell = conductor.current_bell(self.state)
        if bell and bell["id"] != self._bell_sent:
            self.mqtt.reply(protocol.ALL_CMD, protocol.encode({"v": protocol.VERSION, "cmd": "bell", "bell": bell}))
            self._bell_sent = bell["id"]

    def _publish_screens(self, changed: frozenset[int] | None, force: bool) -> None:
        """The retained screens that changed (all of them after a reconnect): any
        table's (`changed` None), else only those of `changed`."""
        forms: dict = {}   # spelled in this round, for the tables that share them
        published, seq, reply, topic = self._published_screens, self.seq, self.mqtt.reply, protocol.SCREEN_TOPIC
        for table, screen in conductor.screens(self.state, None if force else changed).items():
            if force or published.get(table) != screen:
                reply(topic[table], protocol.screen_message(seq, table, screen, forms), retain=True)
                published[table] = screen

    # ----- for the screens --------------------------------------------------------
    def standings(self) -> tuple[int, dict]:
        """(seq, standings) — computed once per journal position, shared by every screen."""
        state, seq = self.state, self.seq
        # Every screen's stream wakes at the same commit: one computes, the others wait for it
        # (without the lock twenty screens computed the same standings twenty times).
        with self._standings_lock:
            cached = self._standings_cache
            if cached and cached[0] == seq:
                return cached
            self._standings_cache = (seq, conductor.standings(state))
            return self._standings_cache

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def wait_for_change(self, after_seq: int, timeout: float, settle: float = 0.0) -> int:
        """Block until the journal has passed `after_seq` or `timeout` passed; the seq now.

        With `settle`, a change found while the writer still has inputs waiting
        waits up to `settle` seconds more for it to catch up: a room keying at
        once commits batch after batch, and a screen that redrew the standings
        of 800 players after each one took the writer's CPU and delayed them all."""
        with self._changed:
            if not self._changed.wait_for(lambda: self.seq > after_seq or self._stopping.is_set(), timeout):
                return self.seq
            if settle > 0:
                self._changed.wait_for(lambda: not self._busy or self._stopping.is_set(), settle)
        return self.seq


class JournalFailsAudit(RuntimeError):
    """A journal holding events the conductor would not have written: not served unless
    the host says so, since every verdict given from it would build on them."""

    def __init__(self, path, findings):
        self.findings = findings
        shown = "".join(f"\n  {f}" for f in findings[:10])
        more = f"\n  ... and {len(findings) - 10} more" if len(findings) > 10 else ""
        super().__init__(
            f"the journal {path} holds {len(findings)} event(s) the conductor would not have "
            f"written:{shown}{more}\n`party replay --audit {path}` lists them all; "
            f"`party run --no-audit` serves the journal as it is.")


def _screens_changed(appended: list[Event]) -> frozenset[int] | None:
    """Tables whose screen these events may have changed; None: any table's.

    A table's event folds into that table alone (its entries, seat check, bell
    acks), and a screen reads only its own table and the session's bell, number
    and setup — so only a staff or hub event can change another table's screen.
    Recomputing 200 screens for every batch of one bell-ack was the hub's
    largest cost with a full room (docs/performance.md)."""
    tables = set()
    for e in appended:
        if not e.source.startswith("table:"):
            return None
        tables.add(e.body["table"])
    return frozenset(tables)


def _set_nodelay(client, userdata, sock) -> None:
    # A small publish otherwise waits for Nagle's algorithm: acks must not.
    if hasattr(sock, "setsockopt"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
