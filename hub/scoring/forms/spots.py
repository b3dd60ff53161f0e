"""The common shape of the line games settled by the spots left in hand: a table keys who went
out ("Domino!", 0 = blocked) and each seat's spots; the form's book says who scores what."""
from __future__ import annotations

import random

from ..form import GameForm, partnership_points, seat_field, seat_number, seat_value
from ..lineplay import LineHand, LineSpec, play_line_hand
from ..settle import TAKE_ALL, TIE_NO_COUNT, check_domino, check_spots, settle
from ..values import SIDES, EntryForm, Field, HandOutcome, PlayedHand, Refusal, Rules, side_of


def scaled(base: int, rules: Rules, size: int) -> int:
    """Milton Bradley: with the larger sets "the number of tiles distributed to each player ...
    be increased in proportion to the size of the set used"."""
    return rules.option("hand", base * size // 28)


class LineForm(GameForm):
    """A form played in a line: it gives its `spec` and what a table keys for a played hand."""

    def spec(self, rules: Rules) -> LineSpec:
        raise NotImplementedError

    def values_of(self, rules: Rules, h: LineHand, rng: random.Random) -> dict[str, int]:
        raise NotImplementedError

    def play_hand(self, rules: Rules, rng: random.Random) -> PlayedHand:
        h = play_line_hand(self.tile_set(rules), rules.seats, self.spec(rules), rng)
        values = self.values_of(rules, h, rng)
        return PlayedHand(rules, tuple(h.moves), self.score(rules, values), values,
                          {s: tuple(v) for s, v in h.hands.items()}, tuple(h.stock), h.dealt)


class SpotsForm(LineForm):
    """Subclasses give `spec`, and the variant's block and tie rules."""

    keys_pieces = False   # Grimm's tie on a block goes to "the smallest number of dominoes"

    def block_rule(self, rules: Rules) -> str:
        return TAKE_ALL

    def tie_rule(self, rules: Rules) -> str:
        return TIE_NO_COUNT

    def counts_pieces(self, rules: Rules) -> bool:
        return self.keys_pieces

    def spot_label(self, rules: Rules, seat: str) -> str:
        return f"{seat} SIXTEENTHS" if rules.tile_set == "musical" else f"{seat} SPOTS"

    def form_title(self, rules: Rules) -> str:
        return self.title.upper()[:16]

    def play_fields(self, rules: Rules) -> tuple[Field, ...]:
        """Fields for points made in play (none here; Muggins and others add theirs)."""
        return ()

    def entry_form(self, rules: Rules) -> EntryForm:
        total = self.tile_set(rules).total_spots
        fields = [seat_field("out", "DOMINO BY", rules)]
        fields += self.play_fields(rules)
        for s in rules.seats:
            fields.append(Field(s, self.spot_label(rules, s), 0, total))
            if self.counts_pieces(rules):
                fields.append(Field(f"{s}_pieces", f"{s} PIECES", 0, len(self.tile_set(rules))))
        return EntryForm(self.form_title(rules), tuple(fields))

    def _settle(self, rules: Rules, values: dict[str, int]):
        """Points per seat, winners, blocked, side points (None unless partners)."""
        out = seat_value(rules, values["out"])
        spots = {s: values[s] for s in rules.seats}
        pieces = ({s: values[f"{s}_pieces"] for s in rules.seats}
                  if self.counts_pieces(rules) else None)
        check_domino(spots, out, pieces)
        check_spots(spots, self.tile_set(rules).total_spots)
        if pieces is not None:
            for s in rules.seats:
                if spots[s] and not pieces[s]:
                    raise Refusal("SPOTS NO PIECES")
        if self.is_partnership(rules):
            side_spots = {side: sum(spots[s] for s in side) for side in SIDES}
            out_side = side_of(out) if out else None
            side_pts, win_sides = settle(side_spots, out_side, self.block_rule(rules),
                                         self.tie_rule(rules))
            winners = tuple(s for s in rules.seats if side_of(s) in win_sides)
            return partnership_points(rules, side_pts), winners, out is None, side_pts
        points, winners = settle(spots, out, self.block_rule(rules), self.tie_rule(rules), pieces)
        return points, winners, out is None, None

    def _score(self, rules: Rules, values: dict[str, int]) -> HandOutcome:
        points, winners, blocked, side = self._settle(rules, values)
        return HandOutcome(points, winners, blocked, side)

    def values_of(self, rules: Rules, h: LineHand, rng: random.Random) -> dict[str, int]:
        """What the table keys in for a hand the engine played."""
        values = {"out": seat_number(rules, h.out)}
        for s in rules.seats:
            values[s] = sum(t.spots for t in h.hands[s])
            if self.counts_pieces(rules):
                values[f"{s}_pieces"] = len(h.hands[s])
        return values
