"""Random positions from random self-play, shared by the engine tests and the benchmark."""

from __future__ import annotations

import random

from bgboard.engine.board import START, Position
from bgboard.engine.moves import legal_plays


def self_play_positions(n: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """`n` (position, roll) pairs met in random games: openings, contact, hits, bar and
    bear-off all occur. Each game starts from START with a random side on roll."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    pos = START
    while len(out) < n:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((pos, dice))
        plays = legal_plays(pos, dice)
        pos = rng.choice(plays).position if plays else pos.swap_turn()
        if pos.winner() is not None:
            pos = START if rng.random() < 0.5 else START.swap_turn()
    return out
