"""The one table of kinds the judge and the fold dispatch on, gathered from every module
of hub/conductor/kinds/ (each lists its kinds in `KINDS`): a module there is registered
by being there. Checked as it is gathered: a kind claimed twice, a kind without a body
(hub/conductor/events.py's `kind`), a check where none may be or none where one must be
stop the import, so a mistake shows at start-up, not at the party."""
from __future__ import annotations

import importlib
import pkgutil

from . import events, kinds
from .ruling import Kind

AUTHORS = ("table", "staff", "hub")


def _gathered() -> dict[str, Kind]:
    found: dict[str, Kind] = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(kinds.__path__)):
        for kind in importlib.import_module(f"{kinds.__name__}.{module}").KINDS:
            if kind.name in found:
                raise ImportError(f"kind {kind.name} is registered twice (kinds/{module}.py)")
            if kind.name not in events.BODIES:
                raise ImportError(f"kind {kind.name} has no body (kinds/{module}.py): declare it with events.kind")
            if kind.by not in AUTHORS or (kind.check is None) != (kind.by == "hub"):
                raise ImportError(f"kind {kind.name}: by {kind.by!r} with check {kind.check!r}")
            found[kind.name] = kind
    return found


KINDS: dict[str, Kind] = _gathered()
# the two look-ups the writer makes per input, one dict each (the kinds' fields by name
# would be two attribute reads more per look-up)
CHECKS = {name: (kind.by, kind.check) for name, kind in KINDS.items() if kind.check is not None}
FOLDS = {name: kind.fold for name, kind in KINDS.items() if kind.fold is not None}
TABLE_KINDS = frozenset(name for name, kind in KINDS.items() if kind.by == "table")
STAFF_KINDS = frozenset(name for name, kind in KINDS.items() if kind.by == "staff")
HUB_KINDS = frozenset(name for name, kind in KINDS.items() if kind.by == "hub")

