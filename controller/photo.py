"""A photo of any board to a position: the field found, its corners named from the position
on it or from the user's word, and the position's XGID and gnubg Position ID.

A field found in a photo can be named four ways (White's edge either long side, White's
1-point at either end of it). `read_photo` reads the photo through all four and orders the
readings: the one that shows the start position, if one does; else, when the user says how
the photo was taken (`home` and `white`: the photo taken from White's seat, White's edge the
long side lower in the photo), the ones that fit that; then the one within `NEAR_START`
checkers of the start position, if one is (an early game, or the start position misread on a
few points: other namings read it 30 or more away); the rest ranked by the fewest pips
(players' checkers go home, so the true naming usually has the fewest). Only a single
fitting reading is certain: the others are kept beside it, never dropped in silence.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..calibration.file import Calibration
from ..engine.board import BLACK, WHITE, Position
from ..engine.ids import MatchState, position_id, xgid
from ..vision.column_reader import MODEL
from ..vision.corners import START, field_namings
from ..vision.cube import seen_through
from ..vision.read import Reader

HOMES = ("left", "right")
NEAR_START = 20  # checkers a reading may differ from the start position by, counted per point
WHITES = ("light", "dark")


@dataclass(frozen=True)
class PhotoReading:
    """The readings of one photo through the namings that fit, the likeliest first, and what
    chose it: "start position", "your word" (a single naming fits --home/--white), "near the
    start position" or "fewest pips" (several fit: not certain)."""

    readings: list[dict]
    told_by: str


def read_photo(image: np.ndarray, checkers: str = "net", home: str | None = None,
               white: str | None = None, finder: Path | None = None,
               cube: bool = False, checker_net: Path = MODEL) -> PhotoReading:
    """The field found in a BGR photo and read through its namings; ValueError when no field
    is found. `white` names the colour of White's checkers (default light); giving `home` or
    `white` says the photo was taken from White's seat. `finder`: the learned field finder's
    net, if not the installed one. `cube`: also look for the doubling cube (each reading's
    `cube`, seen through its naming, where one is seen). `checker_net`: the learned checker
    reader's net, if not the installed one."""
    size = (image.shape[1], image.shape[0])
    readings, seen = [], None if cube else {}
    for named in field_namings(image, finder):
        if (home or white) and not from_whites_seat(named, home):
            continue
        reader = Reader(Calibration(size, named), checkers, checker_net)
        obs = reader.read(image)
        if seen is None:  # the cube is looked for once, then seen through each naming
            seen = reader.cube(image) or {}
        corners = {k: [round(x, 1), round(y, 1)] for k, (x, y) in named.items()}
        readings.append({**(swap_colours(obs) if white == "dark" else obs),
                         "corners_px": corners,
                         **({"cube": seen_through(seen, reader.view)} if seen else {})})
    if not readings:
        raise ValueError("--home/--white: no naming of the field found puts White's edge lower "
                         "in the photo (is the board turned a quarter?)")
    start = [r for r in readings if shows_start(r)]
    if start:
        return PhotoReading(start, "start position")
    if len(readings) == 1:
        return PhotoReading(readings, "your word")
    readings.sort(key=pips)
    near = min(readings, key=from_start)
    if from_start(near) <= NEAR_START:
        return PhotoReading([near, *(r for r in readings if r is not near)],
                            "near the start position")
    return PhotoReading(readings, "fewest pips")


def shows_start(obs: dict) -> bool:
    """Whether a reading (or a label of one) is the start position, none on the bar."""
    return tuple(obs["points"]) == START and not any(obs["bar"].values())


def from_start(obs: dict) -> int:
    """How many checkers a reading differs from the start position by, point by point."""
    return int(np.abs(np.subtract(obs["points"], START)).sum())


def from_whites_seat(named: dict, home: str | None) -> bool:
    """Whether a naming puts White's edge (p1-p12) on the long side lower in the photo and,
    when `home` is given, White's 1-point at that end as White sees it from there."""
    p1, p12, p13, p24 = (np.asarray(named[k]) for k in ("p1", "p12", "p13", "p24"))
    if p1[1] + p12[1] <= p13[1] + p24[1]:
        return False
    return home is None or (p1[0] > p12[0]) == (home == "right")


def swap_colours(obs: dict) -> dict:
    """The Observation with the dark checkers as White (positive) and the light as Black."""
    swapped = {**obs, "points": [-n for n in obs["points"]],
               "bar": {"white": obs["bar"]["black"], "black": obs["bar"]["white"]},
               "off": {"white": obs["off"]["black"], "black": obs["off"]["white"]}}
    if "point_options" in obs:
        swapped["point_options"] = [[[-n, p] for n, p in options]
                                    for options in obs["point_options"]]
    return swapped


def pips(obs: dict) -> int:
    """Both sides' pip counts together (White moves 24 -> 1, Black 1 -> 24)."""
    board = sum((i + 1) * n if n > 0 else (24 - i) * -n for i, n in enumerate(obs["points"]))
    return board + 25 * (obs["bar"]["white"] + obs["bar"]["black"])


def position_ids(obs: dict, on_roll: str = "white", cube: int = 1,
                 cube_owner: str | None = None) -> dict:
    """`xgid` and `position_id` of the reading with `on_roll` to play, or {} when it is no
    legal position (more than 15 checkers of a side). Two uncocked dice read are the roll."""
    turn = WHITE if on_roll == "white" else BLACK
    owner = {None: None, "white": WHITE, "black": BLACK}[cube_owner]
    try:
        pos = Position(tuple(obs["points"]), obs["bar"]["white"], obs["bar"]["black"], turn,
                       cube, owner)
    except ValueError:
        return {}
    dice = obs.get("dice", [])
    roll = (tuple(d["value"] for d in dice)
            if len(dice) == 2 and not any(d["cocked"] for d in dice) else (0, 0))
    return {"xgid": xgid(pos, MatchState(cube=cube, cube_owner=owner, turn=turn, dice=roll)),
            "position_id": position_id(pos)}


def put_on_bar(obs: dict, white: int, black: int) -> dict:
    """The reading with checkers the photo does not show put on the bar instead of off;
    ValueError when more are put there than are missing."""
    for colour, n in (("white", white), ("black", black)):
        if n > obs["off"][colour]:
            raise ValueError(f"--bar-{colour} {n}: only {obs['off'][colour]} {colour} "
                             "checkers are missing from the photo")
    return {**obs, "bar": {"white": obs["bar"]["white"] + white,
                           "black": obs["bar"]["black"] + black},
            "off": {"white": obs["off"]["white"] - white, "black": obs["off"]["black"] - black}}
