"""A table's fields checked as they are keyed, named by the table's own seats."""
import pytest

from hub.conductor.scoring import check_partial, entry_form, score
from hub.conductor.setup import from_body
from hub.refusal import Refusal

BLOCK = from_body({"form": "block", "tables": 2})


def refused(call) -> str:
    with pytest.raises(Refusal) as e:
        call()
    return e.value.why


def test_a_field_is_refused_as_it_is_keyed_by_the_tables_seat_names():
    # 000_ff8a6ed40036e836.txt, BLOCK GAME: "Each player draws eight pieces"; the largest piece,
    # the Double Whole, shows 32 sixteenths. Seat B is empty: the engine's B is the table's C.
    seats = ("2A", None, "2C", "2D")
    keys = [f["k"] for f in entry_form(BLOCK, seats)]
    assert "B" not in keys and "C_pieces" in keys
    assert check_partial(BLOCK, seats, {"out": 1, "A": 0, "C": 40}) == {"out": 1, "A": 0, "C": 40}
    assert refused(lambda: check_partial(BLOCK, seats, {"C": 40, "C_pieces": 1})) == "C: 32 AT MOST"
    assert refused(lambda: check_partial(BLOCK, seats, {"B": 4})) == "SEAT EMPTY"
    # a short table of three draws more (LIST: "will have to be increased"): 10 each
    assert refused(lambda: check_partial(BLOCK, seats, {"D_pieces": 11})) == "D PIECES 0-10"
    # the whole entry is refused for the same reason, named the same way
    whole = {"out": 1, "A": 0, "A_pieces": 0, "C": 40, "C_pieces": 1, "D": 8, "D_pieces": 1}
    assert refused(lambda: score(BLOCK, seats, whole)) == "C: 32 AT MOST"
    assert score(BLOCK, seats, dict(whole, C=32)).gains == (40, 0, 0, 0)
    del whole["D"]
    assert refused(lambda: score(BLOCK, seats, whole)) == "MISSING D SIXTEE"
    # a refusal that names no seat stays as it is ("NOT A ...")
    no_a = (None, "2B", "2C", "2D")   # the engine's A is the table's B
    assert refused(lambda: check_partial(BLOCK, no_a, {"C": "8"})) == "NOT A NUMBER"
    assert refused(lambda: check_partial(BLOCK, no_a, {"B": 40, "B_pieces": 1})) == "B: 32 AT MOST"


def test_the_lead_is_checked_when_keyed():
    seats = ("1A", "1B", "1C", "1D")
    assert check_partial(BLOCK, seats, {}, lead=True) == {}
    assert refused(lambda: check_partial(BLOCK, seats, {"lead": 5}, lead=True)) == "MISSING LEAD"


def test_a_bergen_play_off_keeps_the_partys_reading_of_a_tie_on_doubles():
    # 000_ff8a6ed40036e836.txt, BLOCK GAME (party): tied players "play a game among themselves";
    # BERGEN GAME (party): "the holders of the doubles with the least value win" -- read as a sum
    # in the variant party-sum, the play-off (each for himself: the game) reads it the same way.
    from hub.conductor.scoring import variant
    assert variant(from_body({"form": "bergen", "tables": 2}), play_off=True) == "game"
    summed = from_body({"form": "bergen", "tables": 2, "variant": "party-sum"})
    assert (variant(summed), variant(summed, play_off=True)) == ("party-sum", "game-sum")
    assert "A_sum" in [f["k"] for f in entry_form(summed, ("1A", "1B", None, None), play_off=True)]
