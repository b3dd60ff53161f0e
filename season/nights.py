"""A party as the season sees it: one night, read off the party's folded state (the
conductor's fold of its journal, hub.conductor.replay). Pure: no file is read here.

What a night holds, by guest name as the party's list has it at its end:
- who played (a score-card seated at a table in some session, or keyed in a result),
- each one's total by the party's own measure (hub.conductor.prizes.totals) and place,
- the prizes each won (a prize still waiting for its play-off is won by nobody yet),
- every game that counts, at every table and play-off, in journal order: the teams
  (one guest each, or the partners A+C and B+D of Bergen and Tiddle-a-wink) and what
  each team gained, for the ratings.
"""
from __future__ import annotations

from dataclasses import dataclass

from hub.conductor.prizes import awards, totals
from hub.conductor.state import PartyState


@dataclass(frozen=True)
class Game:
    """One game's result: `teams` of guests and each team's gain, more is better (a train
    game's points, where the fewest win, negated)."""
    seq: int
    teams: tuple[tuple[str, ...], ...]
    gains: tuple[int, ...]


@dataclass(frozen=True)
class Night:
    party: str                       # the party's name in the season (its journal's, by default)
    form: str
    measure: str
    played: tuple[str, ...]          # guests, best placed first
    amounts: tuple[int, ...]         # their totals, in the same order
    places: tuple[int, ...]          # 1, 2, 2, 4: the equal share a place (standard ranking)
    prizes: tuple[tuple[str, str], ...]   # (guest, prize) in the order given out
    games: tuple[Game, ...]

    def place_of(self, guest: str) -> int | None:
        for g, p in zip(self.played, self.places):
            if g == guest:
                return p
        return None

    def amount_of(self, guest: str) -> int:
        return self.amounts[self.played.index(guest)]


def night(party: str, state: PartyState) -> Night:
    """The night `state` (a party's folded journal) was, for the season."""
    if state.setup is None:
        return Night(party, "", "", (), (), (), (), ())
    seated = {c for s in state.sessions for t in s.tables.values() for c in t.seats}
    seated.update(c for s in state.sessions for t in s.tables.values() for e in t.entries
                  for c in e.seats)
    seated.discard(None)
    amount = totals(state)
    best = 1 if state.setup.lowest_wins else -1   # the train games: the lowest total is best
    cards = sorted(seated, key=lambda c: (best * amount.get(c, 0), state.holders[c]))
    played = tuple(state.holders[c] for c in cards)
    amounts = tuple(amount.get(c, 0) for c in cards)
    prizes = ()
    if state.final_count is not None:
        prizes = tuple((state.holders[a.winner], a.prize) for a in awards(state) if a.winner)
    return Night(party, state.setup.form, state.setup.measure, played, amounts,
                 ranked(amounts), prizes, _games(state))


def ranked(amounts: tuple) -> tuple[int, ...]:
    """Standard competition places of values sorted best first: equal values share the
    better place and the next is skipped (1, 2, 2, 4)."""
    places: list[int] = []
    for i, a in enumerate(amounts):
        places.append(places[-1] if i and amounts[i - 1] == a else i + 1)
    return tuple(places)


def _games(state: PartyState) -> tuple[Game, ...]:
    partnership = state.setup.partnership
    name = state.holders
    better = -1 if state.setup.lowest_wins else 1   # the train games: the fewest points win the game
    out = []
    for s in state.sessions:
        for t in s.tables.values():
            for e in t.entries:
                if not e.counts or e.in_play:
                    continue   # annulled, unconfirmed, or a count made in play (not a game)
                if partnership:   # A+C against B+D; A's gain is A+C's, B's is B+D's
                    teams = tuple(tuple(name[e.seats[i]] for i in pair if e.seats[i])
                                  for pair in ((0, 2), (1, 3)))
                    out.append(Game(e.seq, teams, e.gains[:2]))
                else:
                    out.append(_singles(e.seq, e.seats, e.gains, name, better))
    for p in state.play_offs:
        out += [_singles(e.seq, e.seats, e.gains, name, better) for e in p.entries if e.counts]
    return tuple(sorted(out, key=lambda g: g.seq))


def _singles(seq: int, seats: tuple, gains: tuple, name, better: int = 1) -> Game:
    sat = [(name[c], g) for c, g in zip(seats, gains) if c is not None]
    return Game(seq, tuple((n,) for n, _ in sat), tuple(better * g for _, g in sat))
