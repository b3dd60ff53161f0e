"""The same bytes out of the hub's batch path, on this tree and on another commit.

    python bench/same_bytes.py --against REV     # ALL SAME, or the first differences
    python bench/same_bytes.py --against 20672b9 --across issue-24   # past issue 24's declared changes
    python bench/same_bytes.py                   # this tree alone: what the load holds

The writer bench's load (bench/hub_bench.py: 200 tables x 40 results of a Draw
party, the values played out by the scoring engine) with a tenth of it resent,
some at once and some much later, and junk mixed in: payloads that are not JSON,
a value that is not a number, a wrong table, an unknown kind, an old protocol,
a table not at the party, a game far ahead, a bell that was never rung, ids
reused with other content. It is made once, in this process, so both revisions
are given the same bytes. The party's clock is the load's own (`time.time` is
set before each batch: 100 s over the run), and the session has a time limit,
so the hub's own bell rings part way through and the results after it are
refused for good.

Each revision runs in a child process of its own (REV checked out into a
temporary `git worktree`, bench/against.py), which sets the party up in a fresh
journal (staff actions admitted by `conductor.admit` and appended), opens a
`Hub` on it, not connected to any broker, and hands it the load in batches of
1, 7 and 50, twice: as a hub that has run all along, and as one just restored
by a takeover (marked restored; a hub not started has no rebuild to run, hub/rebuild.py). Compared: every journal row
(all columns), every row of the refused table, and every reply handed to the
MQTT edge (topic, payload, retain: acks, screens, the bell), batch by batch.

The adapter (`batch_path`) is the one place that knows each revision's way in.

`--across CHANGE` compares across changes of the bytes made on purpose since REV: each
a named rule of bench/across.py that removes or normalises only what it names, on the
side it names. It prints what each touched, then ALL SAME or every other difference.
"""
from __future__ import annotations

import argparse
import base64
import cProfile
import json
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BATCHES = (1, 7, 50)
SCENARIOS = ("running", "takeover")
TABLES, GAMES, SEED = 200, 40, 1
START = 1_800_000_000.0    # the party's clock at its set-up
SPAN = 100.0               # seconds the load's inputs span
SETUP = {"form": "draw", "games_per_session": GAMES, "sessions": 1, "seat_check": False,
         "time_limit": 1.3}   # minutes: the hub's bell at 78 s of the 100


# ----- the load: made once, in this process, with this tree's code ---------------------------

