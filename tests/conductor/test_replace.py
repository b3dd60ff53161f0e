"""The fold's `replace` (hub/conductor/state.py, faster than the library's: four per event
replayed) gives what `dataclasses.replace` gives, and refuses a field a value does not have."""
import dataclasses

import pytest

from hub.conductor.state import Guest, replace

from .party import Party
from .test_block_party import block_party


def test_replace_gives_the_librarys_value_for_every_value_of_a_played_party():
    state = block_party(Party()).state
    s = state.session
    values = [state, s, *s.tables.values(), *s.bells, *state.guests.values(),
              *(e for t in s.tables.values() for e in t.entries)]
    assert len({type(v) for v in values}) >= 5
    for v in values:
        before = dataclasses.replace(v)
        for f in dataclasses.fields(v):
            changed = replace(v, **{f.name: "x"})
            assert changed == dataclasses.replace(v, **{f.name: "x"})
            assert type(changed) is type(v) and getattr(changed, f.name) == "x"
        assert v == before   # the value replaced is untouched


def test_replace_refuses_a_field_the_value_does_not_have():
    with pytest.raises(TypeError, match="chekced_in"):
        replace(Guest("Ann"), chekced_in=True)


# -- a table's answers carried on by the fold (TableSession.with_entry, with_mended, noted) --

ANSWERS = ("players", "entered", "pending", "counted")


def _entry(i: int, *, needs_confirm=True, in_play=False):
    from hub.conductor.frozen import EMPTY
    from hub.conductor.state import Entry
    return Entry.keyed(f"e{i}", i, 1, 3, i, ("1", "2", "3", "4"), EMPTY, (i, 0, -i, 1), ("A",),
                       needs_confirm=needs_confirm, in_play=in_play)


def _asked(t):
    """`t` with each answer asked (so that a change may carry it on), and the answers."""
    return t, tuple(getattr(t, name) for name in ANSWERS)


def _afresh(t):
    return tuple(getattr(replace(t), name) for name in ANSWERS)


@pytest.mark.parametrize("mend", ["confirmed", "annulled", "corrected", "uncounted"])
@pytest.mark.parametrize("at", [0, 1, 2])
def test_a_mended_entry_leaves_the_tables_answers_as_counted_afresh(mend, at):
    """The bell and the screens read a table's games entered, its pending entry and what
    counts: after a confirmation, an annulment or a correction of any of its entries they
    are what a walk over the entries gives."""
    from hub.conductor.state import Mend, TableSession
    entries = (replace(_entry(1), confirmed_by="B"), _entry(2),
               _entry(3, needs_confirm=False, in_play=True))
    t, _ = _asked(TableSession(("1", "2", "3", "4"), entries))
    e = t.entries[at]
    changed = {"confirmed": lambda: replace(e, confirmed_by="C"),
               "annulled": lambda: replace(e, annulled=Mend("staff:ann", "wrong table", 9, "m")),
               "corrected": lambda: replace(e, gains=(5, 5, -5, -5)),
               "uncounted": lambda: replace(e, needs_confirm=True, confirmed_by=None)}[mend]()
    mended = t.with_mended(at, changed)
    assert mended.entries[at] is changed
    assert _asked(mended)[1] == _afresh(mended)


def test_a_new_entry_and_a_note_leave_the_tables_answers_as_counted_afresh():
    from hub.conductor.state import TableSession
    t, _ = _asked(TableSession(("1", "2", None, "4"), (replace(_entry(1), confirmed_by="B"),)))
    for change in (lambda t: t.with_entry(_entry(2)), lambda t: t.noted(seat_check="s1"),
                   lambda t: t.with_mended(1, replace(t.entries[1], confirmed_by="C")),
                   lambda t: t.noted(closed=None, acks=t.acks.set("b1", t.entered))):
        t = change(_asked(t)[0])
        assert _asked(t)[1] == _afresh(t)
    # two waiting for their confirmation (a journal of another version): the first confirmed
    t, _ = _asked(TableSession(("1", "2", "3", "4"), (_entry(1), _entry(2))))
    t = t.with_mended(0, replace(t.entries[0], confirmed_by="C"))
    assert _asked(t)[1] == _afresh(t) and t.pending.id == "e2"


def test_a_note_refuses_what_the_answers_are_derived_from():
    from hub.conductor.state import TableSession
    with pytest.raises(TypeError, match="entries"):
        TableSession(("1", "2", None, None)).noted(entries=())
