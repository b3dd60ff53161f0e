"""The made-up guests of demos and simulated parties."""
import pytest

from party.setup import guest_names


def test_made_up_guests_are_distinct_up_to_the_largest_hall():
    # two hundred tables of four
    names = guest_names(800)
    assert len(set(names)) == 800
    assert guest_names(12) == names[:12]  # the same guests every time


def test_more_guests_than_names_is_said_plainly():
    with pytest.raises(ValueError, match="at most 800"):
        guest_names(801)
