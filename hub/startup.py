"""The party a hub starts from: its journal opened and folded — audited first, unless the
host says otherwise, so that no verdict is given from a journal the conductor would not
have written (docs/journal.md)."""
from __future__ import annotations

import hashlib
import time
from functools import cache
from itertools import islice
from pathlib import Path

from . import audit_apart, conductor
from .journal import Journal, JournalDamaged


def open_party(path: str | Path, audit: bool = True):
    """(the journal, the party folded from it); `JournalFailsAudit` if audited and found
    wanting, `JournalDamaged` (hub/journal.py) if a row cannot be read.

    The rows an earlier start-up's audit passed, by this same code, are folded, not admitted
    again, where the chain checked at open shows them unchanged since (docs/journal.md, "An
    audit done once"): the rows after them are audited."""
    journal = Journal(path, chain_apart=True)   # checked beside the fold and the audit (hub/seal.py)
    try:
        with conductor.collector_paused():  # reading the journal too, not only the fold
            if audit:
                done = journal.audited_to(code())
                to = audit_apart.split(done, journal.last_seq(), journal.first_input_after)
                first = audit_apart.FirstRows(path, done, to) if to else None
                try:   # the rows up to `to` audited by the child meanwhile (hub/audit_apart.py)
                    state, findings = _audited(journal, to or done)
                    if first is not None and (findings or not first.passed()):
                        state, findings = _audited(journal, done)   # told as a whole audit tells it
                finally:
                    if first is not None:
                        first.stop()
                if journal.chain.broken:   # checked apart as it opened (hub/seal.py); a row it
                    # could not read was said first, by the audit's reading
                    raise JournalDamaged(f"its seal is broken: {journal.chain.broken}; "
                                         f"`party run --no-audit` serves it as it is")
                if findings:
                    raise JournalFailsAudit(path, findings)
                if state.seq > done:
                    journal.mark_audited(state.seq, code(), time.time())
            else:
                state = conductor.replay(journal.events())
                _ = journal.chain   # served as it is, but sealed on from its head
    except (JournalFailsAudit, JournalDamaged):   # not served (JournalDamaged: which row, where)
        journal.close()
        raise
    conductor.collector_spares_the_party()   # what was replayed stays for the party
    return journal, state


def _audited(journal: Journal, done: int):
    """The audit of the rows after `done`, from the party folded from the rows up to it."""
    events = journal.events()
    passed = conductor.replay(islice(events, done)) if done else None
    return conductor.audit(events, passed)


@cache
def code() -> str:
    """The hub's code, as the SHA-256 of its source files: an audit passed by other code (a
    newer judge, say) is not taken as this code's."""
    h = hashlib.sha256()
    root = Path(__file__).parent
    for f in sorted(root.rglob("*.py")):
        h.update(f"{f.relative_to(root)}\0".encode())
        h.update(f.read_bytes())
    return h.hexdigest()


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
