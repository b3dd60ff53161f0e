"""What the tile set and the deal allow a table to key at the end of a hand, as checks across
fields that look only at the fields keyed so far (`EntryForm.checks`).

A line hand ends as soon as one player is out ("Domino!"): on a block every seat still holds
a piece, and a domino leaves pieces with the others. A seat's pieces show at least the spots of
its lightest pieces and at most those of its heaviest; all the seats together hold at most the
pieces dealt and drawn, less the lead on the table.

Not checked: that every other seat holds a piece after a domino (the hand stops at the first
out, so each does); only that they do not all hold nothing. The party fixtures of the hub's
tests key a winner's gain as one other seat's pieces, the rest holding none.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import accumulate
from typing import Callable

from .tiles import Tile
from .values import Refusal


@lru_cache(maxsize=512)
def most_spots(tiles: tuple[Tile, ...], k: int) -> int:
    """The most spots any `k` of these tiles can show."""
    return sum(sorted((t.spots for t in tiles), reverse=True)[:max(k, 0)])


@lru_cache(maxsize=512)
def least_spots(tiles: tuple[Tile, ...], k: int) -> int:
    """The fewest spots any `k` of these tiles can show."""
    return sum(sorted(t.spots for t in tiles)[:max(k, 0)])


@dataclass(frozen=True)
class HandBounds:
    """The pieces in play and how many one seat, and all seats, can hold when a hand ends.
    `seats` names the spot fields (and `{seat}_pieces` the piece fields when `pieces`)."""

    seats: tuple[str, ...]
    tiles: tuple[Tile, ...]
    per_seat: int
    in_hands: int
    pieces: bool = False
    # what a piece left in hand counts, where not its spots (the train games' house rules for
    # blanks: the double-blank 50)
    worth: Callable[[Tile], int] | None = None

    @property
    def most_per_seat(self) -> int:
        return self._most(self.per_seat)

    @property
    def most_in_hands(self) -> int:
        """The most spots all the seats together can hold."""
        return self._most(self.in_hands)

    @cached_property
    def _sums(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """The spots of the heaviest k tiles and of the lightest k, for every k, and the blanks:
        made once per bounds (these are made once per rules). Looking them up in the caches
        above hashed every tile of the set on each call: a quarter of the hub's writer."""
        spots = sorted(map(self.worth, self.tiles) if self.worth else (t.spots for t in self.tiles))
        return (tuple(accumulate(reversed(spots), initial=0)), tuple(accumulate(spots, initial=0)),
                spots.count(0))

    def _most(self, k: int) -> int:
        return self._sums[0][min(max(k, 0), len(self.tiles))]

    @cached_property
    def _piece_keys(self) -> tuple[str, ...]:
        """Each seat's pieces' field where pieces are keyed: spelled once per bounds."""
        return tuple(f"{s}_pieces" for s in self.seats) if self.pieces else ()

    @cached_property
    def _limits(self) -> tuple:
        """What every check reads besides the values, looked up once per bounds: the seats,
        the sums, the blanks, the most spots all the seats can hold and pieces, for each seat
        that can go out (0: none, a block) the places of the seats still holding pieces, the
        pieces' fields in the seats' order and as a set, and no pieces keyed for any seat."""
        most, least, blanks = self._sums
        top = len(self.tiles)
        holding = {out: tuple(i for i in range(len(self.seats)) if i != out - 1)
                   for out in range(len(self.seats) + 1)}
        return (self.seats, most, least, blanks, most[min(max(self.in_hands, 0), top)], self.in_hands,
                holding, self._piece_keys, frozenset(self._piece_keys), (None,) * len(self.seats))

    def __call__(self, values: dict[str, int]) -> None:
        """Refuse values that no hand dealt from these tiles can leave (see the module)."""
        get = values.get
        # one read of the bounds' own (a cached answer kept in the value's dict makes each
        # read of its fields the slow one): every entry checked
        seats, most, least, blanks, most_in_hands, in_hands, holding, piece_fields, piece_keys, none \
            = self._limits
        # each seat's spots and pieces as keyed so far, in the seats' order (None: not yet);
        # pieces are keyed only after a block, in the forms that key them: most hands have none
        spots = tuple(map(get, seats))
        pieces = none if piece_keys.isdisjoint(values) else tuple(map(get, piece_fields))
        out = get("out")
        if out and out <= len(seats):   # a seat beyond the table: "NO SUCH SEAT" later
            if spots[out - 1] or pieces[out - 1]:
                raise Refusal("DOMINO HAS SPOTS")
        if pieces is not none:
            # n within its field's 0..per_seat: no more than the tiles (the form's rules)
            for s, v, n in zip(seats, spots, pieces):
                if v is None or n is None:
                    continue
                if n == 0 and v:
                    raise Refusal("SPOTS NO PIECES")
                if v > most[n]:
                    raise Refusal(f"{s}: {most[n]} AT MOST")
                if v < least[n]:
                    raise Refusal(f"{s}: {least[n]} AT LEAST")
        held = sum(filter(None, spots))
        if held > most_in_hands:
            raise Refusal("TOO MANY SPOTS")
        if pieces is not none and sum(filter(None, pieces)) > in_hands:   # most hands: none keyed
            raise Refusal("TOO MANY PIECES")
        if out is None or out > len(seats):
            return
        # A hand ends when one player is out: on a block nobody holds nothing, and a domino
        # leaves something with the others. Only a blank shows no spots.
        if out == 0:
            if 0 in pieces or spots.count(0) > blanks:
                empty = [s for s, n in zip(seats, pieces) if n == 0]
                bare = [s for s, v in zip(seats, spots) if v == 0]
                raise Refusal(f"{(empty or bare[blanks:])[0]} OUT: DOMINO BY")
        # (spots held, and none with the seat out: some seat still holds a piece)
        elif not held and all(pieces[i] == 0 or (pieces[i] is None and not blanks and spots[i] == 0)
                              for i in holding[out]):
            raise Refusal("ALL THE REST OUT")
