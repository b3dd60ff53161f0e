"""The writer's speed tricks, in one place, each with why. Nowhere else in the project
makes a value without its `__init__`, writes an instance's `__dict__` or compiles code
(tests/test_architecture.py fails on it).

Why at all: the hub's writer judges, folds and screens every result in the one thread
(docs/performance.md), and a replay folds a whole journal at start-up. A frozen
dataclass sets each field through `object.__setattr__` in its `__init__`, and
`dataclasses.replace` walks every field's metadata before calling it: together most of a
replay's time and a fifth of the writer's. The domain's values stay frozen dataclasses
(equal, hashable, refused any change by assignment); only their making goes around
`__init__`, here, for the values made once per input or per event:

- `made`, `fill`, `filling`: a value from its fields, set straight into its `__dict__` (an
  event read back, a proposal, an entry keyed, a verdict: one of each per result).
- `replace`: `dataclasses.replace` for values that check nothing when made (no
  `__post_init__`): four per event replayed.
- `copied`: a value with some fields changed and the answers derived from it that the
  caller knows to be still true kept (a table with one more entry carries its counts on).
- `numbered`: a value just made by the caller, seen by nobody yet, numbered in place
  rather than copied once more (the fold numbers each new state: a quarter of a replay's
  copies).
- `forgotten`: an answer dropped in place from a value only its maker holds yet (a replay's
  session, its tables changed in place: hub/conductor/fold.py, `replay`).
- `drafted`, `changed`: a value a replay's draft holds and nobody else (a table of the session
  on) marked as the draft's, then changed in place, each field's old value logged for the
  replay's undo, where `copied` would make a new one: a table a result, a confirmation, a bell
  seen, a seat check or a closing (nine rows in ten of a party's journal).
- `remembered`: the same kept for a question asked from outside the value's class (a
  session's gains, summed by every movement and standings page: a replay's audit was
  quadratic in the sessions without it). `kept`: one that depends on other values too (the
  cards' totals up to a session, on the sessions before it), kept with them.
- `derived`: an answer computed from a value the first time it is asked for, kept on
  the instance: `functools.cached_property` less its lock (Python 3.11 takes one, shared
  by every instance of the class, on each first read: a tenth of the writer's time).
  `derived_by_setattr`: the same for a value made by its own `__init__`.
- `compiled`: a function written out as text for one class and compiled once (a body's
  reader, field by field as `dataclass` writes `__init__`; the engine's checker with its
  bounds as constants): a loop over the fields took twice as long, once per input.
- `slot_maker`, `slots_set`, `fields_getter`: the same for the slotted body values (a value
  made as its class's twin, its slots set by plain assignment, then given its class).
- `journaling`: an event read back from the journal, its body read by its kind's reader and
  the event made as `made` makes it, in one frame (a replay makes one per row; `made`'s own
  frame was a fifth of the `Event`'s cost), its fields' dict given to it as its `__dict__`.
"""
from __future__ import annotations

import dataclasses
from operator import is_
from typing import Any, Callable

_new = object.__new__


def fill(value, fields: dict) -> None:
    """Set `fields` on `value` without `object.__setattr__`'s call per field: for the
    `__init__` of a frozen dataclass made once per input (a proposal, a verdict). A dict,
    not keywords: a call's keywords made into a dict cost a third of the call."""
    value.__dict__.update(fields)


def filling(*names: str, **defaults) -> Callable:
    """The `__init__` of a frozen dataclass made once per input (a proposal, a verdict): its
    fields `names`, then those with `defaults`, in order, set as `fill` sets them, in the one
    call of `__init__` (`fill` called from a hand-written `__init__` was a call more a value)."""
    every = (*names, *defaults)
    params = ", ".join([*names, *(f"{name}=_{name}" for name in defaults)])
    env = {f"_{name}": value for name, value in defaults.items()}
    fields = ", ".join(f"{name!r}: {name}" for name in every)
    return compiled(f"def __init__(self, {params}):\n    self.__dict__.update({{{fields}}})", "__init__", env)


def made(cls: type, fields: dict):
    """A value of the (frozen dataclass) `cls` with exactly `fields` (a dict, as `fill`'s),
    without `__init__`."""
    value = _new(cls)
    value.__dict__.update(fields)
    return value


