"""A whole party played in this process, without boards: the host's steps and every table's
entries (hands played move by move by the engine's players, party/hands.py) taken through the
hub's own batch step (hub.batch.admit_batch: judged, numbered, folded) and journaled by the
hub's journal writer in one transaction. For what needs many finished parties fast: the
season's demo (`party demo --season N`) and its bench (bench/season_bench.py). A party for
guests to watch is `party demo`'s, played on the boards.
"""
from __future__ import annotations

import itertools
import random
import time
from pathlib import Path

from hub import conductor
from hub.batch import Ledger, LocalInput, admit_batch
from hub.conductor import events as k
from hub.conductor.state import PartyState, in_play, last_session, session_over, table_done
from hub.event import Event, Proposal
from hub.journal import Journal

from .hands import played_values
from .setup import HOST


class QuickParty:
    def __init__(self, seed: int, now: float | None = None):
        self.state, self.ledger, self.events = PartyState(), Ledger(), []
        self.rng = random.Random(seed)
        self.now = time.time() if now is None else now
        self._ids = itertools.count(1)

    def propose(self, source: str, kind: str, body: dict) -> None:
        p = Proposal(f"{source}-{next(self._ids)}", source, kind, body)
        out = admit_batch(self.state, [LocalInput(p)], self.ledger, self.now, ticks=False)
        for _, _, _, exc in out.notes:
            if exc is not None:
                raise exc
        ((_, _, verdict, _),) = out.replies
        if not verdict.ok:
            raise RuntimeError(f"{kind} {body}: refused {verdict.why}")
        self.state = out.state
        self.ledger.record(out)
        self.events.extend(out.events)
        self.now += 0.5

    def host(self, kind: str, body: dict) -> None:
        self.propose(f"staff:{HOST}", kind, body)

    def table(self, n: int, kind: str, body: dict) -> None:
        self.propose(f"table:{n}", kind, dict(body, table=n, board=f"quick-{n}"))

    def play(self, guests: list[str], *, tables: int, form: str = "draw", sessions: int | None = None) -> list[Event]:
        """The party from its creation to the final count; its events, in journal order."""
        self.host(k.PARTY_CREATED, {"form": form, "tables": tables, "seat_check": False,
                                    **({"sessions": sessions} if sessions else {})})
        for guest in guests:
            self.host(k.GUEST_LISTED, {"guest": guest})
            self.host(k.CHECKED_IN, {"guest": guest})
        self.host(k.DRAW_SEATS, {"seed": self.rng.randrange(1 << 30)})
        while True:
            self.host(k.SESSION_STARTED, {"session": self.state.session.number})
            self.play_session()
            if last_session(self.state):
                break
            self.host(k.RESEAT, {"seed": self.rng.randrange(1 << 30)})
        self.host(k.FINAL_COUNT, {})
        return self.events

    def play_session(self) -> None:
        """Every table keys its games, and acknowledges the bell when it rings, until the
        session is over."""
        while not session_over(self.state.setup, self.state.session):
            s = self.state.session
            for n in sorted(s.tables):
                s = self.state.session
                t, bell = s.tables[n], s.bell
                if not in_play(self.state.setup, t):
                    continue
                if bell is not None and bell.id not in t.acks:
                    self.table(n, k.BELL_ACK, {"bell": bell.id})
                elif not table_done(self.state.setup, s, t):
                    form = conductor.screen(self.state, n)["form"]
                    lead = any(f["k"] == "lead" for f in form["fields"])
                    values = played_values(self.state.setup, t.seats, self.rng, lead=lead)
                    self.table(n, k.RESULT, {"game": form["game"], "values": values})


def play_to_journal(journal: Path, guests: list[str], *, tables: int, seed: int, form: str = "draw",
                    sessions: int | None = None, now: float | None = None) -> PartyState:
    """A party played (QuickParty) and written to a new journal at `journal`."""
    if Path(journal).exists():
        raise FileExistsError(f"{journal} exists: a quick party writes a new journal")
    party = QuickParty(seed, now)
    events = party.play(guests, tables=tables, form=form, sessions=sessions)
    j = Journal(journal)
    try:
        j.append(events)
    finally:
        j.close()
    return party.state
