"""Learning a board from a frame of the start position: checker and board colours, checker size,
and the frame band's own look along each side (its grain and the room's fixed shading).

The colours are Lab (OpenCV 8-bit scale) medians over places whose content the start position
fixes; the checker diameter is the length of the five-checker rows divided by five.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from ..calibration.file import Calibration
from ..calibration.rectify import FieldView
from . import lighting
from .checkers import Classifier, classify_small, even_lab, run_profile
from .hand import side_profiles

START = {1: -2, 6: 5, 8: 3, 12: -5, 13: 5, 17: -3, 19: -5, 24: 2}
FIVES = ("6", "12", "13", "19")
AGREE = 0.25  # five-checker rows measured within this share of their median agree


def _sample(lab: np.ndarray, xy, size: int = 2) -> np.ndarray:
    x, y = round(xy[0]), round(xy[1])
    patch = lab[max(y - size, 0):y + size + 1, max(x - size, 0):x + size + 1]
    return np.median(patch.reshape(-1, 3), axis=0)


def _spot(view: FieldView, name: str, t: float, dx: float = 0.0) -> tuple[float, float]:
    row = view.row(name)
    return row.base[0] + dx, row.base[1] + row.direction * t


def evened(lab: np.ndarray, view: FieldView) -> np.ndarray:
    """`lab` with uneven light divided out, taking the median frame and field as the level."""
    mid = [_sample(lab, _spot(view, str(p), 0.5 * view.h)) for p in range(1, 13)]
    level = {"frame": frame_colour(lab, view), "field": np.median(mid, axis=0)}
    return lighting.normalise(lab, lighting.gain_map(lab, view, 1.0, level))


def start_colours(rect: np.ndarray, view: FieldView) -> dict:
    """Light, dark and board colours sampled where the start position puts them."""
    lab = evened(cv2.cvtColor(cv2.GaussianBlur(rect, (5, 5), 0), cv2.COLOR_BGR2LAB), view)
    d = view.d
    light, dark = [], []
    for p, n in START.items():
        for i in range(abs(n)):
            (light if n > 0 else dark).append(_sample(lab, _spot(view, str(p), (i + 0.5) * d)))
    empty = [p for p in range(1, 25) if p not in START]
    depth = view.geo.point_depth * view.h
    board = []
    for parity in (0, 1):
        board.append(np.median([_sample(lab, _spot(view, str(p), 0.3 * depth))
                                for p in empty if p % 2 == parity], axis=0))
    mid = [_sample(lab, _spot(view, str(p), 0.5 * view.h)) for p in range(1, 13)]
    board.append(np.median(mid, axis=0))
    edge = [_sample(lab, _spot(view, str(p), 0.8 * depth, 0.45 * view.geo.column_width * view.w))
            for p in empty]
    board.append(np.median(edge, axis=0))
    bar = [_sample(lab, _spot(view, "bar_low", f * view.h)) for f in (0.1, 0.25, 0.4)]
    board.append(np.median(bar, axis=0))
    return {"light": _round(np.median(light, axis=0)), "dark": _round(np.median(dark, axis=0)),
            "board": [_round(c) for c in board], "field": _round(board[2]),
            "frame": _round(frame_colour(lab, view))}


def frame_colour(lab: np.ndarray, view: FieldView) -> np.ndarray:
    """Median colour of the frame band around the field."""
    m = view.m
    band = slice(m // 4, max(3 * m // 4, m // 4 + 1))
    parts = [lab[band, m:-m], lab[-band.stop:-band.start or None, m:-m], lab[m:-m, band]]
    return np.median(np.concatenate([p.reshape(-1, 3) for p in parts]), axis=0)


def _round(c) -> list[float]:
    return [round(float(v), 1) for v in c]


def learn(image: np.ndarray, cal: Calibration) -> Calibration:
    """`cal` plus the colours and checker diameter learned from a start-position frame. The
    diameter is measured along the four five-checker rows; a row whose set is coloured much
    as the points under it measures short or not at all, so the rows within AGREE of the
    rows' median are kept, and two of them suffice (a set told from the board on two rows is
    told from it: boards drawn at random, docs/vision-log.md)."""
    view = FieldView(cal)
    colours = start_colours(view.warp(image), view)
    even = even_lab(view.warp_half(image), view, colours)
    cls = classify_small(even, Classifier(colours))
    runs = []
    for name in FIVES:
        light, dark, _ = run_profile(cls, view.row(name), view.d, 0.5, 0.49 * view.h)
        occupied = np.flatnonzero((light + dark) > 0.5)
        if len(occupied):
            runs.append((occupied[-1] + 1) / 0.5 / 5)
    agree = [r for r in runs if abs(r - np.median(runs)) <= AGREE * np.median(runs)]
    apart = np.linalg.norm(np.subtract(colours["light"], colours["dark"]))
    if (apart < 30 or len(agree) < 2 or np.ptp(agree) > AGREE * np.median(agree)
            or not 0.7 * view.d < np.median(agree) < 1.3 * view.d):
        raise ValueError("the start position's five-checker rows are not told from the board "
                         "by their colours")
    diameter = float(np.median(agree)) / view.w
    colours["band"] = [np.rint(p).astype(int).tolist() for p in side_profiles(even, view.m / 2)]
    extra = dict(cal.extra, colours=colours, checker_diameter=round(diameter, 5))
    return replace(cal, extra=extra)


def guess_colours(rect: np.ndarray, view: FieldView) -> dict:
    """Colours guessed from any frame when none were learned: board colours where checkers are
    rare (triangle tips, the middle), checker colours where they differ from the board."""
    lab = cv2.cvtColor(cv2.GaussianBlur(rect, (5, 5), 0), cv2.COLOR_BGR2LAB)
    depth = view.geo.point_depth * view.h
    board = [np.median([_sample(lab, _spot(view, str(p), 0.85 * depth))
                        for p in range(1, 25) if p % 2 == parity], axis=0) for parity in (0, 1)]
    board.append(np.median([_sample(lab, _spot(view, str(p), 0.5 * view.h))
                            for p in range(1, 13)], axis=0))
    board.append(_sample(lab, _spot(view, "bar_low", 0.5 * view.h)))
    spots = np.array([_sample(lab, _spot(view, r.name, 0.5 * view.d)) for r in view.rows])
    far = np.min([np.linalg.norm(spots - b, axis=1) for b in board], axis=0) > 25
    found = spots[far].astype(np.float32)
    if len(found) >= 2 and np.ptp(found[:, 0]) > 30:
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        cv2.setRNGSeed(1)
        _, labels, centres = cv2.kmeans(found, 2, None, crit, 3, cv2.KMEANS_PP_CENTERS)
        light, dark = sorted(centres.tolist(), key=lambda c: -c[0])
    else:
        light, dark = [235.0, 128.0, 128.0], [40.0, 128.0, 128.0]
    return {"light": _round(light), "dark": _round(dark), "board": [_round(c) for c in board],
            "field": _round(board[2]), "frame": _round(frame_colour(lab, view))}
