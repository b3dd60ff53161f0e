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
