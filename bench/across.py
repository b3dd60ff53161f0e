"""The changes of the bytes made on purpose, which bench/same_bytes.py looks past when asked.

    python bench/same_bytes.py --against 20672b9 --across issue-24

A commit that changes what the hub writes or says on purpose makes every same-bytes
check against a commit before it print DIFFERENT, and a real difference is then lost
among the intended ones. Each intended change is one rule in `DECLARED`: what it
removes or normalises and on which side, the issue and commit that made it, and why.
A rule touches only the field it names, or a kind of row or reply that could not be
there before its commit (it says so). A rule refuses to run where the commit compared
against already has the change, so it never hides a difference between two trees
that both have it. Everything a rule does not name is compared as before.

A run, as bench/same_bytes.py hands it here: "journal" (rows as lists), "refused" (rows
as lists: id, digest, why, at), "replies" (per batch, [topic, payload, retain]),
"clocks" (each batch's time) and "restored_at" (the takeover's time, or None).
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, NamedTuple

from hub import protocol


class NotAcross(Exception):
    """A rule asked for where the commit compared against already has its change."""


class Load(NamedTuple):
    """What the rules read of the load both trees were given."""
    envelope: dict[str, set[tuple[str, str]]]   # id -> (digest of the bytes, why) of inputs refused at the envelope
    reused: frozenset[str]                      # ids refused at the envelope and also sent with other bytes


def read_load(items: list[tuple[int, bytes]]) -> Load:
    """The inputs this tree refuses at their envelope naming an id, and the ids also sent with other content."""
    envelope: dict[str, set[tuple[str, str]]] = {}
    contents: dict[str, set[bytes]] = {}
    for table, payload in items:
        try:
            contents.setdefault(protocol.parse_event(table, bytes(payload)).id, set()).add(payload)
        except protocol.Refusal as refusal:
            if refusal.event_id:
                envelope.setdefault(refusal.event_id, set()).add((hashlib.sha256(payload).hexdigest(), refusal.why))
                contents.setdefault(refusal.event_id, set()).add(payload)
    return Load(envelope, frozenset(i for i in envelope if len(contents[i]) > 1))


@dataclass(frozen=True)
class Declared:
    """One change of the bytes made on purpose. `apply(here, there, load)` normalises one
    run of each tree in place and counts what it touched."""
    name: str
    issue: str
    commit: str
    why: str
    touches: str
    apply: Callable[[dict, dict, Load], Counter]


# ----- issue 24: the sealed journal, one id one verdict, the takeover's rebuild ----------------

ENVELOPE_WHYS = frozenset({"BAD MESSAGE", "UPDATE FIRMWARE", "WRONG TABLE", "UNKNOWN KIND", "TOO LONG"})
SETTLE_S = 60.0   # 20672b9's TAKEOVER_SETTLE_S
_SEALED_ACK = re.compile(r'(\{.*"ok":true.*),"seal":"[0-9a-f]{64}"\}')


def _acks(run: dict):
    """(batch index, index in batch, topic, the ack read) of every ack of a run."""
    for b, batch in enumerate(run["replies"]):
        for i, (topic, payload, _) in enumerate(batch):
            if topic.endswith("/ack"):
                yield b, i, topic, json.loads(payload)


def _journal_seal(here: dict, there: dict, load: Load) -> Counter:
    if any(len(row) != 7 for row in there["journal"]):
        raise NotAcross("its journal rows already have the seal column")
    for row in here["journal"]:
        if len(row) == 8:   # seq, id, at, source, kind, body, digest, seal
            del row[7]
    return Counter({"journal rows": len(here["journal"])})


def _ack_seal(here: dict, there: dict, load: Load) -> Counter:
    if any("seal" in ack for _, _, _, ack in _acks(there)):
        raise NotAcross("its acks already carry a seal")
    touched = Counter()
    for batch in here["replies"]:
        for reply in batch:
            sealed = _SEALED_ACK.fullmatch(reply[1]) if reply[0].endswith("/ack") else None
            if sealed:   # the seal is an ok ack's last key: cut from the text, the rest as sent
                reply[1] = sealed.group(1) + "}"
                touched["ok acks"] += 1
    return touched


def _recorded_at_envelope(row: list, load: Load) -> bool:
    return (row[1], row[2]) in load.envelope.get(row[0], ())


def _envelope_recorded(here: dict, there: dict, load: Load) -> Counter:
    if any(_recorded_at_envelope(row, load) for row in there["refused"]):
        raise NotAcross("it already records refusals at the envelope")
    kept = [row for row in here["refused"] if not _recorded_at_envelope(row, load)]
    touched = Counter({"refused rows": len(here["refused"]) - len(kept)})
    here["refused"][:] = kept
    return touched


def _reused_after_envelope(here: dict, there: dict, load: Load) -> Counter:
    touched = Counter()
    # the refused row: where the id was first refused at the envelope here, 20672b9
    # recorded the verdict of its later input with other content (here ID REUSED, not recorded)
    first = {row[0]: row for row in here["refused"] if row[0] in load.reused and _recorded_at_envelope(row, load)}
    kept = []
    for row in there["refused"]:
        mine = first.get(row[0])
        if mine and row[1] != mine[1] and row[3] > mine[3]:
            touched["refused rows"] += 1
        else:
            kept.append(row)
    there["refused"][:] = kept
    # the ack: ID REUSED here where 20672b9 said anything else, the same input (same batch,
    # table and id): its refusal at the envelope or its content's verdict
    theirs: dict[tuple[int, str, str], list[int]] = {}
    for b, i, topic, ack in _acks(there):
        if ack["id"] in load.reused:
            theirs.setdefault((b, topic, ack["id"]), []).append(i)
    for b, i, topic, ack in _acks(here):
        if ack["id"] in load.reused and ack.get("why") == "ID REUSED":
            for j in theirs.get((b, topic, ack["id"]), ()):
                other = json.loads(there["replies"][b][j][1])
                if other != ack and not other["ok"]:
                    theirs[(b, topic, ack["id"])].remove(j)
                    for side, k in ((here, i), (there, j)):
                        side["replies"][b][k][1] = json.dumps(dict(ack, why="ID REUSED (issue 24: one id, one verdict)"),
                                                              separators=(",", ":"))
                    touched["acks"] += 1
                    break
    return touched


def _settling_gone(here: dict, there: dict, load: Load) -> Counter:
    restored = here["restored_at"]
    touched: Counter = Counter()
    if restored is None:   # a hub running all along: no minute
        return touched
    end = restored + SETTLE_S
    if any(row[3] < end for row in there["refused"]):
        raise NotAcross("it records refusals in the minute after a takeover")
    theirs = {row[0]: row for row in there["refused"]}
    kept = []
    for row in here["refused"]:
        other = theirs.get(row[0])
        if row[3] >= end:
            kept.append(row)
        elif other is None:
            touched["refused rows"] += 1   # held, and never sent again after the minute
        elif other[1:3] == row[1:3]:
            row[3] = other[3] = None        # the same verdict, recorded when sent again after the minute
            touched["refused rows' time"] += 1
            kept.append(row)
        else:
            kept.append(row)
    here["refused"][:] = kept
    for b, clock in enumerate(here["clocks"]):
        if clock >= end:
            break
        answered = Counter(reply[1] for reply in there["replies"][b])
        kept = []
        for reply in here["replies"][b]:
            ack = json.loads(reply[1]) if reply[0].endswith("/ack") else None
            if ack and not ack["ok"] and ack["why"] not in ENVELOPE_WHYS and not answered[reply[1]]:
                touched["acks"] += 1     # a refusal 20672b9 held: no answer
                continue
            answered[reply[1]] -= 1
            kept.append(reply)
        here["replies"][b] = kept
    return touched


DECLARED = {
    "issue-24": (
        Declared("journal-seal", "24", "df04d08",
                 "each journal row carries its seal, the hash chain's link (a column the older journal has not)",
                 "removes the journal's 8th column, seal, from this tree's rows",
                 _journal_seal),
        Declared("ack-seal", "24", "c4c5b6e",
                 "an ok ack carries the seal of its row, the receipt the board shows",
                 "removes the last key, seal, of this tree's ok acks",
                 _ack_seal),
        Declared("reused-after-envelope", "24", "8076f9b",
                 "an id refused at the envelope has had its verdict: any other content with it is ID REUSED",
                 "for ids sent both refused at the envelope and with other content: the older tree's refused row "
                 "for the later content (recorded after this tree's refusal at the envelope) removed, and the "
                 "why of an ack saying ID REUSED here and anything else there, same batch and table, "
                 "made the same on both sides",
                 _reused_after_envelope),
        Declared("envelope-recorded", "24", "8076f9b",
                 "a refusal at the envelope is final and recorded, as the digest of the bytes sent",
                 "removes this tree's refused rows whose digest is that of the bytes of an input refused at "
                 "the envelope, with its why: a row the older tree never wrote (it refuses if the older tree has one)",
                 _envelope_recorded),
        Declared("settling-gone", "24", "d0f4bb2",
                 "the takeover rebuilds instead of holding the tables' refusals for a minute",
                 "in the takeover run, in the minute after the restoration: this tree's refusal acks (not at "
                 "the envelope) that the older tree did not give in that batch, this tree's refused rows of that "
                 "minute that the older tree never recorded, and the time of those it recorded later with the same "
                 "digest and why: rows the older tree never wrote in that minute (it refuses if it has one)",
                 _settling_gone),
    ),
}


def normalise(mine: dict, theirs: dict, change: str, items: list[tuple[int, bytes]]) -> list[tuple[Declared, Counter]]:
    """Every rule of `change` applied to each run of both trees, in place: what each touched."""
    load = read_load(items)
    out = []
    for rule in DECLARED[change]:
        touched: Counter = Counter()
        for run in mine:
            try:
                touched += rule.apply(mine[run], theirs[run], load)
            except NotAcross as e:
                raise NotAcross(f"{rule.name}: the commit compared against is not before {rule.commit}: {e}") from None
        out.append((rule, touched))
    return out
