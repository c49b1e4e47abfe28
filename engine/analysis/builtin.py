"""The `builtin` adapter: a small linear evaluator that needs nothing installed. WEAK.

A position is described by a few classic features of each side (pips, blots within reach of
the enemy, made home and outfield points, the longest prime, anchors, checkers back, on the
bar and borne off, stacks) and of the race. Three linear models of them, one set for contact
and one for races, give the chance to win (through a logistic), to win a gammon and to lose
one; in a pure race the chance to win comes from the pip counts alone (a normal law). The
weights were fitted to gnubg-nn 0-ply on self-play positions (`benchmarks/tutor.py --fit`).
It plays sensibly but makes real mistakes: use it only when no gnubg is available.
"""

from __future__ import annotations

import math

from ..board import Position
from ..moves import mover_board
from .base import Analyzer, Probabilities
from .cube import is_race

RACE = (4.0, 0.4066, 0.75)
"""Race: P(win) = Phi((their pips - my pips + a) / (b * (sum of pips) ** c)) with (a, b, c)."""
FEATURES = ("pips", "bar", "off", "home points", "outfield points", "prime", "direct blots",
            "indirect blots", "back checkers", "anchors", "stacks", "not home")
WIN = {
    "contact": (
        0.4089, -0.3518, 6.7459, 0.3587, 0.4213, 1.0517, 0.1676, 0.4428, -1.3023,
        0.1348, 0.4293, -2.2816, -0.5598, 0.4224, -6.0628, -0.2991, -0.4256, -0.8437,
        0.0806, -0.3412, 1.1198, -0.2029, -0.3083, 2.5110, 0.0003, 0.0003, 0.0000,
        -0.9687,
    ),
}
WIN_GAMMON = {
    "contact": (
        0.0271, -0.0373, 0.6064, 0.0382, 0.0145, 0.0909, 0.0095, 0.0058, -0.0321,
        0.0138, 0.0060, -0.1494, 0.0736, 0.0927, -0.1780, -0.0084, -0.0278, -0.0811,
        0.0508, -0.0114, 0.1266, -0.0403, 0.0074, 0.1656, -0.0410, -0.0410, 0.0000,
        0.0465,
    ),
    "race": (
        -0.3147, -0.0000, 0.3394, -0.0003, -0.0409, 0.0045, -0.0000, -0.0000, 0.1213,
        -0.0240, 0.0046, 0.2887, 0.7362, -0.0000, 0.1875, 0.0177, -0.1536, -0.0950,
        0.0000, 0.0000, 0.7065, -0.1235, 0.0326, 0.7599, -0.3050, 0.0000, -0.3599,
        0.0000,
    ),
}
LOSE_GAMMON = {
    "contact": (
        0.0426, 0.0463, -0.2013, -0.0286, -0.0406, -0.0064, -0.0072, -0.0476, 0.1567,
        -0.0199, -0.0044, 0.1185, 0.0283, -0.0039, 0.5392, 0.0292, 0.0117, 0.0850,
        -0.0130, 0.0123, -0.0193, 0.0112, 0.0170, -0.1336, -0.0008, -0.0008, 0.0000,
        -0.0143,
    ),
    "race": (
        0.9606, 0.0000, -0.0531, 0.0226, -0.1121, -0.1775, 0.0000, 0.0000, 0.3582,
        -0.0927, -0.0715, 0.8162, -0.6501, -0.0000, 0.6814, 0.0032, -0.1066, 0.0441,
        0.0000, 0.0000, 0.2182, -0.0388, 0.0423, 0.7256, -0.3125, 0.0000, 0.7228, 0.0000,
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
    contact = 0.0 if is_race(pos) else 1.0
    lead = theirs[0] - mine[0]
    length = math.sqrt(max(mine[0] + theirs[0], 0.01))
    return [*mine, *theirs, 1.0, contact, (1 - contact) * lead / length, contact * lead]


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
        if kind == "race":
            win = race_win(pos.pips(pos.turn), pos.pips(pos.turn.other))
        else:
            win = 1 / (1 + math.exp(-max(min(_dot(WIN[kind], x), 30.0), -30.0)))
        win_gammon = min(max(_dot(WIN_GAMMON[kind], x), 0.0), win)
        lose_gammon = min(max(_dot(LOSE_GAMMON[kind], x), 0.0), 1 - win)
        return Probabilities(win, win_gammon, 0.0, lose_gammon, 0.0)


def race_win(mine: int, theirs: int, race: tuple[float, float, float] = RACE) -> float:
    """The side on roll's chance to win a pure race, from the pip counts."""
    lead, spread, power = race
    z = (theirs - mine + lead) / (spread * (mine + theirs) ** power)
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def _finished(pos: Position) -> Probabilities:
    """A game already won: certain, with its gammon or backgammon."""
    winner = pos.winner()
    m = pos.result_multiplier(winner)
    won = Probabilities(1.0, float(m >= 2), float(m == 3), 0.0, 0.0)
    return won if winner is pos.turn else won.flipped()
