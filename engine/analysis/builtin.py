"""The `builtin` adapter: a small linear evaluator that needs nothing installed. WEAK.

A position is described by a few classic features of each side (pips, blots within reach of
the enemy, made home and outfield points, the longest prime, anchors, checkers back, on the
bar and borne off, stacks) and of the race. Three linear models of them give the chance to
win (through a logistic), to win a gammon and to lose one. The weights were fitted by least
squares to gnubg-nn 0-ply on self-play positions (`python benchmarks/tutor.py --fit`).
It plays sensibly but makes real mistakes: use it only when no gnubg is available.
"""

from __future__ import annotations

import math

from ..board import Position
from ..moves import mover_board
from .base import Analyzer, Probabilities

FEATURES = ("pips", "bar", "off", "home points", "outfield points", "prime", "direct blots",
            "indirect blots", "back checkers", "anchors", "stacks", "not home")
WIN = (
    1.2819, -0.3136, 9.7566, 0.3845, 0.4714, 1.2202, 0.2157, 0.7276, -0.8884, 0.0978,
    0.6375, -1.9721, -1.1639, 0.3964, -8.4311, -0.2426, -0.4574, -1.0087, 0.0930, -0.4633,
    0.6282, -0.1805, -0.3461, 2.4813, -0.9380, 0.1915, -0.8255, 0.2113,
)
WIN_GAMMON = (
    -0.0713, -0.0499, 0.4053, 0.0298, 0.0019, 0.0894, -0.0004, 0.0032, -0.0090, 0.0092,
    0.0003, -0.0578, 0.1239, 0.0877, -0.1091, -0.0069, -0.0339, -0.0780, 0.0473, -0.0090,
    0.1258, -0.0433, 0.0007, 0.2385, -0.0861, 0.0462, -0.1112, 0.0096,
)
LOSE_GAMMON = (
    -0.3933, 0.0377, -0.3392, -0.0315, -0.0603, -0.0300, -0.0210, -0.0712, 0.1384, -0.0334,
    -0.0577, 0.2239, 0.3815, 0.0028, 0.4769, 0.0220, -0.0004, 0.0888, -0.0243, 0.0208,
    0.0418, 0.0081, -0.0054, -0.0229, 0.0984, 0.0001, -0.7518, -0.4696,
)


def side_features(b: list[int]) -> list[float]:
    """The FEATURES of the side whose board `b` is (27 ints, that side's view)."""
    enemy = ([0] if b[26] else []) + [p for p in range(1, 25) if b[p] < 0]
    made = [p for p in range(1, 25) if b[p] >= 2]
    direct = indirect = 0.0
    for p in range(1, 25):
        if b[p] == 1:
            reach = [p - q for q in enemy if q < p]
            weight = (25 - p) / 24
            if any(d <= 6 for d in reach):
                direct += weight
            elif any(d <= 12 for d in reach):
                indirect += weight
    pips = sum(p * b[p] for p in range(1, 25) if b[p] > 0) + 25 * b[25]
    return [
        pips / 100, b[25], b[0] / 15,
        sum(1 for p in made if p <= 6), sum(1 for p in made if 7 <= p <= 11),
        _longest_run(made) / 6, direct, indirect,
        (sum(b[p] for p in range(19, 25) if b[p] > 0) + b[25]) / 5,
        sum(1 for p in made if p >= 19),
        sum(max(b[p] - 3, 0) for p in range(1, 25)) / 5,
        (sum(b[p] for p in range(7, 25) if b[p] > 0) + b[25]) / 15,
    ]


def _longest_run(points: list[int]) -> int:
    best = run = 0
    last = None
    for p in points:
        run = run + 1 if last is not None and p == last + 1 else 1
        best, last = max(best, run), p
    return best


def features(pos: Position) -> list[float]:
    """The model's inputs for `pos`: the side on roll's features, the other side's, then a
    constant, contact, and the pip lead in a race and in contact."""
    me = mover_board(pos)
    them = mover_board(pos, pos.turn.other)
    mine, theirs = side_features(me), side_features(them)
    contact = 0.0 if _race(me) else 1.0
    lead = theirs[0] - mine[0]
    length = math.sqrt(max(mine[0] + theirs[0], 0.01))
    return [*mine, *theirs, 1.0, contact, (1 - contact) * lead / length, contact * lead]


def _race(b: list[int]) -> bool:
    if b[25] or b[26]:
        return False
    mine = max((p for p in range(1, 25) if b[p] > 0), default=0)
    return all(b[p] >= 0 for p in range(mine + 1, 25))


def _dot(weights: tuple[float, ...], x: list[float]) -> float:
    return sum(w * v for w, v in zip(weights, x, strict=True))


class Builtin(Analyzer):
    """The weak fallback: one linear look at the position, no search (0-ply only)."""

    name = "builtin"
    max_ply = 0
    weak = True

    def evaluate(self, pos: Position, ply: int = 0) -> Probabilities:
        self.check_ply(ply)
        if pos.off(pos.turn) == 15 or pos.off(pos.turn.other) == 15:
            return _finished(pos)
        x = features(pos)
        win = 1 / (1 + math.exp(-max(min(_dot(WIN, x), 30.0), -30.0)))
        win_gammon = min(max(_dot(WIN_GAMMON, x), 0.0), win)
        lose_gammon = min(max(_dot(LOSE_GAMMON, x), 0.0), 1 - win)
        return Probabilities(win, win_gammon, 0.0, lose_gammon, 0.0)


def _finished(pos: Position) -> Probabilities:
    """A game already won: certain, with its gammon or backgammon."""
    winner = pos.winner()
    m = pos.result_multiplier(winner)
    won = Probabilities(1.0, float(m >= 2), float(m == 3), 0.0, 0.0)
    return won if winner is pos.turn else won.flipped()
