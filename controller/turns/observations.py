"""Observation streams (DESIGN.md, `bgboard record --observations`): one Observation JSON a
line, as `bgboard read --json` prints it, plus `"t"`, seconds from the start.

Any reader can feed the recorder this way. Each line is checked as it is read, so that what
was recorded before a bad line is kept: the bad line stops the stream with a ValueError that
names it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator


def read_stream(lines: Iterable[str], name: str) -> Iterator[tuple[float, dict]]:
    """(t, Observation) for each non-blank line, in order; ValueError naming the first bad
    line (`name`: the file's name, for the message)."""
    last = -math.inf
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obs = parse(line)
        except ValueError as exc:
            raise ValueError(f"{name}: line {number}: {exc}") from None
        if obs["t"] < last:
            raise ValueError(f"{name}: line {number}: t {obs['t']} is before the line "
                             f"above ({last})")
        last = obs["t"]
        yield obs["t"], obs


def parse(line: str) -> dict:
    """One line as an Observation with its time; ValueError saying what is wrong."""
    try:
        obs = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg})") from None
    if not isinstance(obs, dict):
        raise ValueError("expected a JSON object (an Observation with \"t\")")
    _number(obs.get("t"), '"t"')
    points = obs.get("points")
    if not (isinstance(points, list) and len(points) == 24 and all(map(_is_int, points))):
        raise ValueError('"points" must be 24 whole numbers')
    bar = obs.get("bar")
    if not (isinstance(bar, dict) and all(_is_int(bar.get(k)) and bar[k] >= 0
                                          for k in ("white", "black"))):
        raise ValueError('"bar" must be {"white": n, "black": n}')
    dice = obs.get("dice", [])
    if not (isinstance(dice, list) and all(map(_is_die, dice))):
        raise ValueError('"dice" must be a list of {"value": 1-6, "field_xy": [x, y]}')
    if not isinstance(obs.get("hand", False), bool):
        raise ValueError('"hand" must be true or false')
    if "confidence" in obs:
        _number(obs["confidence"], '"confidence"')
    if "point_options" in obs and not _are_options(obs["point_options"]):
        raise ValueError('"point_options" must be 24 lists of [count, probability] pairs')
    return obs


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{what} must be a number")


def _is_die(die) -> bool:
    if not isinstance(die, dict) or not _is_int(die.get("value")) or \
            not 1 <= die["value"] <= 6 or not isinstance(die.get("cocked", False), bool):
        return False
    xy = die.get("field_xy")
    return isinstance(xy, list) and len(xy) == 2 and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in xy)


def _are_options(options) -> bool:
    return isinstance(options, list) and len(options) == 24 and all(
        isinstance(point, list) and all(
            isinstance(pair, list) and len(pair) == 2 and _is_int(pair[0]) and
            isinstance(pair[1], int | float) and 0 <= pair[1] <= 1 for pair in point)
        for point in options)
