"""Observation streams with faults, and hand-made Observations, for the controller tests (a
film's true Observations: `Film.observations`)."""

from __future__ import annotations

import random

from bgboard.engine.board import START_POINTS


def noisy(obs: list[dict], seed: int, miscount: float = 0.05, hands: float = 0.03) -> list[dict]:
    """One point miscounted in `miscount` of the frames, and random frames with a hand."""
    rng = random.Random(seed)
    out = []
    for o in obs:
        o = {**o, "points": list(o["points"])}
        if rng.random() < miscount:
            i = rng.randrange(24)
            o["points"][i] += rng.choice([-1, 1])
        if rng.random() < hands:
            o["hand"] = True
        out.append(o)
    return out


def frame_of(points, dice=(), hand: bool = False) -> dict:
    """A hand-made Observation: every point read as `points`, `dice` as (value, field x)."""
    return {"points": list(points), "bar": {"white": 0, "black": 0},
            "off": {"white": 0, "black": 0}, "hand": hand, "confidence": 1.0,
            "dice": [{"value": v, "field_xy": [x, 0.5], "cocked": False} for v, x in dice]}


def board(changes: dict[int, int], start=START_POINTS) -> list[int]:
    """`start` (White's points 1-24, signed) with the counts of some points changed."""
    points = list(start)
    for point, change in changes.items():
        points[point - 1] += change
    return points
