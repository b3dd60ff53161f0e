"""`party replay JOURNAL [--json | --audit]`: the party as the journal makes it, offline.

Opens the SQLite journal read-only (it may be open in the hub beside us; see
docs/journal.md), folds every event through the conductor and prints the derived
state: seating of each session, score-cards, standings and prizes, as text, or
with --json exactly `hub.conductor.to_json` — the same JSON a live hub derives.
With --audit it lists every event the conductor would not have written instead
(`hub.conductor.audit`, the check the hub makes at start-up).
"""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

from hub import seal
from hub.conductor import audit, replay, to_json
from hub.event import Event
from hub.journal import JournalDamaged, check_file, open_reader, read_events


def read_journal(path: str) -> list[Event]:
    check_file(path)
    db = open_reader(path)
    try:
        return list(read_events(db))
    finally:
        db.close()


def text(doc: dict) -> str:
    if doc["setup"] is None:
        return "no party in this journal\n"
    setup, out = doc["setup"], []
    out.append(f"{setup['form'].upper()} PARTY, {setup['tables']} tables "
               f"(journal to seq {doc['seq']})")
    if doc["changes"]:
        out.append("\nCHANGES")
        out += [f"  seq {c['seq']}: {c['what']}, by {c['by']} ({c['why']})" for c in doc["changes"]]
    for s in doc["sessions"]:
        out.append(f"\nSESSION {s['number']} (seated by {s['seated_by']})")
        for table, seats in s["seating"].items():
            out.append(f"  Table {table}: " + ", ".join(f"{x} {g}" for x, g in seats.items()))
        for lot in s["lots"]:
            out.append(f"  lot at table {lot['table']} ({lot['why']}): {lot['moved']} move")
        for b in s["bells"]:
            undone = f", undone by {b['undone']['by']}: {b['undone']['why']}" if b["undone"] else ""
            cause = f" ({b['cause']})" if b["cause"] else ""
            out.append(f"  bell {b['id']} {b['meaning']} by {b['by']}{cause}{undone}")
        for m in s["mends"]:
            out.append(f"  mend: {json.dumps(m, sort_keys=True)}")
    out.append("\nSCORE-CARDS")
    for c in doc["score_cards"]:
        games = "; ".join(f"{r['session']}: T{r['table']}{r['seat'] or ''} {r['games']}"
                          for r in c["sessions"])
        holes = f", punch-holes {len(c['punch_holes'])}" if c["punch_holes"] else ""
        left = " (left)" if c["left"] else ""
        out.append(f"  {c['label']:<18} {c['guest']}{left}: total {c['total']}{holes} | {games}")
    out.append(f"\nSTANDINGS ({setup['form']}, by {doc['standings']['measure']})")
    for row in doc["standings"]["leaders"]:
        out.append(f"  {row['rank']:>3}. {row['guest']:<20} {row['amount']:>5}  {row['place'] or ''}")
    if doc["prizes"]:
        out.append("\nPRIZES")
        for a in doc["prizes"]:
            who = a["winner"] or "play-off among " + ", ".join(a["candidates"])
            out.append(f"  {a['prize']}: {who} ({a['amount']})")
    for a in doc["anomalies"]:
        out.append(f"ANOMALY at seq {a[0]} ({a[1]}): {a[2]}")
    return "\n".join(out) + "\n"


def add_commands(subparsers) -> None:
    p = subparsers.add_parser("replay", help="print the party a journal makes (seating, "
                                             "score-cards, standings, prizes)")
    p.add_argument("journal", help="the party's SQLite journal file")
    p.add_argument("--json", action="store_true", help="print the derived state as JSON")
    p.add_argument("--audit", action="store_true",
                   help="judge every input again against the state before it and list every "
                        "event the conductor would refuse or have decided otherwise (exit 1 if any)")
    p.set_defaults(func=run)


def _host_journal(path: str) -> list[Event]:
    """The journal the host named, or what is wrong with it said in a line (a wrong name,
    the guest list's CSV given instead, a damaged file: which row, where)."""
    if not Path(path).is_file():
        raise SystemExit(f"party replay: no journal at {path}")
    try:
        return read_journal(path)
    except sqlite3.DatabaseError as e:
        raise SystemExit(f"party replay: {path} is not a party's journal ({e})") from None
    except JournalDamaged as e:
        raise SystemExit(f"party replay: the journal {path} is damaged: {e}") from None


def run(args) -> int:
    if args.audit:
        return run_audit(args.journal)
    doc = to_json(replay(_host_journal(args.journal)))
    if args.json:
        sys.stdout.write(json.dumps(doc, sort_keys=True, indent=1) + "\n")
    else:
        sys.stdout.write(text(doc))
    return 0


def run_audit(path: str) -> int:
    events = _host_journal(path)
    chain = _chain(path)
    _, findings = audit(events)
    for f in findings:
        sys.stdout.write(f"{f}\n")
    sys.stdout.write(f"{said(chain, path)}\n")
    sys.stdout.write(f"audit of {path}: {len(events)} events, {len({f.seq for f in findings})} of them "
                     f"the conductor would not have written\n")
    return 1 if findings or chain.broken else 0


def _chain(path: str) -> seal.Chain:
    record = seal.read_head(path)   # before the rows: a running hub is only ahead of it
    db = open_reader(path)
    try:
        return seal.check(db, record)
    finally:
        db.close()


def said(chain: seal.Chain, path: str) -> str:
    """The seal as the audit found it, in a line."""
    if chain.broken:
        return f"SEAL BROKEN: {chain.broken}"
    if chain.since is None:
        return "seal: none (a journal written before the seal, not opened by a hub since): rows not checked"
    old = (f"; seq 1 to {chain.since - 1}, written before the seal, are covered by the first seal after "
           f"them" if chain.since > 1 and chain.sealed else "")
    record = ("the writer's head record agrees" if chain.record else
              f"no head record beside it ({seal.head_path(path).name}): rows removed from its end could "
              f"not be seen")
    return f"seal: unbroken to seq {chain.seq}, receipt {seal.receipt(chain.head)}{old}; {record}"
