"""The `builtin` adapter: a small linear evaluator that needs nothing installed. WEAK.

A position is described by a few classic features of each side (pips, blots within reach of
the enemy, made home and outfield points, the longest prime, anchors, checkers back, on the
bar and borne off, stacks) and of the race. Three linear models of them, one set for contact
and one for races, give the chance to win (through a logistic), to win a gammon and to lose
one. The weights were fitted by least squares to gnubg-nn 0-ply on self-play positions
(`python benchmarks/tutor.py --fit`).
It plays sensibly but makes real mistakes: use it only when no gnubg is available.
"""

from __future__ import annotations

import math

from ..board import Position
from ..moves import mover_board
from .base import Analyzer, Probabilities

FEATURES = ("pips", "bar", "off", "home points", "outfield points", "prime", "direct blots",
            "indirect blots", "back checkers", "anchors", "stacks", "not home")
WIN = {
    "contact": (
        0.3901, -0.3027, 9.6654, 0.3716, 0.5178, 1.3924, 0.2406, 0.7763, -0.7382,
        0.0999, 0.6521, -2.4785, -0.3510, 0.3662, -8.7928, -0.2508, -0.5098, -0.8786,
        0.0829, -0.5664, 0.7196, -0.2755, -0.4611, 2.6768, -0.2920, -0.2920, 0.0000,
        -0.7411,
    ),
    "race": (
        7.1862, 0.0000, 0.6949, 0.3341, 0.3732, 0.1368, 0.0986, 0.3934, -1.3970, 0.0030,
        -0.1730, -0.9236, -5.6690, 0.0000, -1.5909, -0.2773, -0.0963, -0.9764, 0.1677,
        -0.0127, 0.6493, 0.0372, 0.1360, -0.7839, -1.2741, 0.0000, 9.0799, 0.0000,
    ),
}
WIN_GAMMON = {
    "contact": (
        -0.0231, -0.0501, 0.3981, 0.0290, -0.0008, 0.0977, -0.0017, 0.0001, -0.0027,
        0.0111, -0.0013, -0.0634, 0.0362, 0.0854, -0.1318, -0.0068, -0.0435, -0.0832,
        0.0457, -0.0178, 0.1538, -0.0543, -0.0092, 0.3206, -0.0079, -0.0079, 0.0000,
        0.0593,
    ),
    "race": (
        -0.0296, 0.0000, -0.0288, 0.0333, 0.0178, 0.0381, 0.0064, 0.0263, -0.0345,
        -0.0023, -0.0052, -0.0714, 0.2991, 0.0000, 0.0404, -0.0008, 0.0086, -0.0705,
        0.0572, 0.0246, 0.0257, -0.0126, 0.0451, -0.1384, -0.2414, 0.0000, -0.0997,
        0.0000,
    ),
}
LOSE_GAMMON = {
    "contact": (
        0.0195, 0.0421, -0.3435, -0.0307, -0.0651, -0.0428, -0.0267, -0.0779, 0.1223,
        -0.0338, -0.0700, 0.2702, -0.0298, 0.0043, 0.4705, 0.0196, 0.0005, 0.0748,
        -0.0279, 0.0181, 0.0391, 0.0120, -0.0045, -0.0520, 0.0597, 0.0597, 0.0000,
        -0.0493,
    ),
    "race": (
        -0.9223, -0.0000, -0.0294, -0.0261, -0.0433, 0.0205, 0.0079, -0.0304, 0.2303,
        -0.0223, 0.0535, 0.1375, 0.8773, -0.0000, 0.2830, 0.0519, -0.0001, 0.0915,
        -0.0068, 0.0211, 0.0019, 0.0000, 0.0109, 0.2167, -0.1489, 0.0000, -1.5960,
        0.0000,
    ),
}


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
        kind = "contact" if x[2 * len(FEATURES) + 1] else "race"
        win = 1 / (1 + math.exp(-max(min(_dot(WIN[kind], x), 30.0), -30.0)))
        win_gammon = min(max(_dot(WIN_GAMMON[kind], x), 0.0), win)
        lose_gammon = min(max(_dot(LOSE_GAMMON[kind], x), 0.0), 1 - win)
        return Probabilities(win, win_gammon, 0.0, lose_gammon, 0.0)


def _finished(pos: Position) -> Probabilities:
    """A game already won: certain, with its gammon or backgammon."""
    winner = pos.winner()
    m = pos.result_multiplier(winner)
    won = Probabilities(1.0, float(m >= 2), float(m == 3), 0.0, 0.0)
    return won if winner is pos.turn else won.flipped()
