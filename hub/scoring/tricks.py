"""Trick play for the two trick games (Texas 42, Bingo): which suit a piece follows, which
piece takes a trick.

A piece belongs to the trump suit when it carries the trump number; otherwise, led, it
stands for its higher number (Milton Bradley's Texas 42: "When Trump is not led, the HIGHER
number on a "mixed" Domino becomes the suit led"). Within a suit the double is highest, then
the piece whose other number is higher.
"""
from __future__ import annotations

from typing import Callable

from .tiles import Tile


def suit_led(tile: Tile, trump: int, rank: Callable[[int], int] = int) -> int:
    if tile.has(trump):
        return trump
    return max(tile.low, tile.high, key=rank)


def follows(tile: Tile, suit: int, trump: int) -> bool:
    if suit == trump:
        return tile.has(trump)
    return tile.has(suit) and not tile.has(trump)


def strength(tile: Tile, suit: int, rank: Callable[[int], int] = int) -> tuple:
    """Order within a suit: the double first, then by the other number."""
    return (tile.is_double, rank(tile.other(suit)))


def trick_winner(plays: list[tuple[str, Tile]], trump: int,
                 rank: Callable[[int], int] = int) -> int:
    """Index in `plays` of the piece that takes the trick."""
    suit = suit_led(plays[0][1], trump, rank)
    trumps = [i for i, (_, t) in enumerate(plays) if t.has(trump)]
    if trumps:
        return max(trumps, key=lambda i: strength(plays[i][1], trump, rank))
    followers = [i for i, (_, t) in enumerate(plays) if follows(t, suit, trump)]
    return max(followers, key=lambda i: strength(plays[i][1], suit, rank))


def legal_follows(hand: list[Tile], lead: Tile, trump: int, rank=int) -> list[Tile]:
    """Pieces that may be played to `lead`: those following its suit, or any when none does."""
    suit = suit_led(lead, trump, rank)
    same = [t for t in hand if follows(t, suit, trump)]
    return same or list(hand)
