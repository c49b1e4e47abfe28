"""How well each board the rules allow explains what the camera saw (DESIGN.md: the engine is
the judge; ambiguity -> ask the players).

A frame is one Observation. For a candidate board (24 points, two bars) a frame's likelihood
is the product over the 26 places of P(seen | true): the reader's own `point_options` for a
point when it gives them, otherwise a plain error model (a count one off is uncommon, two off
or the other colour rare; less so in a frame of low `confidence`) sharpened by what this
board has shown so far (`Quirks`: a point that always reads one short costs little).
Frames of one still board are far from independent (the same glare misreads it each time),
so `LOOK` frames count as one independent look.

The dice get the same treatment: every frame of the turn in which the mover's two dice lie
on their half adds its likelihood for each roll.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Board = tuple[tuple[int, ...], int, int]

LOOK = 5            # frames that count as one independent look at the board
ONE_OFF = 0.02      # P(a place reads one checker more, or one less)
FAR_OFF = 0.002     # P(two or more off), and P(the other colour)
PRIOR_MASS = 2.0    # the error model counts as this many commits of evidence for a quirk
DIE_RIGHT = 0.9     # P(a die reads its value); the rest is shared by the five others
OPTION_FLOOR = 0.002  # what a count the reader gave no probability costs

_DELTAS = 6  # delta classes: -2 or fewer, -1, 0, +1, +2 or more (same colour), other colour
_BASE = np.array([FAR_OFF, ONE_OFF, 1 - 2 * ONE_OFF - 3 * FAR_OFF, ONE_OFF, FAR_OFF, FAR_OFF])


def places(obs: dict) -> np.ndarray:
    """The 26 counts of a frame: 24 points then White's and Black's bar (Black negative)."""
    return np.array([*obs["points"], obs["bar"]["white"], -obs["bar"]["black"]], dtype=int)


def board_places(board: Board) -> np.ndarray:
    points, white, black = board
    return np.array([*points, white, -black], dtype=int)


def delta_class(seen: np.ndarray, true: np.ndarray) -> np.ndarray:
    """Each place's delta class (index into _BASE) for seen counts against true ones."""
    flip = seen * true < 0
    step = np.clip(np.abs(seen) - np.abs(true), -2, 2) + 2
    return np.where(flip, 5, step)


def height_class(true: np.ndarray) -> np.ndarray:
    """The stack height a quirk is learned for: 0..7, 8 for eight or more."""
    return np.minimum(np.abs(true), 8)


class Quirks:
    """What this board's camera gets wrong, learned from committed turns: per place and per
    stack height, how often each delta class was seen. Starts from the plain error model;
    a new calibration starts a new session and so new quirks."""

    def __init__(self) -> None:
        self.by_place = np.zeros((26, _DELTAS))
        self.by_height = np.zeros((9, _DELTAS))

    def learn(self, board: Board, frames: Sequence[dict]) -> None:
        """A committed board and the frames it was seen in: one vote per place for the delta
        class seen most often."""
        if not frames:
            return
        true = board_places(board)
        seen = np.stack([places(o) for o in frames])
        classes = delta_class(seen, true[None, :])
        for place in range(26):
            common = np.bincount(classes[:, place], minlength=_DELTAS).argmax()
            self.by_place[place, common] += 1
            self.by_height[height_class(true[place]), common] += 1

    def table(self) -> tuple[np.ndarray, np.ndarray]:
        """P(delta class) per place (26, 6) and per height (9, 6): the base model with the
        learned counts added."""
        def smooth(counts: np.ndarray) -> np.ndarray:
            return (PRIOR_MASS * _BASE + counts) / (PRIOR_MASS + counts.sum(1, keepdims=True))
        return smooth(self.by_place), smooth(self.by_height)


def frame_scores(boards: np.ndarray, frames: Sequence[dict], quirks: Quirks) -> np.ndarray:
    """Log-likelihood of the frames under each candidate (boards: (C, 26)), summed over the
    frames and divided by LOOK."""
    by_place, by_height = quirks.table()
    total = np.zeros(len(boards))
    heights = height_class(boards)
    for obs in frames:
        seen = places(obs)
        classes = delta_class(seen[None, :], boards)
        p = 0.5 * (by_place[np.arange(26)[None, :], classes] + by_height[heights, classes])
        confidence = float(obs.get("confidence", 1.0))
        if confidence < 1.0:  # a doubtful frame: errors a little more likely everywhere
            p = np.where(classes == 2, p, p * (1 + 2 * (1 - max(confidence, 0.0))))
        logp = np.log(p)
        options = obs.get("point_options")
        if options:
            logp[:, :24] = _option_logs(options, boards[:, :24])
        total += logp.sum(1)
    return total / LOOK


def unexplained(board: np.ndarray, frames: Sequence[dict], quirks: Quirks,
                least: float) -> int:
    """Places where most frames show something the candidate `board` (26 places) explains
    with probability below `least`, even knowing this board's quirks."""
    by_place, by_height = quirks.table()
    seen = np.stack([places(o) for o in frames])
    classes = delta_class(seen, board[None, :])
    heights = height_class(board)
    count = 0
    for place in range(26):
        common = np.bincount(classes[:, place], minlength=_DELTAS).argmax()
        p = 0.5 * (by_place[place, common] + by_height[heights[place], common])
        count += bool(p < least)
    return count


def _option_logs(options: list, points: np.ndarray) -> np.ndarray:
    """log P(true count) per point from the reader's options, floored."""
    out = np.full(points.shape, math.log(OPTION_FLOOR))
    for i, pairs in enumerate(options):
        for count, prob in pairs:
            if prob > OPTION_FLOOR:
                out[points[:, i] == count, i] = math.log(prob)
    return out


def dice_score(roll: tuple[int, int], seen: Sequence[tuple[int, ...]]) -> float:
    """Log-likelihood of the dice seen over the turn (per frame one or two values) under
    `roll`, divided by LOOK. One die seen is either of the roll's."""
    total = 0.0
    for values in seen:
        if len(values) == 1:
            total += max(_die_log(roll[0], values[0]), _die_log(roll[1], values[0]))
        else:
            total += max(_die_log(roll[0], values[0]) + _die_log(roll[1], values[1]),
                         _die_log(roll[0], values[1]) + _die_log(roll[1], values[0]))
    return total / LOOK


def _die_log(true: int, seen: int) -> float:
    return math.log(DIE_RIGHT if true == seen else (1 - DIE_RIGHT) / 5)


@dataclass(frozen=True)
class Ranking:
    """The best candidate and the runner-up (index into the candidates), their log-likelihood
    ratio, and the places (White's points 1..24, "bar white", "bar black") where they
    differ: the points in doubt."""

    best: int
    runner_up: int | None
    log_ratio: float
    doubt: tuple


def rank(scores: np.ndarray, boards: np.ndarray) -> Ranking:
    """The best two of the scored candidates."""
    order = np.argsort(-scores, kind="stable")
    best = int(order[0])
    if len(order) == 1:
        return Ranking(best, None, math.inf, ())
    second = int(order[1])
    differ = np.nonzero(boards[best] != boards[second])[0]
    doubt = tuple(int(i) + 1 if i < 24 else ("bar white", "bar black")[i - 24] for i in differ)
    return Ranking(best, second, float(scores[best] - scores[second]), doubt)