def make_load(seed: int = SEED) -> dict:
    """The staff actions that set the party up, and the tables' inputs (table, payload)."""
    from bench.hub_bench import results
    from hub import conductor
    from hub.conductor import events as k
    from hub.event import Proposal

    staff = [(k.PARTY_CREATED, dict(SETUP, tables=TABLES))]
    for g in (f"Guest {i}" for i in range(1, 4 * TABLES + 1)):
        staff += [(k.GUEST_LISTED, {"guest": g}), (k.CHECKED_IN, {"guest": g})]
    staff += [(k.DRAW_SEATS, {"seed": 1896}), (k.SESSION_STARTED, {"session": 1})]
    setup = [(f"staff-set-up-{i}", "staff:bench", kind, body) for i, (kind, body) in enumerate(staff)]
    state = conductor.replay([])
    for id_, source, kind, body in setup:   # this tree's seating decides the values keyed
        verdict, state, _ = conductor.admit(state, Proposal(id_, source, kind, dict(body)),
                                            state.seq, START)
        assert verdict.ok, (kind, verdict.why)
    seats = {n: t.seats for n, t in state.session.tables.items()}
    bodies = results(SETUP, seats, TABLES, GAMES, seed)

    def payload(n: int, event_id: str, kind: str, body, **envelope) -> tuple[int, bytes]:
        msg = {"v": 1, "id": event_id, "table": n, "kind": kind, "body": body, **envelope}
        return n, json.dumps(msg, separators=(",", ":")).encode()

    # the order a room sends in: every table's first result, then every second...
    items = [payload(n, f"bench-{n}.1.{g}", "result", bodies[n][g - 1])
             for g in range(1, GAMES + 1) for n in range(1, TABLES + 1)]
    rng = random.Random(seed)
    junk, malformed = [], []
    for i in range(40):
        n, g = rng.randrange(1, TABLES + 1), rng.randrange(1, GAMES + 1)
        good = bodies[n][g - 1]
        malformed.append((n, f"junk-{n}.7.{i}"))
        junk += [
            (n, b"not json {"),
            (n, b'{"v":1,"id":"bad id","table":%d,"kind":"result","body":{}}' % n),
            (n, b"x" * 3000),
            payload(n, f"junk-{n}.7.{i}", "result", {"game": g, "values": dict(good["values"], A="one")}),
            payload(n, f"junk-{n}.8.{i}", "result", good, v=2),
            payload(n, f"junk-{n}.9.{i}", "result", good, table=n % TABLES + 1),
            payload(n, f"junk-{n}.10.{i}", "shout", {}),
            payload(n, f"junk-{n}.11.{i}", "result", {"game": GAMES + 5, "values": good["values"]}),
            payload(n, f"junk-{n}.12.{i}", "bell-ack", {"bell": "never-rung"}),
            payload(n, f"bench-{n}.1.{g}", "result", {"game": g, "values": dict(good["values"], A=1)}),
            (999, json.dumps({"v": 1, "id": f"far-999.1.{i}", "table": 999, "kind": "result",
                              "body": good}).encode()),
        ]
    # the ids refused at the envelope (a value not a number), sent again well formed (a game saved)
    junk += [payload(n, event_id, "result", bodies[n][0]) for n, event_id in malformed]
    for item in junk:
        items.insert(rng.randrange(len(items) + 1), item)
    # a tenth resent: the same bytes again, soon after or much later
    for _ in range(len(items) // 10):
        i = rng.randrange(len(items))
        later = i + 1 + (rng.randrange(8) if rng.random() < 0.5 else rng.randrange(len(items) - i))
        items.insert(min(later, len(items)), items[i])
    return {"setup": setup, "items": [(n, base64.b64encode(p).decode()) for n, p in items]}


# ----- one revision, in a child process -----------------------------------------------------

class BatchPath:
    """The adapter: a revision's hub, not connected, and its way to take one batch of
    tables' inputs. Every revision this check has compared so far takes them through
    `Hub.write_batch(items)` (the writer thread's step: the batch policy, the journal and
    the publishing), with `TableInput(table, payload)` items, reading the clock with
    `time.time()`, and handing each publish to `hub.mqtt.reply(topic, payload, retain)`."""

    def __init__(self, journal: Path, replies: list):
        from hub import service
        if not hasattr(service.Hub, "write_batch"):
            raise SystemExit("this revision's hub has no write_batch: teach bench/same_bytes.py's "
                             "BatchPath its way in")
        self.hub = service.Hub(journal, "127.0.0.1", 1)
        self.hub.mqtt.reply = lambda topic, payload, retain=False: replies.append([topic, payload.decode(), retain])
        self.input = service.TableInput

    def write(self, items: list[tuple[int, bytes]]) -> None:
        self.hub.write_batch([self.input(n, p) for n, p in items])

    def close(self) -> None:
        self.hub.journal.close()


def drive(load: dict, batch: int, scenario: str, journal: Path) -> dict:
    """The replies, batch by batch, and the journal's path."""
    import time

    from hub import conductor
    from hub.event import Proposal
    from hub.journal import Journal

    clock = [START]
    time.time = lambda: clock[0]   # the party's clock is the load's: the same on both sides
    j, state = Journal(journal), conductor.replay([])
    for id_, source, kind, body in load["setup"]:
        verdict, state, events = conductor.admit(state, Proposal(id_, source, kind, body), state.seq, START)
        assert verdict.ok, (kind, verdict.why)
        j.append(events)
    if scenario == "takeover":
        j.mark_restored(START)
    j.close()
    replies: list = []
    path = BatchPath(journal, replies)
    items = [(n, base64.b64decode(p)) for n, p in load["items"]]
    per_batch, clocks = [], []
    # the Python calls the batch path makes, counted in one run (batches of 50, as the writer
    # bench's): its cost, told apart on a machine too loaded for a timing to
    profiler = cProfile.Profile() if (scenario, batch) == (SCENARIOS[0], 50) else None
    for i in range(0, len(items), batch):
        clock[0] = START + 1 + SPAN * i / len(items)
        clocks.append(clock[0])
        if profiler:
            profiler.enable()
        path.write(items[i:i + batch])
        if profiler:
            profiler.disable()
        per_batch.append(replies[:])
        replies.clear()
    path.close()
    calls = pstats.Stats(profiler).total_calls / len(items) if profiler else None
    return {"path": str(journal), "replies": per_batch, "calls": calls, "clocks": clocks,
            "restored_at": START if scenario == "takeover" else None}


def _child(root: str, load_file: str, out_file: str) -> None:
    sys.path.insert(0, root)   # the revision's hub, before this tree's
    import logging
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("hub").setLevel(logging.ERROR)
    load = json.loads(Path(load_file).read_text())
    work = Path(tempfile.mkdtemp(prefix="same-bytes-", dir=_fast_dir()))
    out = {f"{scenario}, batches of {batch}": drive(load, batch, scenario, work / f"{scenario}-{batch}.sqlite3")
           for scenario in SCENARIOS for batch in BATCHES}
    Path(out_file).write_text(json.dumps(out))


def _fast_dir() -> str | None:
    """tmpfs where there is one: a batch of 1 is a transaction and an fsync per input."""
    return "/dev/shm" if Path("/dev/shm").is_dir() else None


def run_revision(root: Path, label: str, load_file: Path, work: Path) -> dict:
    out = work / f"{label}.json"
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(root), str(load_file),
                           str(out)], cwd=root)
    if proc.returncode:
        raise SystemExit(f"{label}: the batch path failed (exit {proc.returncode})")
    from hub.journal import stored_rows   # this tree's reading, whatever the revision wrote
    runs = json.loads(out.read_text())
    for got in runs.values():
        journal = Path(got.pop("path"))
        rows = stored_rows(journal)
        got["journal"], got["refused"] = ([list(r) for r in rows[t]] for t in ("journal", "refused"))
    shutil.rmtree(journal.parent, ignore_errors=True)
    return runs


