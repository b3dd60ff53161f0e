"""Muggins, or All Fives: a play scores when the open ends total a multiple of five; the first
out (or the lowest on a block) adds the others' spots rounded to the nearest five.

Sources: Parker, 001_9f9bc89015baa380.txt, MUGGINS; Milton Bradley, 003_611dc33fc9a3dd20.txt,
MUGGINS or ALL FIVES (Figures 1 and 2); Tandy, 004_ee99a39654249905.txt, MUGGINS.

Tandy's text does not mention rounding the amount taken at the end; it is silent rather than
contrary, so its variant rounds as Parker and Milton Bradley do.
"""
from __future__ import annotations

import random

from ..form import Variant, seat_field, seat_number, seat_value
from ..line import PLAIN, SPINNER, Line, most_count
from ..lineplay import DRAW_UNTIL, LineHand, LineSpec
from ..settle import DIFFERENCE, LADDER, TAKE_ALL, round5
from ..values import EntryForm, Field, HandOutcome, Refusal, Rules
from .block_draw import SPOTTED
from .spots import SpotsForm, hand_bounds, scaled

def fives(before: Line, after: Line) -> int:
    """The count a play makes: the ends' total when it is a multiple of five."""
    c = after.count
    return c if c and c % 5 == 0 else 0


class Muggins(SpotsForm):
    name = "muggins"
    title = "Muggins"
    variants = {v.name: v for v in (
        Variant("milton-bradley",
                "003_611dc33fc9a3dd20.txt, MUGGINS or ALL FIVES: 'All sides of the FIRST DOUBLE "
                "Domino played may be used'; 'If both players are blocked, the player with the "
                "lowest number of spots ... scores the difference'; 'The player to score 100 "
                "points first wins the game.'",
                "Seven each for two, five for three or four; the first double is a spinner; "
                "on a block the lowest scores the difference; game 100.", (2, 3, 4), SPOTTED),
        Variant("parker",
                "001_9f9bc89015baa380.txt, MUGGINS: 'if he fails to do so, or if he counts "
                "wrongly and any of his opponents call \"Muggins\" he loses the count'; 'The game "
                "is two hundred, if two play; but one hundred and fifty, if more play.'",
                "Five each; a plain line; a count not announced is lost; on a block the lowest "
                "takes the others' spots; game 200 for two, 150 for more.", (2, 3, 4)),
        Variant("tandy",
                "004_ee99a39654249905.txt, MUGGINS: 'When a player fails to claim a score, any "
                "opponent can call \"muggins\" and add the count to his own score.'",
                "Seven each; four sides on the first double; the caller of Muggins takes the "
                "count; on a block the difference ladder; game 100.", (2, 3, 4), SPOTTED),
    )}
    default = "milton-bradley"
    why_default = ("Milton Bradley's gives hand sizes for two to four players and worked figures for "
                   "the spinner, and its game of 100 suits a party session.")

    def _target(self, rules: Rules) -> int:
        if rules.variant == "parker":
            return 200 if rules.players == 2 else 150
        return 100

    def block_rule(self, rules: Rules) -> str:
        return {"milton-bradley": DIFFERENCE, "tandy": LADDER}.get(rules.variant, TAKE_ALL)

    def spec(self, rules: Rules) -> LineSpec:
        base = {"parker": 5, "tandy": 7}.get(rules.variant, 7 if rules.players == 2 else 5)
        return LineSpec(scaled(base, rules, len(self.tile_set(rules))),
                        layout=PLAIN if rules.variant == "parker" else SPINNER,
                        draw=DRAW_UNTIL, on_play=fives,
                        # Milton Bradley: "Player with the highest Double ... plays first,
                        # playing any Domino he wishes"; Parker, Tandy: "The highest double leads"
                        lead_any=rules.variant == "milton-bradley")

    def most_ends(self, rules: Rules) -> int:
        """The most one count can be: the open ends' greatest total, in fives."""
        spec = self.spec(rules)
        return most_count(self.tile_set(rules).tiles, spec.layout, spec.crosswise) // 5 * 5

    def play_fields(self, rules: Rules) -> tuple[Field, ...]:
        if self.keys_each_count(rules):
            return ()
        # a seat counts at most once a piece it plays; a Muggins caller, once a piece played
        bounds = hand_bounds(self, rules)
        fields = tuple(Field(f"{s}_play", f"{s} PLAY POINTS", 0,
                             bounds.per_seat * self.most_ends(rules)) for s in rules.seats)
        if rules.variant == "tandy":
            fields += tuple(Field(f"{s}_muggins", f"{s} MUGGINS PTS", 0,
                                  (bounds.in_hands + 1) * self.most_ends(rules))
                            for s in rules.seats)
        return fields

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        in_play = {s: values.get(f"{s}_play", 0) + values.get(f"{s}_muggins", 0)
                   for s in rules.seats}
        for k, v in values.items():
            if k.endswith(("_play", "_muggins")) and v % 5:
                raise Refusal("NOT A MULTIPLE 5")
        points, winners, blocked, _ = self._settle(rules, values)
        return made_as({s: in_play[s] + round5(points[s]) for s in rules.seats},
                       winners, blocked,
                       tally={f"{s}_play": in_play[s] for s in rules.seats})

    # --- one count in play ---------------------------------------------------------------
    def count_form(self, rules: Rules) -> EntryForm:
        fields: tuple[Field, ...] = (seat_field("seat", "COUNT BY", rules),
                  Field("ends", "ENDS TOTAL", 5, self.most_ends(rules)))
        if rules.variant != "milton-bradley":   # Milton Bradley has no Muggins call
            fields += (seat_field("muggins", "MUGGINS BY", rules),)
        return EntryForm("MUGGINS COUNT", fields)

    def _score_count(self, rules: Rules, values: dict[str, int], totals) -> HandOutcome:
        seat = seat_value(rules, values["seat"])
        caller = seat_value(rules, values.get("muggins", 0))
        if seat is None:
            raise Refusal("NO SEAT")
        if values["ends"] % 5:
            raise Refusal("NOT A MULTIPLE 5")
        if caller == seat:
            raise Refusal("CALLER IS SCORER")
        points = {s: 0 for s in rules.seats}
        if caller is None:
            points[seat] = values["ends"]
        elif rules.variant == "tandy":   # "any opponent can call "muggins" and add the count"
            points[caller] = values["ends"]
        # Parker: "he loses the count" -- nobody scores it
        return HandOutcome(points, tuple(s for s, p in points.items() if p))

    def counts_of(self, rules: Rules, h: LineHand, rng: random.Random) -> list[dict[str, int]]:
        """Each count is announced, except now and then one is missed and the next player calls
        "Muggins". Milton Bradley has no Muggins call, so there every count is announced."""
        counts = []
        for m in h.moves:
            if not m.scored:
                continue
            c = {"seat": seat_number(rules, m.seat), "ends": m.scored}
            if rules.variant != "milton-bradley":
                missed = rng.random() < 0.1
                caller = rules.seats[(rules.seats.index(m.seat) + 1) % rules.players]
                c["muggins"] = seat_number(rules, caller) if missed else 0
            counts.append(c)
        return counts

    def values_of(self, rules: Rules, h: LineHand, rng, counts) -> dict[str, int]:
        values = super().values_of(rules, h, rng, counts)
        if self.keys_each_count(rules):
            return values
        for s in rules.seats:
            values[f"{s}_play"] = 0
            if rules.variant == "tandy":
                values[f"{s}_muggins"] = 0
        for c in counts:
            if not c.get("muggins"):
                values[f"{rules.seats[c['seat'] - 1]}_play"] += c["ends"]
            elif rules.variant == "tandy":
                values[f"{rules.seats[c['muggins'] - 1]}_muggins"] += c["ends"]
        return values


MUGGINS = Muggins()
