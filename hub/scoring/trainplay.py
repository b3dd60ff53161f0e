"""Playing a round of a train game move by move: Mexican Train and Chicken Foot.

The round's engine double is in the middle before the deal (held out before shuffling, a
variation the club sheet names: docs/scoring.md), each player holds his hand, the rest is the
boneyard. A player who cannot play draws one piece and plays it if he can, else passes
(Mexican Train: and puts his marker on his train, which any player may then play on until he
plays on it again). A double must be covered before anything else is played: in Mexican Train
by one piece, the player who laid it playing again to cover it; in Chicken Foot by three, its
toes, by the players after him. Chicken Foot's engine takes its arms first (six or four), all
matching it. The round ends when a player is out, or when nobody can play and the boneyard is
empty.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .tiles import Tile, TileSet
from .values import Move


@dataclass(frozen=True)
class TrainSpec:
    hand_size: int
    # Chicken Foot: the pieces the engine takes before anything else; 0: Mexican Train's
    # trains, one a seat and the public (Mexican) train, all starting from the engine
    engine_arms: int = 0
    toes: int = 1   # the pieces a double takes before play goes on elsewhere


@dataclass
class OpenEnd:
    value: int
    owner: str | None = None   # a seat's own train; None: anyone's (the Mexican train, a toe)


@dataclass
class TrainHand:
    engine: Tile
    dealt: dict[str, tuple[Tile, ...]]
    hands: dict[str, list[Tile]]
    stock: list[Tile]
    ends: list[OpenEnd]
    moves: list[Move] = field(default_factory=list)
    markers: set[str] = field(default_factory=set)
    # a double (or the engine) still to be covered: its value, the pieces it still takes, and
    # the end it is on (None: each piece on it opens an end of its own, Chicken Foot's toes)
    pending: tuple[int, int, int | None] | None = None
    out: str | None = None
    blocked: bool = False

    def may_play_on(self, seat: str, end: OpenEnd) -> bool:
        return end.owner is None or end.owner == seat or end.owner in self.markers

    def options(self, seat: str) -> list[tuple[Tile, int | None]]:
        """The legal plays: a piece and the end it goes on (None: a new toe or arm)."""
        hand = self.hands[seat]
        if self.pending:
            value, _, at = self.pending
            return [(t, at) for t in hand if t.has(value)]
        return [(t, i) for i, e in enumerate(self.ends) if self.may_play_on(seat, e)
                for t in hand if t.has(e.value)]


def deal(tiles: TileSet, engine: Tile, seats, spec: TrainSpec, rng: random.Random):
    pool = [t for t in tiles.tiles if t != engine]
    rng.shuffle(pool)
    n = spec.hand_size
    if n * len(seats) > len(pool):
        raise ValueError("not enough tiles for this deal")
    return {s: pool[i * n:(i + 1) * n] for i, s in enumerate(seats)}, pool[n * len(seats):]


def play_train_round(tiles: TileSet, engine: int, seats: tuple[str, ...], spec: TrainSpec,
                     rng: random.Random, leader: str | None = None) -> TrainHand:
    """One round on the engine double `engine`|`engine`, `leader` (by default the first seat)
    playing first."""
    double = Tile(engine, engine)
    hands, stock = deal(tiles, double, seats, spec, rng)
    if spec.engine_arms:
        ends, pending = [], (engine, spec.engine_arms, None)
    else:
        ends = [OpenEnd(engine, s) for s in seats] + [OpenEnd(engine)]
        pending = None
    h = TrainHand(double, {s: tuple(v) for s, v in hands.items()}, hands, stock, ends,
                  pending=pending)
    turn = seats.index(leader) if leader else 0
    idle = 0
    while True:
        seat = seats[turn]
        acted = take_turn(h, seat, spec, rng)
        if not h.hands[seat]:
            h.out = seat
            return h
        idle = 0 if acted else idle + 1
        if idle >= len(seats):
            h.blocked = True
            return h
        turn = (turn + 1) % len(seats)


def take_turn(h: TrainHand, seat: str, spec: TrainSpec, rng: random.Random) -> bool:
    """One turn: play (and, after a Mexican Train double, cover it), or draw one and play it
    if it fits, or pass. True if the seat did anything."""
    acted = False
    while True:
        opts = h.options(seat)
        if not opts and h.stock:
            t = h.stock.pop(0)
            h.hands[seat].append(t)
            h.moves.append(Move(seat, "draw", t))
            acted = True
            opts = h.options(seat)
        if not opts:
            if not spec.engine_arms:
                h.markers.add(seat)   # "place a marker on their train"
            h.moves.append(Move(seat, "pass"))
            return acted
        tile, at = choose(h, seat, opts, rng)
        again = place(h, seat, tile, at, spec)
        if not again or not h.hands[seat]:
            return True
        acted = True


def choose(h: TrainHand, seat: str, opts, rng: random.Random):
    """A plausible player: his own train first, then the heaviest piece."""
    if rng.random() < 0.15:   # people do not always play their best
        return rng.choice(opts)
    return max(opts, key=lambda o: (o[1] is not None and h.ends[o[1]].owner == seat,
                                    o[0].spots, rng.random()))


def place(h: TrainHand, seat: str, tile: Tile, at: int | None, spec: TrainSpec) -> bool:
    """Lay `tile` on the end `at` (None: a new toe); True when the same player plays again
    (he laid a Mexican Train double and must cover it)."""
    h.hands[seat].remove(tile)
    if h.pending:
        value, left, on = h.pending
        exposed = tile.other(value)
        if on is None:   # a toe (or an arm of the engine) opens an end of its own
            h.ends.append(OpenEnd(exposed))
            at = len(h.ends) - 1
        else:
            h.ends[on].value = exposed
        h.pending = (value, left - 1, on) if left > 1 else None
    else:
        end = h.ends[at]
        exposed = tile.other(end.value)
        if tile.is_double:
            if spec.engine_arms:   # Chicken Foot: the toes grow from the double
                h.ends.pop(at)
                h.pending = (exposed, spec.toes, None)
            else:
                h.pending = (exposed, 1, at)
        end.value = exposed
    if not spec.engine_arms and h.ends[at].owner == seat:
        h.markers.discard(seat)   # "they must play a tile on their own train"
    h.moves.append(Move(seat, "play", tile, at, exposed))
    return tile.is_double and not spec.engine_arms and bool(h.hands[seat])
