"""The conductor's speed: reseating 1,000 players, and folding a 100,000-event journal.

    /tmp/venv/bin/python bench/conductor_bench.py [--players 1000] [--events 100000]

A Block party of 1,000 guests (250 tables, results confirmed at the table) is driven
through the hub's batch step (hub/batch.py: judge, number and fold each input),
session after session, until the journal holds the wanted number of events. Printed:
- the live hub's cost per event (the batch step, one input a batch: judge + fold),
- reseating 1,000 players after session I (promotion by gains) and after session II
  (ranking every card), and a Bergen party's 1,000 (partners move and separate):
  the judge's whole `reseat` (movement, recorded decision, fold),
- replaying the whole journal (the fold only; reading SQLite is the hub's part),
- to_json of the final state (what `party replay --json` serialises), every board's
  screen, and the standings page's data.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project's root, as the other benches

from hub.batch import Ledger, LocalInput, admit_batch
from hub.conductor import events as k, replay, screens, standings, to_json
from hub.conductor.cards import SEATS, number
from hub.conductor.state import PartyState
from hub.event import Proposal
from party.hands import bergen_hand


class Hub:
    def __init__(self):
        self.state, self.journal, self.now, self.n = PartyState(), [], 1e9, 0
        self.ledger = Ledger()

    def send(self, source: str, kind: str, body: dict):
        self.n += 1
        out = admit_batch(self.state, [LocalInput(Proposal(f"b{self.n}", source, kind, body))], self.ledger,
                          self.now)
        ((_, _, v, _),) = out.replies
        assert v.ok, (kind, v.why, out.notes)
        self.state = out.state
        self.journal.extend(out.events)
        self.ledger.record(out)
        return v

    def staff(self, kind, body):
        return self.send("staff:ann", kind, body)

    def table(self, n, kind, body):
        return self.send(f"table:{n}", kind, dict(body, table=n, board=f"b{n}"))


def block_values(rng: random.Random, seats: str, first: bool) -> dict:
    winner = rng.choice(seats)
    values = {"out": SEATS.index(winner) + 1}
    for s in seats:
        values[s], values[f"{s}_pieces"] = 0, 0
    other = next(s for s in seats if s != winner)
    values[other], values[f"{other}_pieces"] = rng.randrange(2, 33), 1   # one piece: 2-32
    if first:
        values["lead"] = 1
    return values


def party(hub: Hub, form: str, players: int, sessions: int, confirm: bool) -> None:
    tables = (players + 3) // 4
    hub.staff(k.PARTY_CREATED, {"form": form, "tables": tables, "sessions": sessions,
                                "confirm": confirm})
    for i in range(players):
        hub.staff(k.GUEST_LISTED, {"guest": f"guest {i:04d}"})
        hub.staff(k.CHECKED_IN, {"guest": f"guest {i:04d}"})
    hub.staff(k.DRAW_SEATS, {"seed": 1})


def play_block_session(hub: Hub, rng: random.Random) -> None:
    s = hub.state.session
    hub.staff(k.SESSION_STARTED, {"session": s.number})
    playing = sorted(n for n, t in s.tables.items() if t.players >= 2)
    for n in playing:
        t = s.tables[n]
        hub.table(n, k.SEAT_CHECK, {"cards": {x: number(c) if c else 0
                                              for x, c in zip(SEATS, t.seats)}})
    # every table but the last plays three games; the last plays four and rings the bell
    for n in playing[:-1] + [playing[-1]]:
        for game in range(1, 4 if n != playing[-1] else 5):
            seats = "".join(x for x, c in zip(SEATS, hub.state.session.tables[n].seats) if c)
            v = hub.table(n, k.RESULT, {"game": game, "values": block_values(rng, seats, game == 1)})
            if hub.state.setup.confirm:
                e = hub.state.session.tables[n].pending
                seat = next(x for x in seats if x not in e.winners)
                hub.table(n, k.CONFIRM, {"entry": v.events[0].id, "seat": seat})
    bell = hub.state.session.bell.id
    for n in playing:
        if bell not in hub.state.session.tables[n].acks:
            hub.table(n, k.BELL_ACK, {"bell": bell})
    for n in playing[:-1]:
        if hub.state.session.tables[n].closed is None:
            hub.staff(k.TABLE_CLOSED, {"table": n, "why": "no game in hand"})


def timed(f):
    t0 = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--events", type=int, default=100_000)
    args = ap.parse_args()
    rng = random.Random(2)

    hub = Hub()
    party(hub, "block", args.players, 10_000, confirm=True)
    t0 = time.perf_counter()
    reseats = []
    while len(hub.journal) < args.events:
        play_block_session(hub, rng)
        _, dt = timed(lambda: hub.staff(k.RESEAT, {"seed": len(hub.journal)}))
        reseats.append(dt)
    live = time.perf_counter() - t0
    events = len(hub.journal)
    print(f"journal: {events} events, {len(hub.state.sessions)} sessions, "
          f"{args.players} players, {hub.state.setup.tables} tables")
    print(f"live hub (batch step: judge + fold): {live:.1f} s, {live / events * 1e6:.0f} us/event")
    print(f"reseat {args.players} players after session I (promotion by gains): "
          f"{reseats[0] * 1e3:.1f} ms")
    rank = sorted(reseats[1:])
    print(f"reseat {args.players} players after later sessions (ranking every card): "
          f"median {rank[len(rank) // 2] * 1e3:.1f} ms, max {rank[-1] * 1e3:.1f} ms")

    bergen = Hub()
    party(bergen, "bergen", args.players - args.players % 4, 3, confirm=False)
    s = bergen.state.session
    bergen.staff(k.SESSION_STARTED, {"session": 1})
    for n in sorted(s.tables):
        if s.tables[n].players == 4:
            t = bergen.state.session.tables[n]
            bergen.table(n, k.SEAT_CHECK, {"cards": {x: number(c) for x, c in zip(SEATS, t.seats)}})
            bergen.table(n, k.RESULT, {"game": 1, "values": bergen_hand("AB"[n % 2], 5 if n == 1 else n % 4)})
    bell = bergen.state.session.bell.id
    for n in sorted(s.tables):
        if bell not in bergen.state.session.tables[n].acks:
            bergen.table(n, k.BELL_ACK, {"bell": bell})
    _, dt = timed(lambda: bergen.staff(k.RESEAT, {"seed": 5}))
    print(f"reseat {len(bergen.state.holders)} Bergen players (partners move and separate): "
          f"{dt * 1e3:.1f} ms")

    runs = [timed(lambda: replay(hub.journal)) for _ in range(3)]
    state, dt = min(runs, key=lambda r: r[1])    # the best of three: the least disturbed
    print(f"replay {events} events (fold only), best of 3: {dt:.2f} s, "
          f"{dt / events * 1e6:.1f} us/event, {events / dt:,.0f} events/s "
          f"(others: {', '.join(f'{r[1]:.2f} s' for r in runs if r[1] != dt)})")
    assert state.seq == hub.state.seq
    doc, dt = timed(lambda: to_json(state))
    print(f"to_json of the final state: {dt * 1e3:.0f} ms")
    _, dt = timed(lambda: screens(state))
    print(f"screens of all {state.setup.tables} tables: {dt * 1e3:.1f} ms")
    _, dt = timed(lambda: standings(state))
    print(f"standings: {dt * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
