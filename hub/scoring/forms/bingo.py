"""Bingo (Parker, 001_9f9bc89015baa380.txt, BINGO): two players, the trick play of Sixty-Six.
A blank counts seven, the double blank ("Bingo") fourteen and takes every piece, even the
double of trumps. The piece turned up names trumps by its higher end. Pieces count to the
trick's winner: the double of trumps 28, other doubles and other trumps their spots, 6-4 and
3-0 ten each. Two doubles shown at a lead declare 20 (three 40, four 50, five 60, six 70; ten
more with Bingo among them), counted once the declarer has won a trick. The first to count
seventy scores a point, two if the other has not thirty, three if the other has no trick;
Bingo taking the double of trumps is a point at once. Seven points win.

Parker leaves the rest to "Laws 1, 2, 3, 4, 5 and 6, and 14 of Sixty-Six", which the book does
not print. Taken here from the common laws of Sixty-Six: the winner of a trick draws first;
while the stock lasts any piece may be played; once it is out a player must follow suit and
head the trick if he can, and failing the suit must trump if he can; if neither player reaches
seventy, the winner of the last trick scores one point. Closing the stock is not played.
"""
from __future__ import annotations

import random

from ..form import GameForm, Variant, seat_field, seat_number, seat_value
from ..tiles import DOUBLE_SIX, Tile
from ..tricks import follows, suit_led, trick_winner
from ..values import EntryForm, Field, HandOutcome, Move, PlayedHand, Refusal, Rules

T = Tile.of
BINGO = T(0, 0)
GOAL = 70
DECLARE = {2: 20, 3: 40, 4: 50, 5: 60, 6: 70, 7: 70}


def rank(n: int) -> int:
    """"Blanks count as seven spots"."""
    return 7 if n == 0 else n


def worth(t: Tile, trump: int) -> int:
    """What a piece counts to the winner of the trick that holds it."""
    if t.is_double and t.has(trump):
        return 28
    if t in (T(6, 4), T(3, 0)):
        return 10
    if t.is_double or t.has(trump):
        return rank(t.low) + rank(t.high)
    return 0


def declaration(hand: list[Tile]) -> int:
    doubles = [t for t in hand if t.is_double]
    if len(doubles) < 2:
        return 0
    return DECLARE[len(doubles)] + (10 if BINGO in doubles else 0)


def replies(hand: list[Tile], lead: Tile, trump: int, stock_out: bool) -> list[Tile]:
    """The pieces that may answer `lead`: any while the stock lasts; after it, the suit (a
    winning one if there is), else a trump, else anything."""
    if not stock_out:
        return list(hand)
    suit = suit_led(lead, trump, rank)
    same = [t for t in hand if follows(t, suit, trump)]
    if same:
        heads = [t for t in same if taker([("x", lead), ("y", t)], trump) == 1]
        return heads or same
    trumps = [t for t in hand if t.has(trump) or t == BINGO]
    return trumps or list(hand)


def taker(plays: list[tuple[str, Tile]], trump: int) -> int:
    """Bingo "is the highest domino, and will take the Double of trumps"."""
    for i, (_, t) in enumerate(plays):
        if t == BINGO:
            return i
    return trick_winner(plays, trump, rank)


