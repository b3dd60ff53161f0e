"""Settling a hand from the spots left in each hand: who won, who scores what.

Each rule here is one book's sentence; the forms pick theirs.
"""
from __future__ import annotations

# On a block, who wins and what he takes.
TAKE_ALL = "take-all"         # Parker: "adds to his count the number held by his opponents"
DIFFERENCE = "difference"     # Milton Bradley: "the total spots held by each of his opponents, minus his count"
LADDER = "ladder"             # Tandy: lowest takes the difference to each higher, then the next lowest...
WINS_NO_COUNT = "wins-no-count"  # Parker's Matador: "the hand containing the least number of spots wins, but it does not count"
SHARE = "share"               # Pell's skins: tied lowest divide the rest, "the odd spots ... not to be counted"

# When two or more are equal lowest on a block.
TIE_NO_COUNT = "no-count"     # Parker, Milton Bradley: "there is no count"
TIE_FEWER_PIECES = "fewer-pieces"  # Grimm: "the holder of the smallest number of dominoes wins"


def round5(n: int) -> int:
    """The multiple of five nearest (Parker: 22 -> 20, 23 -> 25; Milton Bradley: 26, 27 -> 25; 28, 29 -> 30)."""
    return (n + 2) // 5 * 5


def settle(spots: dict[str, int], out: str | None, block_rule: str,
           tie_rule: str = TIE_NO_COUNT, pieces: dict[str, int] | None = None):
    """Points per seat and the winners, from the spots left and who went out (None: blocked)."""
    # from the seats, not from `spots` itself: dict.fromkeys(a dict) makes the slower layout
    # of a dict of any keys, which every later copy and look-up of the points pays
    points = dict.fromkeys(spots.keys(), 0)
    total = sum(spots.values())
    if out is not None:
        points[out] = total - spots[out]   # the others' spots
        return points, (out,)
    if block_rule == LADDER:
        for s, v in spots.items():
            points[s] = sum(w - v for w in spots.values() if w > v)
        low = min(spots.values())
        return points, tuple(s for s, v in spots.items() if v == low)
    low = min(spots.values())
    lowest = [s for s, v in spots.items() if v == low]
    if len(lowest) > 1 and tie_rule == TIE_FEWER_PIECES and pieces is not None:
        fewest = min(pieces[s] for s in lowest)
        lowest = [s for s in lowest if pieces[s] == fewest]
    # each of the lowest holds `low`: the others hold the total less theirs
    others = total - low * len(lowest)
    if len(lowest) > 1:
        if block_rule != SHARE:
            return points, ()
        for s in lowest:
            points[s] = others // len(lowest)
        return points, tuple(lowest)
    w = lowest[0]
    if block_rule == WINS_NO_COUNT:
        return points, (w,)
    if block_rule == DIFFERENCE:   # each opponent's spots less his own
        points[w] = others - low * (len(spots) - 1)
    else:
        points[w] = others
    return points, (w,)
