"""The judge of a rush's result taken apart: `conductor.admit` on the rush's 200 results (the
party of bench/rush_instructions.py, set up there), and each of its parts run on its own over
the same 200 results, one callgrind dump a part (or, without callgrind, cProfile's Python
calls a part); a result = the part / 200.

    .venv/bin/python bench/rush_instructions.py setup DIR          # once per tree (see there)
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/judge.out \\
        .venv/bin/python bench/judge_instructions.py DIR [--tree TREE]
    .venv/bin/python bench/rush_instructions.py sum /tmp/judge.out   # instructions a part

Each part is timed alone on the state the result met (the results admitted in turn, as a
batch of 200 would), what it makes freed after it as the writer frees it; the parts overlap
(`score` holds `engine`, which holds `checker`, which holds `bounds`; the
fold is `event` and `folded`, which holds `entry`, `with_entry` and `state.with_table`), and a part's frame and the
list it fills are in its figure: the figures are approximate, their sum is not `admit`'s.
The tables' screens are made once before the count, so that the answers a live hub's screens
leave on each table (`players`, `entered`, `pending`: hub/conductor/state.py) are there, as
in bench/rush_instructions.py's `--edge` run and a live rush; the first result is judged once
before the count (what a process compiles at its first result, not a rush's).
"""
from __future__ import annotations

import argparse
import gc
import logging
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(where: Path) -> None:
    from bench.rush_instructions import Counter, scratch_journal
    from hub import conductor, protocol
    from hub.conductor import scoring
    from hub.conductor.fold import folded
    from hub.conductor.kinds.tables import check_result, entry_of_result
    from hub.conductor.leads import keys_lead
    from hub.scoring import get_form
    from hub.service import Hub
    rush = pickle.loads((where / "rush.pickle").read_bytes())
    scratch = scratch_journal(where, "judge")
    logging.getLogger("hub").setLevel(logging.ERROR)
    hub = Hub(scratch, "127.0.0.1", 1)   # never connected
    now = time.time()
    conductor.screens(hub.state)
    conductor.admit(hub.state, protocol.parse_event(*rush[0]), hub.state.seq, now)

    def proposals():   # each part's own, unread (a proposal keeps its body once read)
        return [protocol.parse_event(table, payload) for table, payload in rush]

    states, state = [], hub.state
    for p in proposals():   # the state each result met
        states.append(state)
        verdict, state, events = conductor.admit(state, p, state.seq, now)
        assert verdict.ok, verdict
    ps = proposals()
    counter = Counter()

    class count:   # each part after a collection, so that no pass of the collector falls in one
        @staticmethod
        def part(name, work):
            gc.collect()
            counter.part(name, work)
    count.part("what", lambda: [p.what for p in ps])   # the body read (the rest read it already)
    count.part("admit", lambda: [conductor.admit(s, p, s.seq, now) for s, p in zip(states, ps)])
    count.part("check", lambda: [check_result(s, p, p.what.table, now) for s, p in zip(states, ps)])
    tables = [s.sessions[-1].tables[p.what.table] for s, p in zip(states, ps)]
    keyed = [(s.setup, t.seats, p.what.values, keys_lead(s.setup.form, p.what.game))
             for s, p, t in zip(states, ps, tables)]
    count.part("score", lambda: [scoring.score(setup, seats, values, lead=lead) for setup, seats, values, lead in keyed])
    # the engine's part of the score, through its public door (a full table, no lead keyed:
    # the table's values are the engine's, as `scoring.score` hands them on)
    assert all(None not in seats and not lead for _, seats, _, lead in keyed), "a short table or a lead"
    engines, made = [], {}   # one scorer and checker a rules, as the door keeps them (their code warm)
    for setup, seats, values, _ in keyed:
        r = scoring.rules(setup, len(seats))
        if r not in made:
            form = get_form(r.form)
            entry = form.entry_form(r)
            made[r] = form.scorer(r), entry.checker(whole=True), entry.checks
        engines.append((*made[r], dict(values)))
    count.part("engine", lambda: [score(dict(values)) for score, _, _, values in engines])
    count.part("checker", lambda: [check(dict(values)) for _, check, _, values in engines])
    count.part("bounds", lambda: [[check(values) for check in checks] for _, _, checks, values in engines])
    scored = [scoring.score(setup, seats, values, lead=lead) for setup, seats, values, lead in keyed]
    count.part("judged", lambda: [p.judged(outcome=o) for p, o in zip(ps, scored)])
    admits = [check_result(s, p, p.what.table, now) for s, p in zip(states, ps)]
    count.part("event", lambda: [a.proposals[0].event(s.seq + 1, now) for s, a in zip(states, admits)])
    events = [a.proposals[0].event(s.seq + 1, now) for s, a in zip(states, admits)]
    count.part("folded", lambda: [folded(s, e) for s, e in zip(states, events)])
    at = [(s, e.what.table, s.sessions[-1]) for s, e in zip(states, events)]
    count.part("entry", lambda: [entry_of_result(s, e, session.number, session.tables[n].seats)
                                 for (s, n, session), e in zip(at, events)])
    entries = [entry_of_result(s, e, session.number, session.tables[n].seats) for (s, n, session), e in zip(at, events)]
    count.part("with_entry", lambda: [session.tables[n].with_entry(e) for (s, n, session), e in zip(at, entries)])
    put = [(s, n, session.tables[n].with_entry(e)) for (s, n, session), e in zip(at, entries)]
    count.part("state.with_table", lambda: [s.with_table(n, t) for s, n, t in put])
    count.part("tables.set", lambda: [s.sessions[-1].tables.set(n, t) for s, n, t in put])
    for name, calls in counter.calls.items():
        print(f"{name}: {calls / len(rush):.1f} Python calls a result")
    hub.journal.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="the party's directory (bench/rush_instructions.py setup)")
    ap.add_argument("--tree", default=str(ROOT), help="the project's code to import (default: this tree)")
    args = ap.parse_args()
    sys.path[:0] = [args.tree, str(ROOT)]
    run(Path(args.dir))


if __name__ == "__main__":
    main()
