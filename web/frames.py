"""A screen's next frame as what changed since the view it holds, not the whole view.

At 200 tables the projector's view is about 100 KB (200 tables' rows, 800 leaders'), and
every screen in the room (projectors and guests' phones on the hall's Wi-Fi) was sent all
of it at every change, when one entry changes one table and its four players. A `change`
says, of the view a screen holds (`base`, its journal seq), the rows of `tables` and
`leaders` that differ at their place, the lists' new lengths, and every other key that
changed, whole. web/static/standings.js applies it the way `applied` does.

The projection makes each view from the one before, keeping the rows that did not change
(web/projection.py `_kept`: the very same objects), so most rows are told apart by identity.
"""
from __future__ import annotations

import orjson

LISTS = ("tables", "leaders")   # the long lists, sent by the row; any other key goes whole


def change(before: dict, after: dict, base: int) -> dict | None:
    """What takes a screen holding `before` (the view of seq `base`) to `after`; None where
    only the whole view will do: the keys differ (the party created, the note gone), or the
    conductor's switch hiding the standings was flipped (the hidden view is the room's
    whole picture, not a few rows off the shown one)."""
    if before.keys() != after.keys() or before["hidden"] != after["hidden"]:
        return None
    lists = {}
    for name in LISTS:
        old, new = before[name], after[name]
        if old is new:
            continue
        rows = [[i, row] for i, row in enumerate(new)
                if i >= len(old) or (row is not old[i] and row != old[i])]
        if rows or len(new) != len(old):
            lists[name] = {"length": len(new), "rows": rows}
    changed = {k: v for k, v in after.items()
               if k not in LISTS and v is not before[k] and v != before[k]}
    return {"base": base, "set": changed, "lists": lists}


def applied(before: dict, delta: dict) -> dict:
    """The view a screen holding `before` draws after `delta` (as standings.js applies it)."""
    view = {**before, **delta["set"]}
    for name, told in delta["lists"].items():
        rows = before[name][:told["length"]]
        rows += [None] * (told["length"] - len(rows))
        for i, row in told["rows"]:
            rows[i] = row
        view[name] = rows
    return view


def no_smaller(delta: dict, view: dict) -> bool:
    """True where `delta`'s JSON is surely no shorter than `view`'s, without making it: each row
    it holds is there as `[i,row]` (the row's own JSON and 4 characters more, where the view has
    it and a comma), and `set` every other key that changed (their JSON the same in both), so it
    is shorter only by what it leaves out (the rows and keys that did not change), here no longer
    than 4 characters a row it holds. A rush moves about every row: its change was made, 100 KB
    of JSON, to be found no smaller."""
    budget = 4 * sum(len(told["rows"]) for told in delta["lists"].values())
    left = 0

    def leaves(value, extra: int = 1) -> bool:   # out of the change: still within the budget?
        nonlocal left
        left += extra + len(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode())
        return left <= budget

    for name in LISTS:
        told = delta["lists"].get(name)
        sent = {i for i, _ in told["rows"]} if told else ()
        if told is None:
            left += len(name) + 6   # "name":[],
        if not all(leaves(row) for i, row in enumerate(view[name]) if i not in sent):
            return False
    return budget > 0 and all(leaves(value, len(key) + 4) for key, value in view.items()
                              if key not in LISTS and key not in delta["set"])
