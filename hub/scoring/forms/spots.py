"""The common shape of the line games settled by the spots left in hand: a table keys who went
out ("Domino!", 0 = blocked) and each seat's spots; the form's book says who scores what."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import NamedTuple

from ..form import (GameForm, if_blocked, partnership_points, seat_field, seat_number, seat_value,
                    unless_out)
from ..lineplay import NO_DRAW, LineHand, LineSpec, play_line_hand
from ..bounds import HandBounds
from ..settle import TAKE_ALL, TIE_NO_COUNT, settle
from ..values import SIDES, EntryForm, Field, HandOutcome, PlayedHand, Refusal, Rules, side_of


def scaled(base: int, rules: Rules, size: int) -> int:
    """Milton Bradley: with the larger sets "the number of tiles distributed to each player ...
    be increased in proportion to the size of the set used"."""
    return rules.option("hand", base * size // 28)


def party_hand(rules: Rules, at_four: int) -> int:
    """Pieces each in Grimm's musical games. A party's short table draws more, "in order to
    make the number taken from the stock at the commencement of each game equal to the number
    of pieces taken from the stock at the other tables" (000_ff8a6ed40036e836.txt, LIST); a
    game away from a party deals the book's number whatever the players."""
    if rules.option("party", False) and rules.players < 4:
        at_four = at_four * 4 // rules.players
    return rules.option("hand", at_four)


class LineForm(GameForm):
    """A form played in a line: it gives its `spec` and what a table keys for a played hand."""

    option_names = GameForm.option_names | {"hand", "in_play"}

    def rules(self, players=None, variant=None, tile_set=None, **options) -> Rules:
        rules = super().rules(players, variant, tile_set, **options)
        spec = self.spec(rules)
        if spec.hand_size * rules.players + spec.keep + len(spec.aside) > len(self.tile_set(rules)):
            raise Refusal("TOO MANY PIECES")
        return rules

    def spec(self, rules: Rules) -> LineSpec:
        raise NotImplementedError

    def counts_pieces(self, rules: Rules) -> bool:
        """Whether a seat's pieces left are keyed besides its spots."""
        return False

    def values_of(self, rules: Rules, h: LineHand, rng: random.Random,
                  counts: list[dict[str, int]]) -> dict[str, int]:
        """What the table keys at the end of a hand the engine played; `counts` are the
        counts made in play (`counts_of`)."""
        raise NotImplementedError

    def counts_of(self, rules: Rules, h: LineHand, rng: random.Random) -> list[dict[str, int]]:
        """Each count made in play, as keyed on `count_form` (none by default)."""
        return []

    def play_hand(self, rules: Rules, rng: random.Random, leader: str | None = None) -> PlayedHand:
        h = play_line_hand(self.tile_set(rules), rules.seats, self.spec(rules), rng, leader)
        counts = self.counts_of(rules, h, rng)
        values = self.values_of(rules, h, rng, counts)
        each = tuple(counts) if self.keys_each_count(rules) else ()
        return PlayedHand(rules, tuple(h.moves), self.score(rules, values), values,
                          {s: tuple(v) for s, v in h.hands.items()}, tuple(h.stock), h.dealt,
                          each)


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
        bounds = hand_bounds(self, rules)
        fields = [seat_field("out", "DOMINO BY", rules)]
        fields += self.play_fields(rules)
        for s in rules.seats:
            fields.append(Field(s, self.spot_label(rules, s), 0, bounds.most_per_seat,
                                when=unless_out(rules, s), total=bounds.most_in_hands))
            if bounds.pieces:
                # pieces break a tie of a block only ("the smallest number of dominoes")
                fields.append(Field(f"{s}_pieces", f"{s} PIECES", 0, bounds.per_seat,
                                    when=if_blocked(rules), total=bounds.in_hands))
        return EntryForm(self.form_title(rules), tuple(fields), (bounds,))

    def _settle(self, rules: Rules, values: dict[str, int]):
        """Points per seat, winners, blocked, side points (None unless partners)."""
        book = settling(self, rules)
        out = seat_value(rules, values["out"])
        spots = {s: values[s] for s in rules.seats}
        if book.partnership:
            side_spots = {side: sum(spots[s] for s in side) for side in SIDES}
            out_side = side_of(out) if out else None
            side_pts, win_sides = settle(side_spots, out_side, book.block_rule, book.tie_rule)
            winners = tuple(s for s in rules.seats if side_of(s) in win_sides)
            return partnership_points(rules, side_pts), winners, out is None, side_pts
        # the pieces left break a tie on a block only: read after a block
        pieces = (dict(zip(rules.seats, map(values.__getitem__, book.piece_keys)))
                  if book.piece_keys and out is None else None)
        points, winners = settle(spots, out, book.block_rule, book.tie_rule, pieces)
        return points, winners, out is None, None

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        return made_as(*self._settle(rules, values))

    def values_of(self, rules: Rules, h: LineHand, rng: random.Random,
                  counts: list[dict[str, int]]) -> dict[str, int]:
        values = {"out": seat_number(rules, h.out)}
        for s in rules.seats:
            values[s] = sum(t.spots for t in h.hands[s])
            if self.counts_pieces(rules):
                values[f"{s}_pieces"] = len(h.hands[s])
        return values


class Settling(NamedTuple):
    """What a form's book settles a hand by under one table's rules, besides the values."""
    block_rule: str                # on a block, who wins and what he takes (settle.py)
    tie_rule: str                  # equal lowest on a block
    partnership: bool              # sides settle, each partner credited the side's points
    piece_keys: tuple[str, ...]    # each seat's pieces' field where they are keyed, else ()


@lru_cache(maxsize=256)
def settling(form: SpotsForm, rules: Rules) -> Settling:
    """A pure function of the rules, asked for every hand settled: made once (four calls of
    the form's methods a hand, each looking up the variant)."""
    return Settling(form.block_rule(rules), form.tie_rule(rules), form.is_partnership(rules),
                    tuple(f"{s}_pieces" for s in rules.seats) if form.counts_pieces(rules) else ())


@lru_cache(maxsize=256)
def hand_bounds(form: LineForm, rules: Rules) -> HandBounds:
    """A pure function of the rules, asked for every hand checked: made once. A seat ends
    holding at most what it was dealt and could draw; all seats, what was dealt and could be
    drawn less the lead."""
    spec = form.spec(rules)
    tiles = tuple(t for t in form.tile_set(rules).tiles if t not in spec.aside)
    dealt = spec.hand_size * rules.players
    drawable = 0 if spec.draw == NO_DRAW else max(len(tiles) - dealt - spec.keep, 0)
    return HandBounds(rules.seats, tiles, spec.hand_size + drawable, dealt - 1 + drawable,
                      form.counts_pieces(rules))
