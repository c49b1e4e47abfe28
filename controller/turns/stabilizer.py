"""Debounce: from a stream of Observations to stable board views.

Only frames without a hand count: a hand frame is skipped. A view is stable when, over the
last `window` hand-free frames, every point, both bars and the dice have a majority value;
the share of frames that agree with it is that field's confidence.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Die:
    """A die as the controller uses it: value, where it lies (field x, y) and whether cocked."""

    value: int
    x: float
    y: float
    cocked: bool


@dataclass(frozen=True)
class StableView:
    """A board view that held over the window. `confidence` has one share per point (24)
    then the white and black bars; `t` is the time of the last frame."""

    points: tuple[int, ...]
    bar_white: int
    bar_black: int
    dice: tuple[Die, ...]
    confidence: tuple[float, ...]
    t: float

    @property
    def board(self) -> tuple[tuple[int, ...], int, int]:
        return self.points, self.bar_white, self.bar_black


def _dice_signature(obs: dict) -> tuple:
    """What must agree about the dice: values, leaning, and the half of the field each is on
    (the same numbers thrown by the other player land on the other half)."""
    return tuple(sorted((d["value"], bool(d.get("cocked")), d["field_xy"][0] > 0.5)
                        for d in obs.get("dice", [])))


def _fields(obs: dict) -> tuple:
    """The 27 voted fields of one frame: 24 points, the two bars, the dice."""
    return (*obs["points"], obs["bar"]["white"], obs["bar"]["black"], _dice_signature(obs))


class Stabilizer:
    """Feed Observations with their time; get a StableView each time the stable view changes."""

    def __init__(self, window: int = 5) -> None:
        self.window = window
        self._frames: deque[tuple[tuple, dict]] = deque(maxlen=window)
        self._last: tuple | None = None

    def feed(self, obs: dict, t: float) -> StableView | None:
        if obs.get("hand") or obs.get("error"):
            return None
        self._frames.append((_fields(obs), obs))
        if len(self._frames) < self.window:
            return None
        keys = [k for k, _ in self._frames]
        if keys.count(keys[-1]) == self.window:
            values, shares = keys[-1], (1.0,) * 26
        else:
            winners = [Counter(column).most_common(1)[0] for column in zip(*keys, strict=True)]
            if any(count * 2 <= self.window for _, count in winners):
                return None
            values = tuple(value for value, _ in winners)
            shares = tuple(round(count / self.window, 3) for _, count in winners[:26])
        if values == self._last:
            return None
        self._last = values
        latest = next(o for k, o in reversed(self._frames) if k[26] == values[26])
        dice = tuple(Die(d["value"], *d["field_xy"], bool(d.get("cocked")))
                     for d in latest.get("dice", []))
        return StableView(values[:24], values[24], values[25], dice, shares, t)