# ----- the comparison -----------------------------------------------------------------------

def differences(mine: dict, theirs: dict, shown: int = 5) -> list[str]:
    """The first `shown` differences of each kind in each run, in words."""
    out = []
    for run in mine:
        a, b = mine[run]["journal"], theirs[run]["journal"]
        bad = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if len(a) != len(b):
            out.append(f"{run}: journal: {len(a)} rows here, {len(b)} there")
        out += [f"{run}: journal row {i}:\n    here:  {x}\n    there: {y}" for i, x, y in bad[:shown]]
        if len(bad) > shown:
            out.append(f"{run}: journal: ... {len(bad) - shown} more rows differ")
        # the refused rows by id (a row more or less does not shift the others)
        a, b = ({row[0]: row for row in got[run]["refused"]} for got in (mine, theirs))
        for side, ids in (("here only", a.keys() - b.keys()), ("there only", b.keys() - a.keys())):
            if ids:
                whys: dict[str, int] = {}
                for i in ids:
                    why = (a if side == "here only" else b)[i][2]
                    whys[why] = whys.get(why, 0) + 1
                out.append(f"{run}: refused {side}: {len(ids)} ids ({', '.join(f'{n} {w}' for w, n in sorted(whys.items()))}),"
                           f" e.g. {sorted(ids)[:3]}")
        changed = sorted(i for i in a.keys() & b.keys() if a[i] != b[i])
        out += [f"{run}: refused {i}:\n    here:  {a[i]}\n    there: {b[i]}" for i in changed[:shown]]
        a, b = mine[run]["replies"], theirs[run]["replies"]
        bad = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if len(a) != len(b):
            out.append(f"{run}: replies: {len(a)} batches here, {len(b)} there")
        for i, x, y in bad[:shown]:
            first = next(j for j in range(max(len(x), len(y))) if (x[j:j + 1] != y[j:j + 1]))
            out.append(f"{run}: replies of batch {i} (reply {first} of {len(x)} here, {len(y)} there):\n"
                       f"    here:  {x[first] if first < len(x) else '(none)'}\n"
                       f"    there: {y[first] if first < len(y) else '(none)'}")
        if len(bad) > shown:
            out.append(f"{run}: replies: ... {len(bad) - shown} more batches differ")
    return out


