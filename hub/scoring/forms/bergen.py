"""The Bergen game (Grimm, 000_ff8a6ed40036e836.txt, BERGEN GAME and the party's BERGEN GAME):
make the two ends of the line equal in value. A double-header (ends equal, or the lead double)
counts 2, a triple-header (ends equal with a double at one of them) 3, winning the hand by
"domino" or by the comparison on a block 1. A player who cannot match draws one piece, then
plays or passes.

Variants: "game" (pages 6 and 7: each for himself, game 10 for three or four, 15 for two) and
"party" (sides: partners A+C against B+D, ten points at a table end the session). The rule
that near game a header counts less ("when either party is within two points of being out, a
double-header or a triple-header counts only one point; within three of being out, a
triple-header counts only two points") is the option `near_game`; the book says "these
restrictions are not observed in parties", so it is off unless asked for, and it needs the
totals before the hand (`score(..., totals=...)`).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from ..form import Variant, if_blocked, partnership_points, seat_field, seat_number, seat_value
from ..line import Line
from ..lineplay import DRAW_ONE, LineHand, LineSpec
from ..tiles import MUSICAL, MUSICAL_VALUES
from ..values import SIDES, EntryForm, Field, HandOutcome, Refusal, Rules, side_of
from ..bounds import least_spots, most_spots
from .spots import LineForm, hand_bounds

DOUBLE_HEADER, TRIPLE_HEADER = 2, 3


def header(before: Line, after: Line) -> int:
    """What a play makes: 2 for a double-header, 3 for a triple-header, else 0."""
    if len(after.tiles) == 1:
        # "The highest Double begins, and is called a double-header"
        return DOUBLE_HEADER if after.tiles[0].is_double else 0
    a, b = after.ends
    if a.value != b.value:
        return 0
    return TRIPLE_HEADER if (a.double or b.double) else DOUBLE_HEADER


def compare(hands: dict[str, tuple[int, int, int]]) -> str | None:
    """The winner of a blocked hand from (note-values, doubles held, lowest double) per hand.

    "the lowest wins; but if the lowest holds a Double in his hand, and his opponent none, the
    opponent wins. Or if two players have Doubles, and one player none, the last wins. If there
    be a Double in each hand, the lowest Double wins. If there be more than one Double in any
    player's hand, and all have Doubles, the player with the least number of Doubles wins".
    A tie the book does not settle (equal lowest without doubles) gives no one the point.
    """
    free = {k: v for k, v in hands.items() if v[1] == 0}
    if free:
        low = min(v[0] for v in free.values())
        lowest = [k for k, v in free.items() if v[0] == low]
        return lowest[0] if len(lowest) == 1 else None
    fewest = min(v[1] for v in hands.values())
    held = {k: v for k, v in hands.items() if v[1] == fewest}
    return min(held, key=lambda k: held[k][2])


@dataclass(frozen=True)
class DoublesHeld:
    """The doubles a seat holds agree with its sixteenths: the lowest is a note value and
    the doubles are different pieces (or, in the `-sum` variants, their sixteenths make a sum
    that that many doubles can show); the seat out holds none; the set has eight."""

    seats: tuple[str, ...]
    by_sum: bool

    def __call__(self, values: dict[str, int]) -> None:
        held = {s: values[f"{s}_doubles"] for s in self.seats if f"{s}_doubles" in values}
        if sum(held.values()) > len(MUSICAL.doubles):
            raise Refusal("TOO MANY DOUBLES")
        out = values.get("out")
        if out and out <= len(self.seats) and held.get(self.seats[out - 1]):
            raise Refusal("DOMINO HAS SPOTS")
        for s in self.seats:
            tie = values.get(f"{s}_sum" if self.by_sum else f"{s}_low")
            if tie is None:
                continue
            if not self.by_sum and tie and tie not in MUSICAL_VALUES:
                raise Refusal("NOT A NOTE VALUE")
            n = held.get(s)
            if n is None:
                continue
            if bool(n) != bool(tie):
                raise Refusal("DOUBLES MISMATCH")
            # the fewest sixteenths n such doubles show
            least = _least_above(tie, n) if not self.by_sum else least_spots(MUSICAL.doubles, n)
            if self.by_sum and not _sums_of_doubles(n, tie):
                raise Refusal("DOUBLES MISMATCH")
            if s in values and values[s] < least:
                raise Refusal("TOO FEW SPOTS")


@lru_cache(maxsize=64)
def _least_above(low: int, n: int) -> int:
    """The fewest sixteenths `n` different doubles show, the lowest of them the double of
    `low` (cached by the two numbers: the doubles above it were gathered, and hashed as the
    cache's key, for every seat of every hand)."""
    return 2 * low + least_spots(tuple(d for d in MUSICAL.doubles if d.high > low), n - 1)


@lru_cache(maxsize=64)
def _sums_of_doubles(n: int, total: int) -> bool:
    """Whether `n` different doubles of the musical set show `total` sixteenths."""
    return total in {sum(d.spots for d in c) for c in combinations(MUSICAL.doubles, n)}


SUM_SOURCE = ("; TIDDLE-A-WINK (party) and BERGEN GAME (party): 'the holders of the doubles "
              "with the least value win', read as the least total value of the doubles held")


class Bergen(LineForm):
    name = "bergen"
    title = "Bergen"
    variants = {v.name: v for v in (
        Variant("party",
                "000_ff8a6ed40036e836.txt, BERGEN GAME (party): 'Players with opposite colors are "
                "partners'; 'Ten points made at any table ends a session'; 'If both parties at a "
                "table have the same number of doubles, then the holders of the doubles with the "
                "least value win.'; 'these restrictions are not observed in parties'",
                "Four players in two sides (A+C, B+D), seven each; headers and wins count to the "
                "side; ten points end the session.", (4,), ("musical",), partnership=True),
        Variant("game",
                "000_ff8a6ed40036e836.txt, BERGEN GAME: 'Each player takes seven pieces'; 'The "
                "game is ten points when three or four play, and fifteen points when two play. A "
                "game won by either \"domino\" or comparing gains one point.'",
                "Each for himself, seven each; game 10 for three or four, 15 for two.",
                (2, 3, 4), ("musical",)),
    )}
    # "the doubles with the least value": read as the sum of each side's doubles, keyed as
    # their sixteenths (the default reads it as the lowest single double, as the game says)
    variants.update({f"{v.name}-sum": replace(
        v, name=f"{v.name}-sum", source=v.source + SUM_SOURCE,
        about=v.about + " Equal numbers of doubles: the smaller sum of their values wins.")
        for v in variants.values()})
    default = "party"
    option_names = LineForm.option_names | {"near_game"}
    why_default = "The hub runs parties; Grimm's party form is the one played at tables of four."

    def _target(self, rules: Rules) -> int:
        return 15 if rules.players == 2 else 10

    def spec(self, rules: Rules) -> LineSpec:
        # "Place all double dominoes transversely"; two pieces always stay in the stock
        return LineSpec(rules.option("hand", 7), draw=DRAW_ONE, keep=2, on_play=header)

    @staticmethod
    def by_sum(rules: Rules) -> bool:
        """The `-sum` variants compare equal numbers of doubles by their total value."""
        return rules.variant.endswith("-sum")

    def tie_key(self, rules: Rules) -> str:
        """What a seat keys to break a tie on doubles: its lowest double (a note value), or in
        the `-sum` variants the sixteenths of all its doubles."""
        return "_sum" if self.by_sum(rules) else "_low"

    def entry_form(self, rules: Rules) -> EntryForm:
        bounds = hand_bounds(self, rules)
        most_held = min(len(MUSICAL.doubles), bounds.per_seat)
        fields = [seat_field("out", "DOMINO BY", rules)]
        for s in rules.seats if not self.keys_each_count(rules) else ():
            # a header is made by a piece played: at most one a piece the seat holds
            fields += [Field(f"{s}_double", f"{s} DOUBLE-HEADS", 0, bounds.per_seat),
                       Field(f"{s}_triple", f"{s} TRIPLE-HEADS", 0, bounds.per_seat)]
        # the hands are compared only when nobody went out; a domino wins the point alone
        block = if_blocked(rules)
        for s in rules.seats:
            fields += [Field(s, f"{s} SIXTEENTHS", 0, bounds.most_per_seat, when=block,
                             total=bounds.most_in_hands),
                       Field(f"{s}_doubles", f"{s} DOUBLES HELD", 0, most_held, when=block)]
            if self.by_sum(rules):
                fields.append(Field(f"{s}_sum", f"{s} DOUBLES 16THS", 0,
                                    most_spots(MUSICAL.doubles, most_held), when=block))
            else:
                fields.append(Field(f"{s}_low", f"{s} LOW DOUBLE", 0, MUSICAL.top, when=block))
        return EntryForm("BERGEN", tuple(fields),
                         (bounds, DoublesHeld(rules.seats, self.by_sum(rules))))

    def _score(self, rules: Rules, values: dict[str, int], totals=None, made_as=HandOutcome) -> HandOutcome:
        out = seat_value(rules, values["out"])
        partners = self.is_partnership(rules)
        key = side_of if partners else (lambda s: s)
        if out is None:
            groups: dict[str, list[int]] = {}
            for s in rules.seats:
                g = groups.setdefault(key(s), [0, 0, 0])
                g[0] += values[s]
                g[1] += values[f"{s}_doubles"]
                tie = values[s + self.tie_key(rules)]
                if tie:   # the side's least double, or the sum of its doubles
                    g[2] = g[2] + tie if self.by_sum(rules) or not g[2] else min(g[2], tie)
            winner = compare({k: (g[0], g[1], g[2]) for k, g in groups.items()})
        else:
            winner = key(out)
        parties = SIDES if partners else rules.seats
        gains = {k: 0 for k in parties}
        before = {k: max((totals or {}).get(s, 0) for s in rules.seats if key(s) == k)
                  for k in parties}
        target = self.target(rules)
        for s in rules.seats:
            # headers in the order a table tallies them: triples, then doubles
            for worth, n in ((TRIPLE_HEADER, values.get(f"{s}_triple", 0)),
                             (DOUBLE_HEADER, values.get(f"{s}_double", 0))):
                for _ in range(n):
                    leader = max(before[k] + gains[k] for k in parties)
                    gains[key(s)] += self.header_worth(rules, worth, leader, target)
        if winner is not None:
            gains[winner] += 1
        winners = tuple(s for s in rules.seats if key(s) == winner)
        if partners:
            return made_as(partnership_points(rules, gains), winners, out is None, gains)
        return made_as(gains, winners, out is None)

    def score(self, rules: Rules, values: dict, totals: dict[str, int] | None = None) -> HandOutcome:
        """As `GameForm.score`; `totals` (per seat, before the hand) matter only where the
        near-game rule is played."""
        if rules.form != self.name:
            raise Refusal("WRONG GAME")
        return self._score(rules, self.checked(rules, values), totals)

    @staticmethod
    def near_game(rules: Rules) -> bool:
        """Played in the game (pages 6 and 7); "these restrictions are not observed in parties"."""
        return rules.option("near_game", rules.variant.startswith("game")
                            and not rules.option("party", False))

    def header_worth(self, rules: Rules, worth: int, leader: int, target: int | None) -> int:
        """What a header counts when the party nearest game has `leader` points: "when either
        party is within two points of being out, a double-header or a triple-header counts
        only one point; within three of being out, a triple-header counts only two points"."""
        if not self.near_game(rules) or target is None:
            return worth
        to_go = target - leader
        if to_go <= 2:
            return 1
        if to_go <= 3 and worth == TRIPLE_HEADER:
            return 2
        return worth

    # --- one header in play ----------------------------------------------------------------
    def count_form(self, rules: Rules) -> EntryForm:
        return EntryForm("BERGEN HEADER", (
            seat_field("seat", "MADE BY", rules),
            Field("header", "HEADER", DOUBLE_HEADER, TRIPLE_HEADER, refuse="HEADER 2 OR 3")))

    def _score_count(self, rules: Rules, values: dict[str, int], totals) -> HandOutcome:
        seat = seat_value(rules, values["seat"])
        if seat is None:
            raise Refusal("NO SEAT")
        worth = self.header_worth(rules, values["header"], max((totals or {}).values(), default=0),
                                  self.target(rules))
        if self.is_partnership(rules):
            gains = {k: worth if k == side_of(seat) else 0 for k in SIDES}
            return HandOutcome(partnership_points(rules, gains),
                               tuple(s for s in rules.seats if side_of(s) == side_of(seat)),
                               side_points=gains)
        return HandOutcome({s: worth if s == seat else 0 for s in rules.seats}, (seat,))

    def counts_of(self, rules: Rules, h: LineHand, rng: random.Random) -> list[dict[str, int]]:
        return [{"seat": seat_number(rules, m.seat), "header": m.scored}
                for m in h.moves if m.scored]

    def values_of(self, rules: Rules, h: LineHand, rng: random.Random, counts) -> dict[str, int]:
        values = {"out": seat_number(rules, h.out)}
        for s in rules.seats:
            if not self.keys_each_count(rules):
                made = [c["header"] for c in counts if rules.seats[c["seat"] - 1] == s]
                values[f"{s}_double"] = made.count(DOUBLE_HEADER)
                values[f"{s}_triple"] = made.count(TRIPLE_HEADER)
            doubles = [t.high for t in h.hands[s] if t.is_double]
            values[s] = sum(t.spots for t in h.hands[s])
            values[f"{s}_doubles"] = len(doubles)
            values[s + self.tie_key(rules)] = (2 * sum(doubles) if self.by_sum(rules)
                                               else min(doubles, default=0))
        return values


BERGEN = Bergen()
