"""A screen's next frame as what changed since the view it holds, not the whole view.

At 200 tables the projector's view is about 100 KB (200 tables' rows, 800 leaders'), and
every screen in the room (projectors and guests' phones on the hall's Wi-Fi) was sent all
of it at every change, when one entry changes one table and its four players. A `change`
says, of the view a screen holds (`base`, its journal seq), the rows of `tables` and
`leaders` it does not hold, and every other key that changed, whole; a list whose rows
moved says too which of the held rows now stand where (`from`: a leader who rose from 400th
to 100th moves the 300 between down one place, each row the same but at its next place,
and sent by place they were 300 rows of every frame at an ordinary pace). web/static/standings.js
applies it the way `applied` does.

The projection makes each view from the one before, keeping the rows that did not change
(web/projection.py: the very same objects), so rows are told apart by identity.
"""
from __future__ import annotations

from operator import is_

import orjson

LISTS = ("tables", "leaders")   # the long lists, sent by the row; any other key goes whole


def span(new: list, old: list) -> tuple[int, int, int]:
    """(lo, hi, old's hi): `new`'s rows before `lo` and from `hi` on are `old`'s own at the same
    places from its start and its end; the rest of a view's list is the few rows an entry moved
    (one C pass each way, the rows between looked at in Python only)."""
    same = list(map(is_, new, old))
    lo = same.index(False) if False in same else len(same)
    if len(new) != len(old):
        return lo, len(new), len(old)
    hi = len(same) - same[::-1].index(False) if lo < len(same) else lo
    return lo, hi, hi


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
        if old is not new:
            told = _list_change(old, new)
            if told["rows"] or "from" in told or len(new) != len(old):
                lists[name] = told
    changed = {k: v for k, v in after.items()
               if k not in LISTS and v is not before[k] and v != before[k]}
    return {"base": base, "set": changed, "lists": lists}


def _list_change(old: list, new: list) -> dict:
    """`new` as runs of `old`'s rows (`from`: [first, count] each, in order; left out where it is
    `old` from its start) and the rows `old` does not hold (`rows`: [place, row]). A row held
    is one of `old`'s own, or one equal to the row at its place; a row sent takes the next place
    of the run before it, so that one row risen or fallen costs a run or two, not a row each.
    Where more than an eighth of the rows are new (a rush: its change is about as long as the
    view, and working out the runs cost more than the rows' comparison by place), by place alone."""
    lo, hi, old_hi = span(new, old)
    held = list(map(dict(zip(map(id, old[lo:old_hi]), range(lo, old_hi))).get, map(id, new[lo:hi])))
    if 8 * held.count(None) > len(new):
        return {"length": len(new), "rows": [[i, row] for i, row in enumerate(new[lo:hi], start=lo)
                                             if i >= len(old) or (row is not old[i] and row != old[i])]}
    runs, rows, was = [[0, lo]] if lo else [], [], lo - 1   # was: the place in `old` of the row before
    for i, k in enumerate(held, start=lo):
        if k is None:
            row = new[i]
            if i < len(old) and row == old[i]:
                k = i
            else:
                rows.append([i, row])
                k = was + 1
        if runs and k == was + 1:
            runs[-1][1] += 1
        else:
            runs.append([k, 1])
        was = k
    if hi < len(new):   # the rows from `hi` on: old's from `old_hi`
        if runs and old_hi == was + 1:
            runs[-1][1] += len(new) - hi
        else:
            runs.append([old_hi, len(new) - hi])
    told = {"length": len(new)}
    if len(runs) > 1 or (runs and runs[0][0] != 0):
        told["from"] = runs
    told["rows"] = rows
    return told


def applied(before: dict, delta: dict) -> dict:
    """The view a screen holding `before` draws after `delta` (as standings.js applies it)."""
    view = {**before, **delta["set"]}
    for name, told in delta["lists"].items():
        old = before[name]
        if "from" in told:
            rows = [old[k] if k < len(old) else None for first, count in told["from"]
                    for k in range(first, first + count)]
        else:
            rows = old[:told["length"]]
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
