"""All Quarters (Grimm, 000_ff8a6ed40036e836.txt, ALL QUARTERS and the party's ALL-QUARTERS):
the musical set; a play scores the ends' total in quarters when it is a whole number of
quarters; every double crosswise, counting both halves; a player who cannot match draws until
he can or two are left; the first out (or the lowest on a block) takes the others'
sixteenths divided by four, the remainder dropped.

What a table keys is each seat's quarters for the game as its score-card marks them ("1 GAME.
2 GAME. 3 GAME."): "The player making a count must announce it when he plays his piece, and
mark it on his score-card immediately", and the winner "adds to his count the amount of
note-values his opponents have", counted "in sixteenths ... then divide the total by 4". The
table settles who went out or was lowest, as the book has the players do; the hand's winners
are the seats with the most quarters (docs/scoring.md). With the counts keyed as they are made
(`in_play="each"`) the hand's end is keyed instead: who went out, then the others' sixteenths
as one total after a domino, each seat's hand after a block, and the engine settles it.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial

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

    def entry_form(self, rules: Rules) -> EntryForm:
        if not self.keys_each_count(rules):
            return self._quarters_form(rules)
        form = super().entry_form(rules)   # DOMINO BY, each seat's hand
        block = if_blocked(rules)
        rest = Field("rest", "REST SIXTEENTHS", 0, hand_bounds(self, rules).most_in_hands,
                     when=("out", tuple(range(1, rules.players + 1))))
        fields = tuple(replace(f, when=block) if f.k in rules.seats else f for f in form.fields)
        at = next(i for i, f in enumerate(fields) if f.k in rules.seats)   # the first hand
        return replace(form, fields=fields[:at] + (rest,) + fields[at:])

    def _quarters_form(self, rules: Rules) -> EntryForm:
        """Each seat's quarters for the game. A seat scores at most once a piece it lays, and
        the winner adds at most a quarter of the most sixteenths the others can hold; all the
        seats together score at most once a piece laid, and one seat adds."""
        b, play = hand_bounds(self, rules), most_count(MUSICAL.tiles) // 4
        added = b.most_in_hands // 4
        total = (b.in_hands + 1) * play + added   # pieces laid: all dealt and drawn, the lead too
        fields = tuple(Field(f"{s}_quarters", f"{s} QUARTERS", 0, b.per_seat * play + added,
                             total=total) for s in rules.seats)
        return EntryForm(self.form_title(rules), fields,
                         (partial(_at_most, total, tuple(f.k for f in fields)),))

    def _settle(self, rules: Rules, values: dict[str, int]):
        out = seat_value(rules, values["out"])
        if out is None:
            return super()._settle(rules, values)
        # "the first one who plays his last piece adds to his count the amount of note-values
        # his opponents have": their total, keyed as one
        return {s: values["rest"] if s == out else 0 for s in rules.seats}, (out,), False, None

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        if not self.keys_each_count(rules):
            points = {s: values[f"{s}_quarters"] for s in rules.seats}
            return made_as(points, most_quarters(points))
        sixteenths, winners, blocked, _ = self._settle(rules, values)
        # "divide the total by 4 ... Remainders of sixteenths are not marked" (the counts made
        # in play were scored as they were keyed)
        points = {s: sixteenths[s] // 4 for s in rules.seats}
        return made_as(points, winners, blocked,
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
        if self.keys_each_count(rules):
            return values
        # the score-cards: what each seat marked as it played, and what the winner added
        sixteenths = self._settle(rules, values)[0]
        return {f"{s}_quarters": sum(c["ends"] // 4 for c in counts
                                     if rules.seats[c["seat"] - 1] == s) + sixteenths[s] // 4
                for s in rules.seats}


def most_quarters(points: dict[str, int]) -> tuple[str, ...]:
    """The game's winners as the score-cards show them: the seats with the most quarters;
    none where every seat has as many."""
    best = max(points.values())
    return () if all(p == best for p in points.values()) else tuple(
        s for s, p in points.items() if p == best)


def _at_most(total: int, keys: tuple[str, ...], values: dict[str, int]) -> None:
    """The seats' quarters keyed so far hold at most `total` together (the board's `sum`)."""
    if sum(values.get(k, 0) for k in keys) > total:
        raise Refusal(f"ALL: {total} AT MOST")


ALL_QUARTERS = AllQuarters()
