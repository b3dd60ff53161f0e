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
from operator import countOf

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
        spots = sorted(t.spots for t in self.tiles)
        return (tuple(accumulate(reversed(spots), initial=0)), tuple(accumulate(spots, initial=0)),
                spots.count(0))

    def _most(self, k: int) -> int:
        return self._sums[0][min(max(k, 0), len(self.tiles))]

    @cached_property
    def _piece_keys(self) -> tuple[tuple[str, str], ...]:
        """(seat, its pieces' field) where pieces are keyed: spelled once per bounds."""
        return tuple((s, f"{s}_pieces") for s in self.seats) if self.pieces else ()

    @cached_property
    def _piece_fields(self) -> frozenset[str]:
        return frozenset(k for _, k in self._piece_keys)

    @cached_property
    def _limits(self) -> tuple:
        """What every check reads besides the values, looked up once per bounds: the sums,
        the blanks, the tiles' count, the most spots all the seats can hold, and for each
        seat that can go out (0: none, a block) the seats still holding pieces."""
        most, least, blanks = self._sums
        top = len(self.tiles)
        holding = {out: tuple(s for k, s in enumerate(self.seats, 1) if k != out)
                   for out in range(len(self.seats) + 1)}
        return most, least, blanks, top, most[min(max(self.in_hands, 0), top)], holding

    def __call__(self, values: dict[str, int]) -> None:
        """Refuse values that no hand dealt from these tiles can leave (see the module)."""
        seats = self.seats
        spots = {s: values[s] for s in seats if s in values}
        # pieces are keyed only after a block, in the forms that key them: most hands have none
        pieces = ({s: values[k] for s, k in self._piece_keys if k in values}
                  if not self._piece_fields.isdisjoint(values) else {})
        out = values.get("out")
        if out and out <= len(seats):   # a seat beyond the table: "NO SUCH SEAT" later
            seat = seats[out - 1]
            if spots.get(seat) or pieces.get(seat):
                raise Refusal("DOMINO HAS SPOTS")
        most, least, blanks, top, most_in_hands, holding = self._limits
        for s, n in pieces.items():
            if s in spots:
                k = min(max(n, 0), top)
                if n == 0 and spots[s]:
                    raise Refusal("SPOTS NO PIECES")
                if spots[s] > most[k]:
                    raise Refusal(f"{s}: {most[k]} AT MOST")
                if spots[s] < least[k]:
                    raise Refusal(f"{s}: {least[k]} AT LEAST")
        held = sum(spots.values())
        if held > most_in_hands:
            raise Refusal("TOO MANY SPOTS")
        if sum(pieces.values()) > self.in_hands:
            raise Refusal("TOO MANY PIECES")
        if out is None or out > len(seats):
            return
        # A hand ends when one player is out: on a block nobody holds nothing, and a domino
        # leaves something with the others. Only a blank shows no spots.
        holding = holding[out]
        if out == 0:   # every seat holds a piece (pieces and spots are in the seats' order)
            if 0 in pieces.values() or countOf(spots.values(), 0) > blanks:
                empty = [s for s, n in pieces.items() if n == 0]
                bare = [s for s, n in spots.items() if n == 0]
                raise Refusal(f"{(empty or bare[blanks:])[0]} OUT: DOMINO BY")
        # (spots held, and none with the seat out: some seat still holds a piece)
        elif not held and all(pieces.get(s) == 0 or (s not in pieces and not blanks and spots.get(s) == 0)
                              for s in holding):
            raise Refusal("ALL THE REST OUT")
