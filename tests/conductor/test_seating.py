"""The first session's seats (Grimm 1896, 000_ff8a6ed40036e836.txt, LIST): "Four players are
to be at each table, but should it happen that this number cannot be completed at the last
table, then three or two players may be seated there": five guests sit three and two, never
four and one."""
import pytest

from hub.conductor import events as k

from .party import Party, cards_seating


@pytest.mark.parametrize("guests, seating", [
    (2, {1: "1A 1B - -"}), (5, {1: "1A 1B 1C -", 2: "2A 2B - -"}),
    (9, {1: "1A 1B 1C 1D", 2: "2A 2B 2C -", 3: "3A 3B - -"})])
def test_the_cards_drawn_seat_four_to_a_table_and_never_one_alone(guests, seating):
    p = Party()
    p.create(form="block", tables=3)
    p.guests([f"G{i}" for i in range(guests)])
    p.draw()
    assert cards_seating(p) == seating
