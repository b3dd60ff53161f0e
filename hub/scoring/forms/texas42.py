"""Texas 42 (Milton Bradley, 003_611dc33fc9a3dd20.txt, TEXAS 42 (4 playing as Partners)):
partners A+C against B+D, seven each, bids from 30 to 42, the bidder's first piece names
trumps, seven tricks, a point a trick plus the count dominoes (5-5 and 6-4 ten, 5-0, 4-1, 3-2
five): 42 in all.

The book: "If the bidding side makes MORE points than it has bid, it scores the bid PLUS the
amount of points made." Read literally a bid of 42 (which the book allows) could never be
made, so the default "at-least" counts a side that makes exactly its bid as having made it;
the literal reading is the variant "more-than".
"""
from __future__ import annotations

import random

from ..form import GameForm, Variant, partnership_points, seat_field, seat_number, seat_value
from ..tiles import DOUBLE_SIX, Tile
from ..tricks import legal_follows, trick_winner
from ..values import SIDES, EntryForm, Field, HandOutcome, Move, PlayedHand, Refusal, Rules, side_of

T = Tile.of
COUNT = {T(5, 5): 10, T(6, 4): 10, T(5, 0): 5, T(4, 1): 5, T(3, 2): 5}
TRICKS = 7
MIN_BID, MAX_BID = 30, 42

ALL_COUNT = sum(COUNT.values())   # 35


def most_count(tricks: int) -> int:
    """The most count `tricks` tricks can hold: four pieces a trick, the heaviest counters."""
    return sum(sorted(COUNT.values(), reverse=True)[:4 * tricks])


def count_fits_tricks(values: dict[str, int]) -> None:
    """The bidding side's count is counters it took: a multiple of five, no more than its
    tricks can hold (one trick, four pieces: 30), and no less than the other side's tricks
    leave it (six tricks leave the other side one trick: at least 5)."""
    count, tricks = values.get("count"), values.get("tricks")
    if count is None:
        return
    if count % 5:
        raise Refusal("NOT A MULTIPLE 5")
    if tricks is None:
        return
    if count > most_count(tricks):
        raise Refusal(f"COUNT MAX {most_count(tricks)}")
    if count < ALL_COUNT - most_count(TRICKS - tricks):
        raise Refusal(f"COUNT MIN {ALL_COUNT - most_count(TRICKS - tricks)}")


SOURCE = ("003_611dc33fc9a3dd20.txt, TEXAS 42: 'A minimum bid is 30 and the highest is 42'; 'if the "
          "team bid 37 and made 38 points, they would score 75'; 'their opponents would score the 6 "
          "points they made, PLUS the opponents' bid of 37, for 43 points'; 'The team having the "
          "most points after five games usually is declared the winner.'")