def replace(value, **changes):
    """`dataclasses.replace` for the party's values, which check nothing when made (no
    `__post_init__`): their fields copied, some changed; the answers `derived` from the old
    value (listed in the class's `_derived`) are not carried over."""
    cls = type(value)
    fields = cls.__dataclass_fields__
    if not changes.keys() <= fields.keys():
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - fields.keys())}")
    new = _new(cls)
    known = new.__dict__
    known.update(value.__dict__)
    known.update(changes)
    if "_derived" in cls.__dict__:   # answers cached on the old value, not this one's
        for name in cls._derived:
            known.pop(name, None)
    return new


def copied(value, changes: dict, forget: tuple[str, ...] | list[str] = ()):
    """`value` with `changes`, everything else it holds carried on as it is: its fields and
    the answers derived from them, but those named in `forget` (the change makes them
    false) and those the caller moves on itself (in `changes`)."""
    new = _new(type(value))
    answers = new.__dict__
    answers.update(value.__dict__)
    answers.update(changes)
    for name in forget:
        answers.pop(name, None)
    return new


UNSET = object()   # in an undo log: the key was not in the draft before


def drafted(value, log: list | None) -> None:
    """`value` marked as a replay's own (held by a draft and nobody else: hub/conductor/
    frozen.py, `Draft`), so that `changed` changes it in place, logging in `log` what it
    replaces; `log` None: the mark taken off (the replay's state frozen)."""
    if log is None:
        value.__dict__.pop(DRAFTED, None)
    else:
        value.__dict__[DRAFTED] = log


DRAFTED = "_drafted"   # a value's mark (`drafted`): the log of its draft, not a field


def changed(value, changes: dict, forget: tuple[str, ...] | list[str] = ()):
    """`copied`, but in place where `value` is a replay's own (`drafted`): nobody sees the
    states between a replay's rows, and a copy of a table per row (its ten fields and answers
    copied, the old one freed) was the fold's largest single cost (docs/performance.md,
    section 4). What it held is logged (the value, None, a copy of its fields and answers)
    for the replay to put back (`restored`) where a step fails half-way (hub/conductor/
    frozen.py, `undo`): one copy, not an entry per field changed (a table's result changes
    four)."""
    answers = value.__dict__
    log = answers.get(DRAFTED)
    if log is None:
        return copied(value, changes, forget)
    log.append((value, None, answers.copy()))
    answers.update(changes)
    for name in forget:
        answers.pop(name, None)
    return value


def restored(value, was: dict) -> None:
    """`value`'s fields and answers as `changed` logged them (`was`)."""
    answers = value.__dict__
    answers.clear()
    answers.update(was)


def forgotten(value, name: str) -> None:
    """`value` without its answer `name` (`derived` or `remembered`), in place: for a value
    nobody but its maker holds."""
    value.__dict__.pop(name, None)


def remembered(value, name: str, compute: Callable[[Any], Any]):
    """`compute(value)`, kept on the value under `name` the first time it is asked for: a
    `derived` answer for a question asked from outside the value's class (its class lists
    `name` among the answers `replace` drops)."""
    answers = value.__dict__
    if name in answers:
        return answers[name]
    answer = answers[name] = compute(value)
    return answer


def kept(value, name: str, since: tuple, compute: Callable[[], Any]):
    """`compute()`, kept on `value` under `name` with `since` (the values it is computed from
    beside `value`) and given back while each of them is the very same object; computed anew
    and kept in its place where one is not (a value is never changed once made, and one a
    replay changes in place drops the answers it keeps on it: `forgotten`)."""
    answers = value.__dict__
    was = answers.get(name)
    if was is not None and all(map(is_, was[0], since)):
        return was[1]
    answer = compute()
    answers[name] = (since, answer)
    return answer


def numbered(before, after, seq: int):
    """`after` with its field `seq` set to `seq`: copied if it is `before` (a step that changed
    nothing, whose value others hold), else set in place: a value the caller has just made
    from `before`, seen by nobody yet (`before` None: nobody else holds `after`, a replay's)."""
    if after is before:
        after = _new(type(before))
        after.__dict__.update(before.__dict__)
    after.__dict__["seq"] = seq
    return after