def summary(runs: dict) -> None:
    for run, got in runs.items():
        replies = [r for batch in got["replies"] for r in batch]
        acks = [json.loads(r[1]) for r in replies if r[0].endswith("/ack")]
        whys: dict[str, int] = {}
        for a in acks:
            whys[a.get("why", "ok")] = whys.get(a.get("why", "ok"), 0) + 1
        print(f"  {run}: {len(got['journal'])} journal rows, {len(got['refused'])} refused, "
              f"{len(replies)} replies ({len(acks)} acks: "
              f"{', '.join(f'{n} {w}' for w, n in sorted(whys.items(), key=lambda x: -x[1]))})"
              + (f"; {got['calls']:.1f} Python calls per input" if got.get("calls") else ""))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        return _child(*sys.argv[2:5])
    from bench.across import DECLARED   # not in the child: it imports this tree's hub
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", metavar="REV", help="the commit to compare this tree with")
    ap.add_argument("--across", metavar="CHANGE", choices=sorted(DECLARED),
                    help="with --against: look past the changes of the bytes CHANGE made on purpose "
                         f"(bench/across.py: {', '.join(sorted(DECLARED))})")
    args = ap.parse_args()
    if args.across and not args.against:
        ap.error("--across needs --against")
    from bench.against import checked_out, short, this_tree
    work = Path(tempfile.mkdtemp(prefix="same-bytes-"))
    try:
        compare(args.against, work, checked_out, short, this_tree, args.across)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def compare(against: str | None, work: Path, checked_out, short, this_tree, across: str | None = None) -> None:
    load_file = work / "load.json"
    load = make_load()
    load_file.write_text(json.dumps(load))
    here = this_tree()
    print(f"{len(load['items'])} inputs ({TABLES} tables x {GAMES} results, a tenth resent, junk mixed in), "
          f"batches of {', '.join(map(str, BATCHES))}, {' and '.join(SCENARIOS)}", flush=True)
    mine = run_revision(ROOT, "this", load_file, work)
    print(f"this tree ({here}):")
    summary(mine)
    if not against:
        return
    commit = short(against)
    with checked_out(commit) as other:
        theirs = run_revision(other, commit, load_file, work)
    print(f"{commit}:")
    summary(theirs)
    past = ""
    if across:
        from bench.across import NotAcross, normalise
        past = f", past {across}'s declared changes"
        print(f"\nAcross {across} (bench/across.py), in all {len(mine)} runs:")
        try:
            declared = normalise(mine, theirs, across, [(n, base64.b64decode(p)) for n, p in load["items"]])
        except NotAcross as e:
            raise SystemExit(f"--across {across}: {e}")
        for rule, touched in declared:
            print(f"  {rule.name} (issue {rule.issue}, {rule.commit}): {rule.why}\n"
                  f"    {rule.touches}\n    touched: "
                  + (", ".join(f"{n:,} {what}" for what, n in sorted(touched.items())) or "nothing"))
    found = differences(mine, theirs)
    if found:
        print(f"\nDIFFERENT: this tree ({here}) against {commit}{past}")
        print("\n".join(found))
        raise SystemExit(1)
    print(f"\nALL SAME: this tree ({here}) against {commit}{past}: every journal row, refused row and reply")

if __name__ == "__main__":
    main()