class Texas42(GameForm):
    name = "texas-42"
    title = "Texas 42"
    variants = {
        "at-least": Variant("at-least", SOURCE, "A side making its bid or more scores bid plus "
                            "points made; short of it, the opponents score their points plus "
                            "the bid.", (4,), partnership=True),
        "more-than": Variant("more-than", SOURCE, "The literal reading: the bid must be exceeded; "
                             "making it exactly sets the bidders.", (4,), partnership=True),
    }
    default = "at-least"
    option_names = frozenset({"hands", "party"})
    why_default = "A bid of 42 is allowed, which the literal reading could never make."

    def _target(self, rules: Rules) -> None:
        return None

    def game_over(self, rules: Rules, totals: dict[str, int], hands_played: int = 0) -> bool:
        return hands_played >= rules.option("hands", 5)

    def entry_form(self, rules: Rules) -> EntryForm:
        return EntryForm("TEXAS 42", (
            seat_field("bidder", "BIDDER", rules),
            Field("bid", "BID", MIN_BID, MAX_BID, refuse="BID 30 TO 42"),
            Field("tricks", "BID SIDE TRICKS", 0, TRICKS, refuse="TRICKS 0 TO 7"),
            Field("count", "BID SIDE COUNT", 0, ALL_COUNT, refuse=f"COUNT 0 TO {ALL_COUNT}"),
        ), (count_fits_tricks,))

    def _score(self, rules: Rules, values: dict[str, int], made_as=HandOutcome) -> HandOutcome:
        bidder = seat_value(rules, values["bidder"])
        if bidder is None:
            raise Refusal("NO BIDDER")
        bid, tricks, count = values["bid"], values["tricks"], values["count"]
        side = side_of(bidder)
        other = SIDES[1 - SIDES.index(side)]
        made = tricks + count
        against = 42 - made
        ok = made >= bid if rules.variant == "at-least" else made > bid
        gains = {side: bid + made, other: 0} if ok else {side: 0, other: against + bid}
        winner = side if ok else other
        return made_as(partnership_points(rules, gains),
                       tuple(s for s in rules.seats if side_of(s) == winner), False, gains,
                       tally={"made": made, "against": against})

    # --- the player ---------------------------------------------------------------------
    def play_hand(self, rules: Rules, rng: random.Random, leader: str | None = None) -> PlayedHand:
        """The book fixes the lead (the holder of 1-0 bids first, the bidder leads): `leader`
        is not used."""
        seats = rules.seats
        while True:
            pool = list(DOUBLE_SIX.tiles)
            rng.shuffle(pool)
            hands = {s: pool[i * 7:(i + 1) * 7] for i, s in enumerate(seats)}
            moves, bidder, bid = self._bidding(hands, seats, rng)
            if bidder:   # all passed: the book says nothing; shuffle again
                break
        dealt = {s: tuple(h) for s, h in hands.items()}
        trump = self._trump(hands[bidder])
        moves.append(Move(bidder, "trump", exposed=trump))
        taken: dict[str, list[Tile]] = {k: [] for k in SIDES}
        tricks = {k: 0 for k in SIDES}
        to_lead = bidder   # "The highest bidder plays the first Domino"
        for _ in range(TRICKS):
            order = seats[seats.index(to_lead):] + seats[:seats.index(to_lead)]
            plays: list[tuple[str, Tile]] = []
            for s in order:
                options = (legal_follows(hands[s], plays[0][1], trump) if plays else hands[s])
                t = self._pick(options, plays, trump, s, rng)
                hands[s].remove(t)
                plays.append((s, t))
                moves.append(Move(s, "play", t))
            to_lead = plays[trick_winner(plays, trump)][0]
            tricks[side_of(to_lead)] += 1
            taken[side_of(to_lead)] += [t for _, t in plays]
        side = side_of(bidder)
        values = {"bidder": seat_number(rules, bidder), "bid": bid, "tricks": tricks[side],
                  "count": sum(COUNT.get(t, 0) for t in taken[side])}
        return PlayedHand(rules, tuple(moves), self.score(rules, values), values,
                          {s: () for s in seats}, (), dealt)

    @staticmethod
    def _strength(hand: list[Tile]) -> tuple[int, int]:
        """A hand's best trump number and how many of it (doubles counted twice) it holds."""
        best = max(range(7), key=lambda n: sum(t.has(n) for t in hand) + any(
            t == Tile(n, n) for t in hand))
        return best, sum(t.has(best) for t in hand) + (Tile(best, best) in hand)

    def _bidding(self, hands, seats, rng):
        """The holder of 1-0 bids first; each bids once, higher than the last, or passes."""
        first = next(s for s in seats if T(1, 0) in hands[s])
        order = seats[seats.index(first):] + seats[:seats.index(first)]
        moves, high, bidder = [], MIN_BID - 1, None
        for s in order:
            _, n = self._strength(hands[s])
            wish = min(MAX_BID, 26 + 2 * n + rng.randint(0, 3))
            if wish > high and wish >= MIN_BID:
                high, bidder = wish, s
                moves.append(Move(s, "bid", exposed=wish))
            else:
                moves.append(Move(s, "pass"))
        return moves, bidder, high

    def _trump(self, hand: list[Tile]) -> int:
        return self._strength(hand)[0]

    @staticmethod
    def _pick(options: list[Tile], plays, trump: int, seat: str, rng: random.Random) -> Tile:
        """Lead the strongest trump; follow with a winner if there is one, else the cheapest."""
        if not plays:
            trumps = [t for t in options if t.has(trump)]
            return max(trumps or options, key=lambda t: (t.is_double, t.spots, rng.random()))
        winners = [t for t in options
                   if trick_winner(plays + [(seat, t)], trump) == len(plays)]
        partner_winning = (len(plays) >= 2 and side_of(plays[trick_winner(plays, trump)][0])
                           == side_of(seat))
        if partner_winning:   # give the partner the count
            return max(options, key=lambda t: (COUNT.get(t, 0), -t.spots, rng.random()))
        if winners:
            return min(winners, key=lambda t: (t.has(trump), t.spots, rng.random()))
        return min(options, key=lambda t: (COUNT.get(t, 0), t.spots, rng.random()))


TEXAS_42 = Texas42()