class derived:
    """`functools.cached_property` less its lock (see the module's docstring): the values it
    serves are never changed once made, so two threads computing the same answer at once
    get equal answers."""

    def __init__(self, func):
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class derived_by_setattr(derived):
    """`derived` for a value made by its own `__init__` (a party's set-up): its answer kept
    through `object.__setattr__` rather than written into its `__dict__`. Python 3.11 keeps
    such a value's fields beside it, not in a dict, and reads them in a few instructions;
    a write to its `__dict__` makes the dict, and every later read of any of its fields
    takes the slow path (callgrind: 540 instructions a read, not 270, counting the loop)."""

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = self.func(obj)
        _setattr(obj, self.name, value)
        return value


_setattr = object.__setattr__


def compiled(source: str, name: str, env: dict[str, Any]) -> Callable:
    """The function `name` defined by `source`, compiled once with the globals `env`."""
    exec(source, env)
    return env[name]


def slot_maker(cls: type) -> Callable:
    """The function that makes a value of the slotted frozen dataclass `cls` from its
    fields' values in order (`slots_set`'s lines)."""
    env: dict[str, Any] = {}
    args = ", ".join(f"a{i}" for i in range(len(dataclasses.fields(cls))))
    code = [f"def make({args}):", *slots_set(cls, env), "    return value"]
    return compiled("\n".join(code), "make", env)


def slots_set(cls: type, env: dict[str, Any]) -> list[str]:
    """The lines (in a function `compiled`, with `env` as its globals) that make `value`, a
    value of the slotted frozen dataclass `cls`, from `a0`, `a1`... (its fields' values in
    order), without `__init__` (a frozen dataclass's sets each through object.__setattr__): made
    as a value of `cls`'s twin (`_twin`), its slots set by plain assignment, then given its
    class. A slot's own setter called per field (`cls.field.__set__`, a call through a tuple of
    its arguments) took 620 instructions a field, the class given once about 600 in all: a
    result's five fields 3,100 of its reader's 25,000. A body's reader ends with these lines
    rather than calling `slot_maker`'s function: one call less per row read."""
    env.update(twin=_twin(cls), cls=cls, new=_new)
    return ["    value = new(twin)", *(f"    value.{f.name} = a{i}" for i, f in enumerate(dataclasses.fields(cls))),
            "    value.__class__ = cls"]


def _twin(cls: type) -> type:
    """`cls` less its frozen `__setattr__` and `__delattr__`: a subclass adding no slot, so that a
    value made as one (its slots set by plain assignment, not refused) may be given the class
    `cls` after (Python allows it between classes of one layout); never seen as itself outside
    `slots_set`'s lines. Both are `object`'s, or Python keeps calling them through the class
    (one slot holds the two): every assignment a call with a tuple again."""
    return type(f"{cls.__name__}Made", (cls,), {"__slots__": (), "__setattr__": object.__setattr__,
                                                 "__delattr__": object.__delattr__, "__module__": cls.__module__})


def fields_getter(cls: type) -> Callable[[Any], list]:
    """The function that lists a value's fields' values in order, written out field by
    field (a loop of `getattr`s, asking for each whether it was changed, took longer)."""
    names = ", ".join(f"value.{f.name}" for f in dataclasses.fields(cls))
    return compiled(f"def field_values(value): return [{names}]", "field_values", {})


def journaling(cls: type, readers: dict, refused: type) -> Callable:
    """`journaled(seq, id, at, source, kind, body)`: a value of `cls` (hub.event.Event) with
    those fields, `sent` None and `what` the body read by `readers[kind]`, made as `made`
    makes it without its call, and its fields' dict given to it as its `__dict__` rather than
    copied into a new one (about 575 instructions a row); where the kind is unknown or its
    reader refuses the body (`refused`), without `what`: read again, and refused with why,
    where it is asked for."""
    return compiled("""
def journaled(seq, id, at, source, kind, body):
    fields = {"seq": seq, "id": id, "at": at, "source": source, "kind": kind, "body": body, "sent": None}
    reader = get(kind)
    if reader is not None:
        try:
            fields["what"] = reader(body)
        except refused:
            pass
    value = new(cls)
    given(value, fields)
    return value
""", "journaled", {"get": readers.get, "new": _new, "cls": cls, "refused": refused,
                   "given": _dict_setter(cls)})


def _dict_setter(cls: type) -> Callable[[Any, dict], None]:
    """The setter of `cls`'s values' `__dict__`: `setter(value, fields)` makes `fields` the
    value's dict (a frozen dataclass's `__setattr__` refuses `value.__dict__ = fields`)."""
    return next(c.__dict__["__dict__"] for c in cls.__mro__ if "__dict__" in c.__dict__).__set__
