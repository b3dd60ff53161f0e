"""The line of play: its open ends, the legal placements of a tile, and the in-play count.

One immutable `Line` covers every layout in the books:
- a plain line with two open ends (Block, Draw, Parker's Muggins, Bergen, All Quarters);
- doubles set crosswise, so a double at an end counts both halves (Milton Bradley,
  "all other Doubles are played at right angles ... the total of both ends of them is counted");
- the first double as a spinner whose two sides open once both its ends are covered
  (Milton Bradley's Figure 2, where 5-4 and 5-6 go on the sides of 5-5 after 5-0 went on its end);
- Sebastopol's cross, where all four arms of the lead double are open at once
  ("It is not necessary, however, that the cross should be completed before the other lines");
- Matador's complements, where a tile fits an end when the two make the sum, and the
  matadors fit anywhere (Parker: "These can be played anywhere, at any time").
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .tiles import Tile
from .values import Refusal

PLAIN, SPINNER, CROSS = "plain", "spinner", "cross"


@dataclass(frozen=True)
class End:
    """One open end. `count` is what it adds to the in-play count: its exposed value, both
    halves of a crosswise double, nothing for a spinner side not yet played on."""

    value: int
    count: int
    double: bool = False      # the tile at this end is a double set crosswise
    on_spinner: bool = False  # the tile at this end is the spinner itself
    side: bool = False        # an unplayed side of the spinner


@dataclass(frozen=True)
class Placement:
    """Where a tile goes: end index (-1 for the lead) and the value it leaves open."""

    tile: Tile
    end: int
    exposed: int | None = None


@dataclass(frozen=True)
class Matching:
    """How a tile fits an end. total=None: equal values. total=n: the two make n (Matador),
    and the matadors fit any end, leaving either half open."""

    total: int | None = None
    matadors: frozenset = frozenset()

    def exposures(self, tile: Tile, value: int) -> tuple[int, ...]:
        if tile in self.matadors:
            return tuple(sorted({tile.low, tile.high}))
        if self.total is None:
            return (tile.other(value),) if tile.has(value) else ()
        need = self.total - value
        return (tile.other(need),) if value != 0 and tile.has(need) else ()


SAME = Matching()


def most_count(tiles, layout: str = PLAIN, crosswise: bool = True) -> int:
    """The most the open ends of a line of these tiles can count (Muggins, All Quarters): two
    ends on a plain line, four round a spinner or a cross, each a different piece showing at
    most its higher end, or both halves of a double set crosswise; the lead alone, its spots."""
    shown = sorted((2 * t.high if t.is_double and crosswise else t.high for t in tiles),
                   reverse=True)
    ends = 2 if layout == PLAIN else 4
    return max(max(t.spots for t in tiles), sum(shown[:ends]))


@dataclass(frozen=True)
class Line:
    layout: str = PLAIN
    matching: Matching = SAME
    crosswise: bool = True    # doubles across the line count both halves
    tiles: tuple[Tile, ...] = ()
    ends: tuple[End, ...] = ()
    spinner: Tile | None = None

    @property
    def started(self) -> bool:
        return bool(self.tiles)

    def placements(self, tile: Tile, only_value: int | None = None) -> list[Placement]:
        """Every legal placement of `tile`; `only_value` restricts to ends showing that value
        (Sebastopol's first round)."""
        if not self.tiles:
            return [Placement(tile, -1)]
        if tile in self.tiles:
            return []
        out, seen = [], set()
        for i, end in enumerate(self.ends):
            if only_value is not None and end.value != only_value:
                continue
            for exposed in self.matching.exposures(tile, end.value):
                key = (end, exposed)
                if key not in seen:  # two identical ends give one choice, not two
                    seen.add(key)
                    out.append(Placement(tile, i, exposed))
        return out

    def _end_for(self, tile: Tile, value: int, spinner: bool) -> End:
        if tile.is_double and self.crosswise and self.matching.total is None:
            return End(value, 2 * value, double=True, on_spinner=spinner)
        return End(value, value, double=tile.is_double, on_spinner=spinner)

    def play(self, p: Placement) -> "Line":
        """The line with `p` played, or `Refusal`: a tile already on the table, an end the
        line does not have, a tile that does not fit the end."""
        t = p.tile
        if not self.tiles:
            return self._lead(t)
        if t in self.tiles:
            raise Refusal("TILE ON TABLE")
        if not 0 <= p.end < len(self.ends):
            raise Refusal("NO SUCH END")
        end = self.ends[p.end]
        if p.exposed not in self.matching.exposures(t, end.value):
            raise Refusal("DOES NOT FIT")
        becomes_spinner = self.layout == SPINNER and self.spinner is None and t.is_double
        new_end = self._end_for(t, p.exposed, becomes_spinner)
        ends = list(self.ends)
        ends[p.end] = new_end
        spinner = t if becomes_spinner else self.spinner
        if (self.layout == SPINNER and end.on_spinner and spinner is not None
                and not any(e.on_spinner for k, e in enumerate(ends) if k != p.end)):
            # both ends of the spinner are covered: its two sides open
            ends += [End(spinner.high, 0, side=True), End(spinner.high, 0, side=True)]
        return replace(self, tiles=self.tiles + (t,), ends=tuple(ends), spinner=spinner)

    def _lead(self, t: Tile) -> "Line":
        if t.is_double and self.layout == CROSS:
            ends = tuple(End(t.high, 2 * t.high if k < 2 else 0, double=True, side=k >= 2)
                         for k in range(4))
            return replace(self, tiles=(t,), ends=ends, spinner=t)
        if t.is_double:
            spin = self.layout == SPINNER
            e = self._end_for(t, t.high, spin)
            return replace(self, tiles=(t,), ends=(e, e), spinner=t if spin else None)
        return replace(self, tiles=(t,), ends=(End(t.low, t.low), End(t.high, t.high)))

    @property
    def count(self) -> int:
        """The total of the open ends (Muggins, All Quarters). The lead alone counts its spots."""
        if len(self.tiles) == 1:
            return self.tiles[0].spots
        return sum(e.count for e in self.ends)

    def end_values(self) -> tuple[int, ...]:
        return tuple(e.value for e in self.ends)