class Bingo(GameForm):
    name = "bingo"
    title = "Bingo"
    variants = {"parker": Variant(
        "parker", "001_9f9bc89015baa380.txt, BINGO: 'The player who first counts seventy, scores "
        "one point towards game; if he makes seventy before his opponent has counted thirty, he "
        "scores two points; if before his adversary has won a trick, three points. If Bingo "
        "capture the Double of trumps, it adds at once one point to the winner of the trick.'",
        "Two players, seven each; seven points to game.", (2,))}
    default = "parker"
    why_default = "Parker's is the only book with this game."

    def _target(self, rules: Rules) -> int:
        return 7

    def entry_form(self, rules: Rules) -> EntryForm:
        return EntryForm("BINGO", (
            seat_field("first", "FIRST TO 70", rules),
            Field("loser_count", "OTHER'S COUNT", 0, GOAL - 1, refuse="OTHER HAS 70"),
            Field("loser_tricks", "OTHER'S TRICKS", 0, 13),
            seat_field("last", "LAST TRICK", rules),
            seat_field("bingo", "BINGO TOOK DBL", rules),
        ))

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        first = seat_value(rules, values["first"])
        last = seat_value(rules, values["last"])
        bingo = seat_value(rules, values["bingo"])
        if first and last:
            raise Refusal("TWO WINNERS")
        winner = first or last
        if winner is None:
            raise Refusal("NO WINNER")
        points = {s: 0 for s in rules.seats}
        if first:
            if values["loser_tricks"] == 0 and values["loser_count"]:
                raise Refusal("COUNT NO TRICKS")
            points[first] = (3 if values["loser_tricks"] == 0
                             else 2 if values["loser_count"] < 30 else 1)
        else:
            points[winner] = 1
        if bingo:
            points[bingo] += 1
        return made_as(points, (winner,), False)

    # --- the player ---------------------------------------------------------------------
    def play_hand(self, rules: Rules, rng: random.Random, leader: str | None = None) -> PlayedHand:
        seats = rules.seats
        pool = list(DOUBLE_SIX.tiles)
        if leader is None:   # "commenced by drawing for the lead; the lowest piece has the lead"
            a, b = rng.sample(pool, 2)
            leader = seats[0] if (rank(a.low) + rank(a.high)) <= (rank(b.low) + rank(b.high)) else seats[1]
        rng.shuffle(pool)
        hands = {s: pool[i * 7:(i + 1) * 7] for i, s in enumerate(seats)}
        turned = pool[14]
        stock = pool[15:] + [turned]     # the turned piece is drawn last
        trump = max(turned.low, turned.high, key=rank)
        dealt = {s: tuple(h) for s, h in hands.items()}
        moves = [Move(leader, "trump", turned, exposed=trump)]
        count = {s: 0 for s in seats}
        tricks = {s: 0 for s in seats}
        pending = {s: 0 for s in seats}   # declared, waiting for a first trick
        declared = set()
        bingo_took = None
        first, last = None, None
        while hands[leader] and first is None:
            if leader not in declared and declaration(hands[leader]):
                declared.add(leader)
                moves.append(Move(leader, "declare", scored=declaration(hands[leader])))
                if tricks[leader]:   # "added to his count as soon as he has won a trick"
                    count[leader] += declaration(hands[leader])
                    if count[leader] >= GOAL:
                        first = leader
                        break
                else:
                    pending[leader] = declaration(hands[leader])
            other = seats[1 - seats.index(leader)]
            lead = self._lead(hands[leader], trump, rng)
            options = replies(hands[other], lead, trump, stock_out=not stock)
            reply = self._reply(options, lead, trump, rng)
            for s, t in ((leader, lead), (other, reply)):
                hands[s].remove(t)
                moves.append(Move(s, "play", t))
            plays = [(leader, lead), (other, reply)]
            won = plays[taker(plays, trump)][0]
            if {lead, reply} == {BINGO, T(trump, trump)} and trump != 0:
                bingo_took = won
            tricks[won] += 1
            count[won] += worth(lead, trump) + worth(reply, trump) + pending[won]
            pending[won] = 0
            last = won
            if count[won] >= GOAL:
                first = won
            for s in (won, seats[1 - seats.index(won)]):
                if stock:
                    t = stock.pop(0)
                    hands[s].append(t)
                    moves.append(Move(s, "draw", t))
            leader = won
        loser = seats[1 - seats.index(first)] if first else None
        values = {"first": seat_number(rules, first),
                  "loser_count": count[loser] if loser else 0,
                  "loser_tricks": tricks[loser] if loser else 0,
                  "last": 0 if first else seat_number(rules, last),
                  "bingo": seat_number(rules, bingo_took)}
        return PlayedHand(rules, tuple(moves), self.score(rules, values), values,
                          {s: tuple(h) for s, h in hands.items()}, tuple(stock), dealt)

    @staticmethod
    def _lead(hand, trump, rng):
        return max(hand, key=lambda t: (worth(t, trump) == 0, -rank(t.high), rng.random()))

    @staticmethod
    def _reply(options, lead, trump, rng):
        wins = [t for t in options if taker([("x", lead), ("y", t)], trump) == 1]
        if wins and worth(lead, trump):
            return min(wins, key=lambda t: (worth(t, trump), rng.random()))
        return min(options, key=lambda t: (worth(t, trump), t.has(trump), rng.random()))


BINGO_FORM = Bingo()
