"""Playing a line game move by move: the deal, legal moves, drawing, passing, blocking.

The forms that lay tiles in a line describe themselves with a `LineSpec`; `play_line_hand`
plays a whole hand by legal moves with a plausible choice and returns what happened.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from .line import PLAIN, SAME, Line, Matching, Placement
from .tiles import Tile, TileSet, heaviest
from .values import Move

NO_DRAW, DRAW_UNTIL, DRAW_ONE = "none", "until", "one"


@dataclass(frozen=True)
class LineSpec:
    hand_size: int
    layout: str = PLAIN
    matching: Matching = SAME
    crosswise: bool = True
    draw: str = NO_DRAW
    keep: int = 0                       # pieces that must stay in the stock, unseen
    aside: tuple[Tile, ...] = ()        # exposed and out of play (Pell's nine piece, 0|0)
    double_again: bool = False          # a double gives a second turn (Tiddle-a-wink)
    first_round_on_lead: bool = False   # first round plays only on the lead's value (Sebastopol)
    lead_any: bool = False              # the holder of the highest double leads what he likes
    draw_before_matador: bool = False   # may draw rather than spend a matador (Milton Bradley)
    # points a play scores, from the line before and after it (Muggins, All Quarters, Bergen)
    on_play: Callable[[Line, Line], int] | None = None


@dataclass
class LineHand:
    dealt: dict[str, tuple[Tile, ...]]
    hands: dict[str, list[Tile]]
    stock: list[Tile]
    line: Line
    moves: list[Move] = field(default_factory=list)
    out: str | None = None
    blocked: bool = False
    scored: dict[str, int] = field(default_factory=dict)
    doubles: dict[str, int] = field(default_factory=dict)   # doubles each seat played


def deal(tiles: TileSet, seats, spec: LineSpec, rng: random.Random):
    pool = [t for t in tiles.tiles if t not in spec.aside]
    rng.shuffle(pool)
    n = spec.hand_size
    if n * len(seats) + spec.keep > len(pool):
        raise ValueError("not enough tiles for this deal")
    hands = {s: pool[i * n:(i + 1) * n] for i, s in enumerate(seats)}
    return hands, pool[n * len(seats):]


def legal_placements(line: Line, hand, only_value=None) -> list[Placement]:
    return [p for t in hand for p in line.placements(t, only_value)]


def choose(line: Line, options: list[Placement], spec: LineSpec, rng: random.Random) -> Placement:
    """A plausible player: take the biggest count, else unload a double or the heaviest tile."""
    def worth(p: Placement):
        scored = spec.on_play(line, line.play(p)) if spec.on_play else 0
        matador = p.tile in spec.matching.matadors
        return (scored, not matador, p.tile.is_double, p.tile.spots, rng.random())
    if rng.random() < 0.15:   # people do not always play their best
        return rng.choice(options)
    return max(options, key=worth)


def play_line_hand(tiles: TileSet, seats: tuple[str, ...], spec: LineSpec,
                   rng: random.Random, leader: str | None = None) -> LineHand:
    hands, stock = deal(tiles, seats, spec, rng)
    h = LineHand({s: tuple(hs) for s, hs in hands.items()}, hands, stock,
                 Line(spec.layout, spec.matching, spec.crosswise),
                 scored={s: 0 for s in seats}, doubles={s: 0 for s in seats})
    # The highest double leads it; with no double, the heaviest piece (Parker, Grimm, Pell).
    # A leader named by the caller, or Milton Bradley's Muggins leader ("playing any Domino he
    # wishes from his hand"), leads what he likes.
    lead = None
    if leader is None:
        lead = heaviest([t for hs in hands.values() for t in hs])
        leader = next(s for s in seats if lead in hands[s])
        if spec.lead_any:
            lead = None
    turn = seats.index(leader)
    idle = 0
    n = len(seats)
    first_round_left = n - 1 if spec.first_round_on_lead else 0
    while True:
        seat = seats[turn]
        hand = h.hands[seat]
        if not h.line.started:
            p = Placement(lead or choose(h.line, legal_placements(h.line, hand), spec, rng).tile, -1)
            _place(h, seat, p, spec, "lead")
            _again(h, seat, p, spec, rng)
            acted = True
        else:
            only = h.line.tiles[0].high if first_round_left > 0 else None
            acted = take_turn(h, seat, spec, rng, only)
            first_round_left -= 1
        if not hand:
            h.out = seat
            return h
        idle = 0 if acted else idle + 1
        if idle >= n:
            h.blocked = True
            return h
        turn = (turn + 1) % n


def take_turn(h: LineHand, seat: str, spec: LineSpec, rng, only) -> bool:
    """One turn: play, or draw as the form allows, or pass. True if the seat did anything."""
    hand = h.hands[seat]
    can_draw = spec.draw != NO_DRAW and only is None
    # Milton Bradley's Matador: one "does not wish to play his Matador ... must draw from the
    # pool until he gets a playable Domino. If he still does not get one, he must play his
    # Matador": the matadors wait while the stock lasts.
    hold_back = spec.draw_before_matador and can_draw

    def options():
        opts = legal_placements(h.line, hand, only)
        if hold_back and len(h.stock) > spec.keep:
            opts = [p for p in opts if p.tile not in spec.matching.matadors]
        return opts

    opts = options()
    drew = False
    while not opts and can_draw and len(h.stock) > spec.keep:
        t = h.stock.pop(0)
        hand.append(t)
        h.moves.append(Move(seat, "draw", t))
        drew = True
        opts = options()
        if spec.draw == DRAW_ONE:
            break
    if not opts:
        h.moves.append(Move(seat, "pass"))
        return drew
    p = choose(h.line, opts, spec, rng)
    _place(h, seat, p, spec, "play")
    _again(h, seat, p, spec, rng)
    return True


def _again(h: LineHand, seat: str, p: Placement, spec: LineSpec, rng):
    """A double gives a second turn, if the player can match (Tiddle-a-wink)."""
    hand = h.hands[seat]
    while spec.double_again and p.tile.is_double and hand:
        again = legal_placements(h.line, hand)
        if not again:
            return
        p = choose(h.line, again, spec, rng)
        _place(h, seat, p, spec, "play")


def _place(h: LineHand, seat: str, p: Placement, spec: LineSpec, action: str):
    before = h.line
    h.line = before.play(p)
    h.hands[seat].remove(p.tile)
    scored = spec.on_play(before, h.line) if spec.on_play else 0
    h.scored[seat] += scored
    if p.tile.is_double:
        h.doubles[seat] += 1
    h.moves.append(Move(seat, action, p.tile, p.end, p.exposed, scored))
