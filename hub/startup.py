"""The party a hub starts from: its journal opened and folded — audited first, unless the
host says otherwise, so that no verdict is given from a journal the conductor would not
have written (docs/journal.md)."""
from __future__ import annotations

from pathlib import Path

from . import conductor
from .journal import Journal, JournalDamaged


def open_party(path: str | Path, audit: bool = True):
    """(the journal, the party folded from it); `JournalFailsAudit` if audited and found
    wanting, `JournalDamaged` (hub/journal.py) if a row cannot be read."""
    journal = Journal(path)
    try:
        with conductor.collector_paused():  # reading the journal too, not only the fold
            if audit:
                state, findings = conductor.audit(journal.events())
                if journal.chain.broken:   # checked as it opened (hub/seal.py); a row it
                    # could not read was said first, by the audit's reading
                    raise JournalDamaged(f"its seal is broken: {journal.chain.broken}; "
                                         f"`party run --no-audit` serves it as it is")
                if findings:
                    raise JournalFailsAudit(path, findings)
            else:
                state = conductor.replay(journal.events())
    except (JournalFailsAudit, JournalDamaged):   # not served (JournalDamaged: which row, where)
        journal.close()
        raise
    conductor.collector_spares_the_party()   # what was replayed stays for the party
    return journal, state


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
