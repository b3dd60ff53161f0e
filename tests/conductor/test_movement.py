"""The seating of a Block party's third session (Grimm 1896, 000_ff8a6ed40036e836.txt, "HOW TO
GIVE MUSICAL DOMINO PARTIES"): "He puts the highest winner at Table 1, Seat A, and thus
continues downward" (THIRD SESSION), four to a table, "but should it happen that this number
cannot be completed at the last table, then three or two players may be seated there" (FIRST
SESSION): with one player over, no table of one."""
import random

import pytest

from hub.conductor import events as k

from .party import Party
from .test_random_parties import play_session


@pytest.mark.parametrize("guests, sizes", [(5, [3, 2]), (9, [4, 3, 2]), (13, [4, 4, 3, 2]),
                                           (10, [4, 4, 2]), (11, [4, 4, 3]), (12, [4, 4, 4])])
def test_the_third_session_seats_four_to_a_table_and_never_one_alone(guests, sizes):
    rng = random.Random(guests)
    p = Party()
    p.create(form="block", tables=(guests + 3) // 4)
    p.guests([f"G{i:02d}" for i in range(guests)])
    p.draw()
    for _ in range(2):
        play_session(p, rng)
        p.must(p.staff(k.RESEAT, {"seed": 5}))
    third = p.state.session
    assert third.number == 3
    assert [t.players for _, t in sorted(third.tables.items()) if t.players] == sizes
    assert all(t.seats[:t.players] == tuple(c for c in t.seats if c)
               for t in third.tables.values())       # from seat A onward
