"""What the hub says to the tables once a batch is journaled: each table input's ack, a new
bell, and the retained screens that changed — through the edge's `reply` (hub/edge.py: QoS 0,
put straight into the batch's buffer; the protocol, not the hop, makes them safe)."""
from __future__ import annotations

from . import conductor, protocol
from .batch import Reply, TableInput
from .event import Event


class Publisher:
    def __init__(self, client, journal):
        self.client, self.journal = client, journal
        self.screens_sent: dict[int, dict] = {}   # table -> the screen it was last sent
        self.bell_sent: str | None = None

    def acks(self, replies: list[Reply]) -> None:
        """The tables' inputs' verdicts, each on its table's ack topic."""
        reply, ack, topic, seal_of = self.client.reply, protocol.ack, protocol.ACK_TOPIC, self.journal.seal_of
        seals = self.journal.batch_seals   # the batch's own, kept in memory: a call less an ack
        for item, event_id, verdict, seq in replies:   # (those asked for once: every result)
            if type(item) is not TableInput:
                continue
            if verdict.ok:   # with the seal of its row: the board shows it as a receipt
                reply(topic[item.table], ack(event_id, seq=seq, msg=verdict.msg,
                                                 seal=seals.get(seq) or seal_of(seq)))
            else:
                reply(topic[item.table], ack(event_id, why=verdict.why))

    def bell(self, state) -> None:
        """A new bell: one publish reaches every table, before the screens that show it."""
        bell = conductor.current_bell(state)
        if bell and bell["id"] != self.bell_sent:
            self.client.reply(protocol.ALL_CMD, protocol.encode({"v": protocol.VERSION, "cmd": "bell", "bell": bell}))
            self.bell_sent = bell["id"]

    def screens(self, state, seq: int, appended: list[Event], force: bool) -> None:
        """The retained screens these events may have changed (every table's, `force`d,
        after a reconnect: the broker may have lost them)."""
        forms: dict = {}   # spelled in this round, for the tables that share them
        sent, reply, topic = self.screens_sent, self.client.reply, protocol.SCREEN_TOPIC
        for table, screen in conductor.screens(state, None if force else changed_tables(appended)).items():
            if force or sent.get(table) != screen:
                reply(topic[table], protocol.screen_message(seq, table, screen, forms), retain=True)
                sent[table] = screen


def changed_tables(appended: list[Event]) -> frozenset[int] | None:
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
