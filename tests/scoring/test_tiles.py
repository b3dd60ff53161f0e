"""Tile sets."""
from hub.scoring import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE, MUSICAL, Tile
from hub.scoring.forms.bingo import worth


def test_set_sizes():
    # 003_611dc33fc9a3dd20.txt, GENERAL INFORMATION: "The Double-Six set contains 28 tiles, the
    # Double-Nine 55 tiles, and the Double-Twelve 91 tiles."
    assert (len(DOUBLE_SIX), len(DOUBLE_NINE), len(DOUBLE_TWELVE)) == (28, 55, 91)
    assert len(set(DOUBLE_TWELVE.tiles)) == 91


def test_musical_set_eight_suits_of_eight():
    # 000_ff8a6ed40036e836.txt: "Each suit contains eight dominoes."; "There are eight doubles
    # in the set."
    assert MUSICAL.values == (1, 2, 3, 4, 6, 8, 12, 16)
    assert len(MUSICAL) == 36 and len(MUSICAL.doubles) == 8
    assert all(sum(t.has(v) for t in MUSICAL.tiles) == 8 for v in MUSICAL.values)


def test_musical_set_total_against_the_book():
    # 000_ff8a6ed40036e836.txt: "the set aggregates 463 Sixteenths, consequently each domino
    # averages 13 Sixteenths". Counted here the set aggregates 468 sixteenths: each of the eight
    # values (52 sixteenths in all) shows nine times, 52 x 9 = 468, and 468 / 36 = 13 exactly.
    # So the book's average holds and its "463" is a misprint (or misread) of 468.
    assert MUSICAL.total_spots == 468
    assert MUSICAL.total_spots / len(MUSICAL) == 13
    assert MUSICAL.total_spots != 463


def test_a_whole_matches_a_whole_rest_by_value():
    # 000_ff8a6ed40036e836.txt, GENERAL RULES: "a whole note, ○, to a whole rest" -- a tile end is
    # its value in sixteenths, whatever sign it is printed with
    assert Tile.of(16, 4).has(16) and Tile.of(16, 4).other(16) == 4


def test_what_a_tile_counts_is_the_games():
    # 001_9f9bc89015baa380.txt, BINGO: "Blanks count as seven spots. The Double-Blank called Bingo,
    # counts fourteen" (as a double, when blanks are not trumps; with blanks trumps it is the
    # double of trumps, 28)
    assert worth(Tile(0, 0), trump=5) == 14
    assert worth(Tile(0, 0), trump=0) == 28
    assert worth(Tile(0, 5), trump=5) == 12
    assert Tile(0, 0).spots == 0
