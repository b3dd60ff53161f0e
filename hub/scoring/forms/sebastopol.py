"""Sebastopol (Grimm, 000_ff8a6ed40036e836.txt, SEBASTOPOL and the party's SEBASTOPOL): four
players, nine each, no stock; the Double Whole leads and is played on all four sides (a
cross); in the first round each plays a Whole or passes. For a large party (the variant
"large-party", five to ten players) the set is divided equally and the rest is the stock; if
the Double Whole is in it the next highest double leads, and the first round matches it. Won by "domino", or on a block by the
fewest note-values, then the fewest dominoes, then a draw from the reshuffled set (the lower
domino wins). The party counts games won (a punch-hole each).
"""
from __future__ import annotations

import random
from dataclasses import replace

from ..form import Variant, if_blocked, seat_field, seat_number, seat_value
from ..line import CROSS
from ..lineplay import DRAW_UNTIL, NO_DRAW, LineHand, LineSpec
from ..tiles import MUSICAL
from ..values import EntryForm, Field, HandOutcome, PlayedHand, Refusal, Rules
from .spots import SpotsForm


GRIMM = Variant(
    "grimm", "000_ff8a6ed40036e836.txt, SEBASTOPOL: 'Four players can join, each taking nine "
    "dominoes and leaving no reserve. The holder of the Double Whole begins with that piece. "
    "Only in the first round each player must play a Whole or pass.'; party: 'If two players "
    "happen to have the same amount of note-values, then the holder of the least number of "
    "dominoes wins. If there be also a tie ... the one whose domino has the least amount of "
    "values on it wins'",
    "Musical set divided equally (a short table of two or three shares all 36); the winner "
    "of each hand wins one game.", (2, 3, 4), ("musical",))
LARGE_PARTY = Variant(
    "large-party", "000_ff8a6ed40036e836.txt, SEBASTOPOL: 'For a large party this makes a very "
    "good round game. Then the dominoes should be equally divided among the players, and the "
    "dominoes remaining over form the stock. Should it happen that the Double Whole remains in "
    "the stock, then the next highest Double has to be played, and in the first round, only "
    "values corresponding to the first domino should be matched.'",
    "Five to ten round one table: 36 divided equally, the rest the stock, drawn from by a "
    "player unable to match; the highest double dealt leads.", tuple(range(5, 11)),
    ("musical",))


class Sebastopol(SpotsForm):
    name = "sebastopol"
    title = "Sebastopol"
    variants = {v.name: v for v in (GRIMM, LARGE_PARTY)}
    default = "grimm"
    why_default = "Grimm's game for four, which his party plays at tables of four."
    keys_pieces = True   # a tie on note-values goes to "the least number of dominoes"

    def _target(self, rules: Rules) -> None:
        # "Games are won by making "domino," or in case of a block by having the least amount of
        # note-values": each hand is a game, and the party counts games won
        return None

    def spec(self, rules: Rules) -> LineSpec:
        # 36 divides evenly among two, three or four: no stock. A large party's remainder is
        # the stock, drawn from as at a short table: "from which a player has to draw when
        # unable to match" (party SEBASTOPOL). The highest double dealt leads.
        return LineSpec(36 // rules.players, layout=CROSS, first_round_on_lead=True,
                        draw=DRAW_UNTIL if 36 % rules.players else NO_DRAW)

    def play_hand(self, rules: Rules, rng: random.Random, leader: str | None = None) -> PlayedHand:
        """"The holder of the Double Whole begins with that piece" (or the next highest double
        when it is in the stock), every hand: `leader` is not used."""
        return super().play_hand(rules, rng)

    def entry_form(self, rules: Rules) -> EntryForm:
        form = super().entry_form(rules)   # DOMINO BY, each seat's sixteenths and pieces
        block = if_blocked(rules)   # the seat that went out wins; hands matter only after a block
        fields = tuple(replace(f, when=block) if f.when else f for f in form.fields)
        return EntryForm(form.title, fields + (replace(seat_field("draw", "TIE DRAW WON BY", rules),
                                                       when=block),), form.checks)

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        out = seat_value(rules, values["out"])
        spots = {s: values[s] for s in rules.seats}
        pieces = {s: values[f"{s}_pieces"] for s in rules.seats}
        if self.spec(rules).draw == NO_DRAW and sum(spots.values()) > 468 - 32:
            raise Refusal("TOO MANY SPOTS")   # the Double Whole leads: it is on the table
        drawn = seat_value(rules, values["draw"])
        tied = self.tied(rules, out, spots, pieces)
        if len(tied) > 1:
            if drawn not in tied:
                raise Refusal("NOT A TIED SEAT")
            winner = drawn
        else:
            if drawn is not None:
                raise Refusal("NO DRAW NEEDED")
            winner = tied[0]
        return made_as({s: int(s == winner) for s in rules.seats}, (winner,), out is None,
                       tally={f"{s}_games": int(s == winner) for s in rules.seats})

    @staticmethod
    def tied(rules: Rules, out, spots, pieces) -> list[str]:
        """The seats still level after note-values and dominoes (one seat: the winner)."""
        if out is not None:
            return [out]
        key = {s: (spots[s], pieces[s]) for s in rules.seats}
        best = min(key.values())
        return [s for s in rules.seats if key[s] == best]

    def values_of(self, rules: Rules, h: LineHand, rng, counts) -> dict[str, int]:
        values = {"out": seat_number(rules, h.out), "draw": 0}
        for s in rules.seats:
            values[s] = sum(t.spots for t in h.hands[s])
            values[f"{s}_pieces"] = len(h.hands[s])
        tied = self.tied(rules, h.out, {s: values[s] for s in rules.seats},
                         {s: values[f"{s}_pieces"] for s in rules.seats})
        if len(tied) > 1:
            values["draw"] = seat_number(rules, self.draw_off(tied, rng))
        return values

    def draw_off(self, tied: list[str], rng: random.Random) -> str:
        """Each tied player draws from the reshuffled set; the lowest domino wins (again if level)."""
        while True:
            drawn = dict(zip(tied, rng.sample(MUSICAL.tiles, len(tied))))
            low = min(t.spots for t in drawn.values())
            lowest = [s for s, t in drawn.items() if t.spots == low]
            if len(lowest) == 1:
                return lowest[0]


SEBASTOPOL = Sebastopol()
