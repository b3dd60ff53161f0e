"""Ties settled by lot, as the book settles them: by drawing dominoes.

Sebastopol: "dominoes are drawn from the reshuffled set, and the holders of the
dominoes with the most note-values move to the next table" (SEBASTOPOL). The
same draw settles every other tie the book leaves to chance. The generator is
seeded from a seed the judge records in the event, and the draw itself is
recorded too, so a replay reads the outcome and never draws again.
"""
from __future__ import annotations

import random

from hub.scoring.tiles import MUSICAL


def draw(rng: random.Random, cards: list[str]) -> tuple[list[str], list[dict]]:
    """Order `cards` by a draw of one domino each, most note-values first.

    Equal draws draw again among themselves. Returns the order and the draws
    made, round by round, for the record."""
    rounds: list[dict] = []

    def settle(group: list[str]) -> list[str]:
        tiles = rng.sample(MUSICAL.tiles, len(group))
        drawn = {c: [t.low, t.high] for c, t in zip(group, tiles)}
        rounds.append(drawn)
        order: list[str] = []
        for value in sorted({t.spots for t in tiles}, reverse=True):
            equal = [c for c, t in zip(group, tiles) if t.spots == value]
            order += equal if len(equal) == 1 else settle(equal)
        return order

    return settle(list(cards)), rounds
