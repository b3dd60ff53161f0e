"""The hub's side of a takeover (docs/takeover.md): Litestream beside it (hub/replica.py),
the staff actions beyond the replica kept on the broker (hub/gap.py), and where this
journal was restored from a replica — the boards resend what is after it, and the lost
hub's events after it are rebuilt in its order before anything new (hub/rebuild.py)."""
from __future__ import annotations

import logging
import threading
import time
from typing import Iterable

from . import gap, protocol
from .event import Event
from .journal import Journal, journaled_at
from .gap import StaffGap
from .rebuild import REBUILD_MAX_S, Rebuild, rebuild_for
from .replica import Lag, Replica

log = logging.getLogger("hub")


class Replication:
    """With `url`, the journal's replica; `client` is the hub's link to the broker, on which
    its status and the staff gap are published retained, and `stopping` the hub's stop."""

    def __init__(self, journal: Journal, url: str | None, sync_s: float, client, stopping: threading.Event):
        self.journal, self.client, self.stopping = journal, client, stopping
        # Litestream beside the hub; its position is what the boards may forget.
        self.replica = Replica(url, journal.path, sync_s=sync_s, on_advance=self._advanced) if url else None
        self.restored, self.restored_at = journal.restored() or (None, None)
        # Staff actions beyond the replica; at start, read on the broker: those a lost
        # hub's replica lacked, for the conductor to redo or discard.
        self.staff_gap = StaffGap()
        # After a takeover: the lost hub's events beyond the replica, rebuilt in its order
        # (the writer's; None when there is none or it is over).
        self.rebuild: Rebuild | None = None

    def start(self, host: str, port: int, username: str | None, password: str | None,
              tables: Iterable[int] = (), rebuild_s: float = REBUILD_MAX_S) -> None:
        if self.replica:
            lost = gap.read_unreplicated(host, port, username, password)
            known = self.journal.find_many(a["id"] for a in lost)
            # Those this journal holds stay on the broker until the replica does: a hub
            # started again before Litestream shipped its last staff action, its machine
            # then lost, would leave a standby neither the action nor word of it.
            self.staff_gap = StaffGap([a for a in lost if a["id"] not in known],
                                      [{**a, "seq": known[a["id"]][0]} for a in lost if a["id"] in known])
            self.replica.start()
        if self.restored is not None and self.journal.last_seq() == self.restored:
            # just restored: a standby started again once it has journaled (its rebuild
            # under way or over, a host's action taken) does not hold the room again
            self.rebuild = rebuild_for(self.restored, self.restored_at, tables, self.staff_gap.waiting(), time.time(),
                                       rebuild_s)

    def rebuilding(self) -> bool:
        """Whether the lost hub's events are still being rebuilt: nothing new is admitted."""
        return self.rebuild is not None and not self.rebuild.done

    def holes(self) -> list[tuple[int, int]]:
        """The lost hub's seqs nobody sent back (first, last), for the console."""
        return list(self.rebuild.holes) if self.rebuild else []

    def stop(self) -> None:
        if self.replica:
            self.replica.stop()  # after the last commit: Litestream ships it as it stops

    def status(self) -> dict:
        """The hub's retained status (docs/protocol.md): with a replica, how far it holds
        the journal (`safe`: the boards may forget entries up to it), and after a
        takeover where this journal was restored (`restored`: they resend what is after,
        unless acknowledged by this very takeover, `took`)."""
        status = {"v": 1, "state": "online"}
        if self.replica:
            status["safe"] = self.replica.position or 0
        if self.restored is not None:
            # `took`: which takeover (two standbys in a row may restore at one seq, the
            # second before the first's replica moved on); a board's small integer
            status["restored"], status["took"] = self.restored, int(self.restored_at * 10) % 1_000_000_000
        return status

    def connected(self) -> None:
        """On each (re)connect: the status, and the staff gap the broker may have lost."""
        self.client.publish(protocol.HUB_STATUS, protocol.encode(self.status()), qos=1, retain=True)
        if self.replica:
            self._publish_gap()

    def journaled(self, events: Iterable[Event]) -> None:
        """Events just committed: the staff's among them on the broker before the console hears "done"."""
        if self.replica and self.staff_gap.journaled(events):
            self._publish_gap()

    def discard(self, action_id: str, login: str) -> bool:
        """The conductor decided a staff action the replica lacked is not to be redone."""
        dropped = self.staff_gap.discard(action_id)
        if dropped:
            log.warning("%s discarded %s %s (not in the replica): %s", login, dropped["kind"], action_id,
                        dropped["body"])
            self._publish_gap()
        return dropped is not None

    def lag(self, seq: int, now: float) -> Lag | None:
        """The replica against the journal at `seq`, or None without one."""
        if not self.replica:
            return None
        position = self.replica.position or 0
        oldest = journaled_at(self.journal.path, position + 1) if seq > position else None
        return self.replica.lag(seq, oldest, now)

    def _advanced(self, position: int) -> None:
        if self.client.is_connected() and not self.stopping.is_set():
            self.client.publish(protocol.HUB_STATUS, protocol.encode(self.status()), qos=1, retain=True)
            if self.staff_gap.replicated(position):
                self._publish_gap()

    def _publish_gap(self) -> None:
        self.client.publish(gap.TOPIC, self.staff_gap.payload(), qos=1, retain=True)
