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


def make(white: dict[int, int], black: dict[int, int], turn=None, bar_white: int = 0,
         bar_black: int = 0) -> Position:
    """A position from both sides' checkers, both keyed by WHITE's point numbers (1..24)."""
    from bgboard.engine.board import WHITE

    assert not set(white) & set(black), "both sides on one point"
    points = [0] * 24
    for p, n in white.items():
        points[p - 1] = n
    for p, n in black.items():
        points[p - 1] = -n
    return Position(tuple(points), bar_white, bar_black, turn or WHITE)


def moves_of(pos: Position, dice: tuple[int, int]) -> set[str]:
    return {p.move for p in legal_plays(pos, dice)}


def random_match(seed: int, length: int = 5, cube: bool = True):
    """A whole match of random legal play with random doubles, takes, drops and resignations."""
    from bgboard.engine.game import Match

    rng = random.Random(seed)
    match = Match(length=length)
    while match.winner() is None and len(match.games) < 12:
        game = match.new_game()
        while game.opening(rng.randint(1, 6), rng.randint(1, 6)) is None:
            pass
        while game.result is None:
            if game.dice is None:
                if cube and game.may_double() is None and rng.random() < 0.04:
                    game.double()
                    game.take() if rng.random() < 0.7 else game.drop()
                    continue
                if rng.random() < 0.003:
                    game.resign(game.turn, rng.choice([1, 2, 3]))
                    continue
                game.roll(rng.randint(1, 6), rng.randint(1, 6))
            plays = game.legal_plays()
            game.move(rng.choice(plays) if plays else None)
        if not length:
            break
    return match
