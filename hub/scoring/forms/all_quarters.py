"""All Quarters (Grimm, 000_ff8a6ed40036e836.txt, ALL QUARTERS and the party's ALL-QUARTERS):
the musical set; a play scores the ends' total in quarters when it is a whole number of
quarters; every double crosswise, counting both halves; a player who cannot match draws until
he can or two are left; the first out (or the lowest on a block) takes the others'
sixteenths divided by four, the remainder dropped. After a domino the table keys the others'
sixteenths as one total, what the winner "adds to his count"; the hands one by one only after
a block, where they are compared.
"""
from __future__ import annotations

from dataclasses import replace

from ..form import Variant, if_blocked, seat_field, seat_number, seat_value
from ..line import Line, most_count
from ..lineplay import DRAW_UNTIL, LineHand, LineSpec
from ..settle import TIE_FEWER_PIECES
from ..tiles import MUSICAL
from ..values import EntryForm, Field, HandOutcome, Refusal, Rules
from .spots import SpotsForm, hand_bounds, party_hand

def quarters(before: Line, after: Line) -> int:
    """Quarters a play scores: the ends' sixteenths over four, when they divide evenly."""
    c = after.count
    return c // 4 if c and c % 4 == 0 else 0


class AllQuarters(SpotsForm):
    name = "all-quarters"
    title = "All Quarters"
    variants = {"grimm": Variant(
        "grimm", "000_ff8a6ed40036e836.txt, ALL QUARTERS: 'Each player draws six pieces'; 'this "
        "amount of quarters counts to the score of the one setting it'; 'The game is one hundred "
        "quarters, if two play; but seventy-five if more play.'; ALL-QUARTERS (party): 'In "
        "All-Quarters every double must be laid cross-wise'; 'divide the total by 4 ... "
        "Remainders of sixteenths are not marked'",
        "Musical set, six each (more than five players: an equal share, two left in the stock); "
        "scored in quarters.", (2, 3, 4, 5, 6, 7, 8), ("musical",))}
    default = "grimm"
    why_default = "Grimm's is the only book with this game."
    keys_pieces = True   # "Otherwise the party rules are the same as in Block": fewer dominoes wins a tie

    def tie_rule(self, rules: Rules) -> str:
        return TIE_FEWER_PIECES

    def _target(self, rules: Rules) -> int:
        return 100 if rules.players == 2 else 75

    def spec(self, rules: Rules) -> LineSpec:
        # "Each player draws six pieces. If more than five are playing, each takes an equal
        # amount of pieces, always providing, that two remain in the stock"; a party's short
        # table draws more: "Otherwise the party rules are the same as in Block"
        hand = (rules.option("hand", (36 - 2) // rules.players) if rules.players > 5
                else party_hand(rules, 6))
        return LineSpec(hand, draw=DRAW_UNTIL, keep=2, on_play=quarters)

    def play_fields(self, rules: Rules) -> tuple[Field, ...]:
        if self.keys_each_count(rules):
            return ()
        # a seat scores at most once a piece it plays
        most = hand_bounds(self, rules).per_seat * (most_count(MUSICAL.tiles) // 4)
        return tuple(Field(f"{s}_play", f"{s} PLAY QUARTERS", 0, most) for s in rules.seats)

    def entry_form(self, rules: Rules) -> EntryForm:
        form = super().entry_form(rules)   # DOMINO BY, quarters in play, each seat's hand
        block = if_blocked(rules)
        rest = Field("rest", "REST SIXTEENTHS", 0, hand_bounds(self, rules).most_in_hands,
                     when=("out", tuple(range(1, rules.players + 1))))
        fields = tuple(replace(f, when=block) if f.k in rules.seats else f for f in form.fields)
        at = next(i for i, f in enumerate(fields) if f.k in rules.seats)   # the first hand
        return replace(form, fields=fields[:at] + (rest,) + fields[at:])

    def _settle(self, rules: Rules, values: dict[str, int]):
        out = seat_value(rules, values["out"])
        if out is None:
            return super()._settle(rules, values)
        # "the first one who plays his last piece adds to his count the amount of note-values
        # his opponents have": their total, keyed as one
        return {s: values["rest"] if s == out else 0 for s in rules.seats}, (out,), False, None

    def _score(self, rules: Rules, values: dict[str, int]) -> HandOutcome:
        sixteenths, winners, blocked, _ = self._settle(rules, values)
        # "divide the total by 4 ... Remainders of sixteenths are not marked"
        points = {s: values.get(f"{s}_play", 0) + sixteenths[s] // 4 for s in rules.seats}
        return HandOutcome(points, winners, blocked,
                           tally={f"{s}_sixteenths": sixteenths[s] for s in rules.seats})

    # --- one count in play ---------------------------------------------------------------
    def count_form(self, rules: Rules) -> EntryForm:
        return EntryForm("QUARTERS", (seat_field("seat", "COUNT BY", rules),
                                      Field("ends", "ENDS SIXTEENTHS", 4,
                                            most_count(MUSICAL.tiles) // 4 * 4)))

    def _score_count(self, rules: Rules, values: dict[str, int], totals) -> HandOutcome:
        seat = seat_value(rules, values["seat"])
        if seat is None:
            raise Refusal("NO SEAT")
        if values["ends"] % 4:
            raise Refusal("NOT IN QUARTERS")
        return HandOutcome({s: values["ends"] // 4 if s == seat else 0 for s in rules.seats},
                           (seat,))

    def counts_of(self, rules: Rules, h: LineHand, rng) -> list[dict[str, int]]:
        return [{"seat": seat_number(rules, m.seat), "ends": 4 * m.scored}
                for m in h.moves if m.scored]

    def values_of(self, rules: Rules, h: LineHand, rng, counts) -> dict[str, int]:
        values = super().values_of(rules, h, rng, counts)
        # the others' total after a domino (the seat out holds none); not asked after a block
        values["rest"] = sum(values[s] for s in rules.seats) if values["out"] else 0
        if not self.keys_each_count(rules):
            for s in rules.seats:
                values[f"{s}_play"] = sum(c["ends"] // 4 for c in counts
                                          if rules.seats[c["seat"] - 1] == s)
        return values


ALL_QUARTERS = AllQuarters()
