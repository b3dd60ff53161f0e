"""Tiddle-a-wink: a double gives a second turn; a player who cannot match says "Go" and passes;
the first out calls "Tiddle-a-wink".

Variants:
- "milton-bradley" (003_611dc33fc9a3dd20.txt, TIDDLE-A-WINK (6 to 10 Players)): the first out
  scores a point per spot left with the others; game 200. Rule 6 (a block) is garbled: "player
  holding least number of spots, or in case of a tie, the least number of spots left in the
  opponents' hands." Read here as: the lowest hand wins and scores the others' spots as in
  rule 5; the tie clause cannot separate tied players (their opponents hold the same spots),
  so a tie scores nothing.
- "grimm" (000_ff8a6ed40036e836.txt, TIDDLE-A-WINK): musical set, each for himself; the first
  out has "won the game", on a block "the lowest number of note-values wins": a game won each.
- "grimm-party" (the party's TIDDLE-A-WINK): sides as in Bergen (A+C, B+D); "A point is made
  whenever a player obtains two turns through playing a double" -- every double played, so at
  most the set's eight -- and "Tiddle-a-wink counts one point"; a block wins nothing; ten points
  end the session. So the hand's end needs only who went out (0: blocked): a block wins no
  point, and the hands are never compared.
"""
from __future__ import annotations

import random
from dataclasses import replace

from ..form import Variant, if_blocked, partnership_points, seat_field, seat_number, seat_value
from ..lineplay import LineHand, LineSpec
from ..settle import TAKE_ALL, settle
from ..values import SIDES, EntryForm, Field, HandOutcome, Refusal, Rules, side_of
from .spots import SpotsForm


def eight_doubles(values: dict[str, int]) -> None:
    """"There are eight doubles in the set": the doubles played at a table, at most eight."""
    if sum(v for k, v in values.items() if k.endswith("_doubles")) > 8:
        raise Refusal("TOO MANY DOUBLES")


class TiddleAWink(SpotsForm):
    name = "tiddle-a-wink"
    title = "Tiddle-a-wink"
    variants = {v.name: v for v in (
        Variant("grimm-party",
                "000_ff8a6ed40036e836.txt, TIDDLE-A-WINK (party): 'A point is made whenever a "
                "player obtains two turns through playing a double. There are eight doubles in "
                "the set.'; '\"Tiddle-a-wink\" counts one point.'; 'Ten points made in "
                "partnership at any table ends a session'",
                "Sides A+C against B+D, eight each, two left in the stock; a point per double "
                "played, a point for going out.", (4,), ("musical",), partnership=True),
        Variant("grimm",
                "000_ff8a6ed40036e836.txt, TIDDLE-A-WINK: 'He who plays a Double in any part of "
                "the game, is entitled to play again if he can'; 'he who is first finished calls "
                "out \"Tiddle-a-wink,\" having won the game. In the case of the game being "
                "blocked, the lowest number of note-values wins.'",
                "Musical set, each for himself; a game won by going out or by the lowest hand "
                "on a block.", (2, 3, 4), ("musical",)),
        Variant("milton-bradley",
                "003_611dc33fc9a3dd20.txt, TIDDLE-A-WINK (6 to 10 Players): 'This player receives "
                "one point for each spot left in his opponents' hands.'; '200 points wins game'",
                "Double-nine (six each) or double-twelve (eight each), six to ten players; the "
                "first out scores the spots left with the others.", (6, 7, 8, 9, 10),
                ("double-nine", "double-twelve")),
    )}
    default = "grimm-party"
    why_default = "The hub runs parties; Grimm's party count is the one played at tables of four."

    def _target(self, rules: Rules) -> int | None:
        return {"milton-bradley": 200, "grimm-party": 10}.get(rules.variant)

    def spec(self, rules: Rules) -> LineSpec:
        if rules.variant == "milton-bradley":
            base = 6 if rules.tile_set == "double-nine" else 8   # "more if a Double-Twelve set"
            hand = min(base, len(self.tile_set(rules)) // rules.players)
        else:
            # "The number of pieces to be drawn must be regulated by the number of persons
            # participating. Leave at least two for the stock."
            hand = (36 - 2) // rules.players
        return LineSpec(rules.option("hand", hand), double_again=True)

    def entry_form(self, rules: Rules) -> EntryForm:
        form = super().entry_form(rules)
        if rules.variant == "milton-bradley":
            return form
        if rules.variant == "grimm-party":
            # who called "Tiddle-a-wink" (0: blocked), and the doubles unless keyed as played
            if self.keys_each_count(rules):
                return EntryForm(form.title, form.fields[:1])
            doubles = tuple(Field(f"{s}_doubles", f"{s} DOUBLES PLAYED", 0, 8, total=8)
                            for s in rules.seats)
            return EntryForm(form.title, form.fields[:1] + doubles, (eight_doubles,))
        # Grimm's: the seat that went out wins (takes all); the spots are compared after a block
        block = if_blocked(rules)
        return replace(form, fields=tuple(replace(f, when=block) if f.k in rules.seats else f
                                          for f in form.fields))

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        if rules.variant == "milton-bradley":
            return super()._score(rules, values, made_as)
        out = seat_value(rules, values["out"])
        if rules.variant == "grimm":
            _, winners = settle({s: values[s] for s in rules.seats}, out, TAKE_ALL)
            return made_as({s: int(s in winners) for s in rules.seats}, winners, out is None)
        played = {s: values.get(f"{s}_doubles", 0) for s in rules.seats}
        side = {k: sum(played[s] for s in k) + (out is not None and side_of(out) == k)
                for k in SIDES}
        winners = tuple(s for s in rules.seats if out is not None and side_of(s) == side_of(out))
        return made_as(partnership_points(rules, side), winners, out is None, side)

    # --- one double in play (Grimm's party) --------------------------------------------
    def count_form(self, rules: Rules) -> EntryForm | None:
        if rules.variant != "grimm-party":
            return None
        return EntryForm("TIDDLE DOUBLE", (seat_field("seat", "DOUBLE BY", rules),))

    def _score_count(self, rules: Rules, values: dict[str, int], totals) -> HandOutcome:
        seat = seat_value(rules, values["seat"])
        if seat is None:
            raise Refusal("NO SEAT")
        gains = {k: int(k == side_of(seat)) for k in SIDES}
        return HandOutcome(partnership_points(rules, gains),
                           tuple(s for s in rules.seats if side_of(s) == side_of(seat)),
                           side_points=gains)

    def counts_of(self, rules: Rules, h: LineHand, rng: random.Random) -> list[dict[str, int]]:
        if rules.variant != "grimm-party":
            return []
        return [{"seat": seat_number(rules, m.seat)} for m in h.moves
                if m.action in ("lead", "play") and m.tile.is_double]

    def values_of(self, rules: Rules, h: LineHand, rng: random.Random, counts) -> dict[str, int]:
        values = super().values_of(rules, h, rng, counts)
        if rules.variant != "grimm-party":
            return values
        values = {"out": values["out"]}
        if not self.keys_each_count(rules):
            for s in rules.seats:
                values[f"{s}_doubles"] = sum(1 for c in counts if rules.seats[c["seat"] - 1] == s)
        return values


TIDDLE_A_WINK = TiddleAWink()
