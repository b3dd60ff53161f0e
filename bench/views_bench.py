"""The projected standings' view after one entry, or after a rush, as the hub makes it (issue 25).

    .venv/bin/python bench/views_bench.py [--tables 200] [--views 20] [--rush]
    valgrind --tool=callgrind --callgrind-out-file=/tmp/views.out \\
        .venv/bin/python bench/views_bench.py [--rush]     # instructions a part, a view

A Draw party of `--tables` tables (4 guests each) is played out by the scoring
engine through the hub's batch step (hub/batch.py) for `--warm` entries at tables
chosen at random; then, after each of `--views` more entries, the hub's work for the
screens is done the way the projection's follower does it: the standings
(`conductor.standings_after`, from the standings before, as `Hub.standings` keeps
them; or `--from-nothing`, `conductor.standings` as before issue 25's session 11),
the projector's view made from the view before (web/projection.py), its JSON, and
the change a screen holding the view before is sent (web/frames.py, with its JSON).
`--rush`: the views after a rush instead, each after every table keyed its next game at
once, game by game (bench/rush_bench.py's rush, game 4, is the last). Copied into an older commit's checkout it runs there as that commit
makes them. Printed: the CPU time of each part per view (the process's own, not the
wall clock; on a loaded machine still noisy), and the rows taken from before. Under
callgrind, the instructions of each part a view (a client request dumps each part's:
bench/rush_instructions.py's helper; its `sum` adds them up over the views), which load does not change.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project's root, as the other benches

import orjson

from hub.batch import Ledger, LocalInput, admit_batch
from hub import conductor
from hub.conductor import events as k, standings
from hub.conductor.leads import keys_lead
from hub.conductor.state import PartyState, in_play, table_done
from hub.event import Proposal
from party.hands import played_values
from web import frames
from web.projection import Drawn, view


class Party:
    """The hub's batch step, one input a batch, with nobody watching."""

    def __init__(self):
        self.state, self.ledger, self.n = PartyState(), Ledger(), 0

    def send(self, source: str, kind: str, body: dict) -> None:
        self.n += 1
        out = admit_batch(self.state, [LocalInput(Proposal(f"v{self.n}", source, kind, body))], self.ledger, 1e9)
        ((_, _, v, _),) = out.replies
        assert v.ok, (kind, v.why)
        self.state = out.state
        self.ledger.record(out)

    def entry(self, rng: random.Random, n: int | None = None) -> None:
        """A result at table `n`, or at a table chosen at random among those with a game to key."""
        setup, s = self.state.setup, self.state.session
        if n is None:
            n = rng.choice([n for n, t in s.tables.items() if in_play(setup, t) and not table_done(setup, s, t)])
        t = s.tables[n]
        values = played_values(setup, t.seats, rng, lead=keys_lead(setup.form, t.entered + 1))
        self.send(f"table:{n}", k.RESULT, {"table": n, "board": f"b{n}", "game": t.entered + 1, "values": values})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--warm", type=int, default=100, help="entries before the views measured")
    parser.add_argument("--views", type=int, default=20)
    parser.add_argument("--rush", action="store_true", help="each view after every table keyed a game at once")
    parser.add_argument("--from-nothing", action="store_true", help="the standings made from nothing each time")
    args = parser.parse_args()
    standings_after = getattr(conductor, "standings_after", None)
    if standings_after is None:   # a commit before it (this bench copied there): made from nothing
        args.from_nothing = True

    rng, p = random.Random(25), Party()
    p.send("staff:ann", k.PARTY_CREATED, {"form": "draw", "tables": args.tables, "seat_check": False})
    for i in range(args.tables * 4):
        p.send("staff:ann", k.WALK_IN, {"guest": f"Guest {i + 1}"})
    p.send("staff:ann", k.DRAW_SEATS, {"seed": 1896})
    p.send("staff:ann", k.SESSION_STARTED, {"session": 1})
    states = [p.state]
    if args.rush:
        args.views = min(args.views, p.state.setup.games_per_session)
        for _ in range(args.views):
            for n in range(1, args.tables + 1):
                p.entry(rng, n)
            states.append(p.state)
    else:
        for _ in range(args.warm):
            p.entry(rng)
        states = []
        for _ in range(args.views + 1):
            p.entry(rng)
            states.append(p.state)
    gc.collect()
    gc.freeze()   # the party built: the hub's collector spares it too (conductor.collector_spares_the_party)

    count = Parts()
    kept, drawn, pages = None, None, []
    for i, state in enumerate(states):   # the first from nothing, as a hub's first view
        measured = count if i else Parts(counted=False)

        def made_standings():
            nonlocal kept
            if args.from_nothing:
                return standings(state)
            kept = standings_after(state, kept)
            return kept.page
        st = measured.part("standings", made_standings)
        v = measured.part("view", lambda: view(st, state, False, drawn))
        measured.part("json", lambda: orjson.dumps(v, option=orjson.OPT_NON_STR_KEYS))
        if drawn is not None:
            measured.part("change", lambda: _told(drawn.view, v))
        drawn = Drawn(st, v, state.setup)
        pages.append(st)
    rows = taken = 0   # counted afterwards, out of the instructions measured with them
    for before, st in zip(pages, pages[1:]):
        was = {id(r) for r in before["progress"] + before["leaders"]}
        now = st["progress"] + st["leaders"]
        rows, taken = rows + len(now), taken + sum(id(r) in was for r in now)
    n = max(len(states) - 1, 1)
    print(f"{args.tables} tables, {args.tables * 4} guests; {n} views after "
          + ("a rush each (every table keyed)" if args.rush else "one entry each")
          + f" ({'standings from nothing' if args.from_nothing else 'standings from the ones before'})")
    print("CPU a view: " + ", ".join(f"{part} {dt / n * 1e3:.2f} ms" for part, dt in count.spent.items())
          + f"; all {sum(count.spent.values()) / n * 1e3:.2f} ms")
    if taken:
        print(f"standings rows taken from before: {taken} of {rows} ({taken / rows:.0%})")


def _told(before: dict, after: dict) -> str | None:
    """The change's JSON as the projection makes it for the streams (None: the whole view is sent,
    the change found no smaller without its JSON made, where the tree does: web/frames.py)."""
    delta = frames.change(before, after, 0)
    if delta is None or getattr(frames, "no_smaller", lambda delta, view: False)(delta, after):
        return None
    return orjson.dumps(delta, option=orjson.OPT_NON_STR_KEYS)


class Parts:
    """The CPU time of each part; under callgrind, each part's instructions dumped apart
    (`callgrind_annotate` or bench/rush_instructions.py `sum` reads them)."""

    def __init__(self, counted: bool = True):
        self.spent: dict[str, float] = {}
        self._lib = None
        if counted and "vgpreload" in os.environ.get("LD_PRELOAD", ""):
            import ctypes

            from bench.rush_instructions import _helper
            self._lib = ctypes.CDLL(str(_helper()))

    def part(self, name: str, work):
        if self._lib:
            self._lib.zero()
        t0 = time.process_time()
        out = work()
        self.spent[name] = self.spent.get(name, 0.0) + time.process_time() - t0
        if self._lib:
            self._lib.dump(name.encode())
        return out


if __name__ == "__main__":
    main()
