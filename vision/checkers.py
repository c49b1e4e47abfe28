"""Checker reading on the rectified field.

Each point (and each half of the bar) is a row of checkers from its base: up to five in a row,
then a second layer in the gaps of the first, and so on (`pyramid`). Pixels are classed light
checker / dark checker / board by the nearest learned colour; the first layer is the length of
the checker run from the base. Upper layers show in the pattern of rims along the row: a
checker in a gap hides the rims that meet there and shows its own half a checker to each side.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..calibration.rectify import FieldView, Row, axis_band
from . import lighting

BOARD, LIGHT, DARK, OTHER = 0, 1, 2, 3
FAR = 40.0  # weighted Lab distance beyond which a pixel matches no learned colour
WEIGHTS = np.float32([0.6, 1.0, 1.0])  # Lab distance weights: lightness counts less (shadows)


def pyramid(n: int) -> list[tuple[int, float]]:
    """(layer, distance from the base in diameters) of n checkers: 5 in a row, then 4 in its
    gaps, then 3, 2, 1."""
    spots = [(k, k / 2 + i + 0.5) for k in range(5) for i in range(5 - k)]
    return spots[:n]


GRID = np.arange(1, 10) * 0.5


@dataclass(frozen=True)
class RowReading:
    """What one row holds: checker count, colour and how clear the decision was (0..1)."""

    name: str
    count: int
    light: bool
    margin: float


CHECKER_SHADES = (0.7, 0.95, 1.0)  # checkers may be deep in shadow (rims, stacked checkers)
BOARD_SHADES = (0.96, 1.04)  # the board only a little after evening out
TIE = 4.0  # a checker in shadow is less likely than bare board: it must be nearer by this
GREY = np.float32([0, 128, 128])


def palette(colours: dict) -> list[tuple[np.ndarray, tuple[float, float], int, float]]:
    """Lab colours to compare pixels with, the shades each may show, their class (board,
    light, dark) and the distance each must win by. Triangle edges (board blended with the
    field) count as board where they are unlike every checker."""
    deep, lit, full = CHECKER_SHADES
    out = []
    for key, cls in (("light", LIGHT), ("dark", DARK)):
        c = np.float32(colours[key])
        out += [(c, (lit, full), cls, 0.0), (c, (deep, lit), cls, TIE)]
    board = [np.float32(c) for c in colours["board"]]
    field = np.float32(colours["field"])
    for edge in ((board[0] + field) / 2, (board[1] + field) / 2):
        if min(shade_distance(edge[None], c, (deep, full))[0] for c, *_ in out) > 25:
            board.append(edge)
    return out + [(c, BOARD_SHADES, BOARD, 0.0) for c in board]


def shade_distance(lab: np.ndarray, colour, shades: tuple[float, float]) -> np.ndarray:
    """Weighted Lab distance from each colour of `lab` (n x 3) to `colour` under any light
    scaling its L and chroma by a factor in `shades`."""
    p = (lab - GREY) * WEIGHTS
    v = (np.float32(colour) - GREY) * WEIGHTS
    s = np.clip(p @ v / max(float(v @ v), 1.0), *shades)
    off = p - s[:, None] * v
    return np.sqrt((off * off).sum(1))


class Classifier:
    """Pixel class by the nearest palette colour (after each entry's handicap), through a
    lookup table over Lab / 4."""

    def __init__(self, colours: dict):
        grid = (np.indices((64, 64, 64)).reshape(3, -1).T * 4 + 2).astype(np.float32)
        dist = {BOARD: np.inf, LIGHT: np.inf, DARK: np.inf}
        rank = {BOARD: np.inf, LIGHT: np.inf, DARK: np.inf}
        for colour, shades, label, handicap in palette(colours):
            dist_one = shade_distance(grid, colour, shades)
            dist[label] = np.minimum(dist[label], dist_one)
            rank[label] = np.minimum(rank[label], dist_one + handicap)
        cls = np.argmin(np.stack([rank[BOARD], rank[LIGHT], rank[DARK]]), axis=0)
        near = np.minimum.reduce([dist[BOARD], dist[LIGHT], dist[DARK]]) <= FAR
        self.lut = np.where(near, cls, OTHER).astype(np.uint8)
        self.colours = colours

    def __call__(self, lab: np.ndarray) -> np.ndarray:
        return np.take(self.lut, cells(lab, 6))


def cells(lab: np.ndarray, bits: int) -> np.ndarray:
    """Per pixel of `lab` (uint8), the flat index of its cell in a table over L, a and b cut to
    their top `bits` bits (int32; through OpenCV, several times faster than NumPy here)."""
    top = (lab >> (8 - bits)).astype(np.float32)
    return cv2.transform(top, np.float32([[1 << 2 * bits, 1 << bits, 1]])).astype(np.int32)


def shares(band: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Share of light, dark and board pixels across the last axis of `band`."""
    return (band == LIGHT).mean(-1), (band == DARK).mean(-1), (band == BOARD).mean(-1)


def run_profile(cls: np.ndarray, row: Row, d: float, scale: float, length: float):
    """Per step along the row (1 px of `cls`): share of light, dark and board pixels on the
    axis."""
    return shares(cls[axis_band(row, d, scale, length, cls.shape)])


def first_layer(light: np.ndarray, dark: np.ndarray, board: np.ndarray,
                step: float) -> tuple[int, bool, float]:
    """Checkers in the first layer (from the run length), whether light, and the margin.

    A row holds one colour: the run is of the colour that starts it. It ends at a short gap
    of bare board; a longer gap of something else (a die or a finger over a checker) is
    bridged when the run goes on after it, with a lower margin."""
    start = max(1, round(0.6 * step))
    is_light = light[:start].sum() >= dark[:start].sum()
    occupied = ((light if is_light else dark) > 0.6).tolist()  # Python bools: a faster loop
    bare = (board > 0.5).tolist()
    gap_max, cover_max = max(1, round(0.25 * step)), round(0.75 * step)
    end = gap = bare_gap = bridged = 0
    for i, occ in enumerate(occupied):
        if occ:
            bridged = max(bridged, gap) if end else 0
            end, gap, bare_gap = i + 1, 0, 0
        else:
            gap += 1
            bare_gap += bare[i]
            if bare_gap > gap_max or gap > cover_max:
                break
    exact = end / step
    count = min(5, int(round(exact)))
    margin = 1.0 - 2 * abs(exact - round(exact)) if exact < 5.5 else 1.0
    return count, bool(is_light), float(min(margin, 0.5) if bridged > gap_max else margin)


def edge_profile(image: np.ndarray, view: FieldView, row: Row) -> np.ndarray:
    """Colour change along the row's axis, per pixel from the base (mean over a narrow band of
    the full-size field, warped from the frame `image` for this row alone)."""
    d = view.d
    x0 = max(0, round(row.base[0] - 0.2 * d))
    x1 = min(round(row.base[0] + 0.2 * d) + 1, view.size[0])
    y = round(row.base[1])
    n = round(5.6 * d)
    top = y if row.direction > 0 else max(0, y - n)
    bottom = min(y + n, view.size[1]) if row.direction > 0 else y
    band = view.warp_box(image, x0, top, x1 - x0, bottom - top).astype(np.float32)
    if row.direction < 0:
        band = band[::-1]
    diff = np.abs(band[2:] - band[:-2]).sum(-1).mean(1)
    return np.r_[0.0, diff, 0.0]


def _peak(profile: np.ndarray, t: float, half: float) -> float:
    lo, hi = max(0, round(t - half)), min(len(profile), round(t + half) + 1)
    return float(profile[lo:hi].max()) if hi > lo else 0.0


def _top(spots, s: float):
    """The topmost disc covering axis position s (in diameters), or None."""
    cover = [(layer, t) for layer, t in spots if abs(s - t) < 0.5]
    return max(cover) if cover else None


def rim_pattern(n: int) -> np.ndarray:
    """For n checkers: at each half-diameter step 0.5 .. 4.5 from the base, is a rim visible?"""
    spots = pyramid(n)
    return np.array([_top(spots, g - 0.2) != _top(spots, g + 0.2) for g in GRID])


def upper_layers(profile: np.ndarray, d: float) -> tuple[int, float]:
    """Checkers above a full first layer: the count whose pattern of visible rims (a checker
    in a gap hides the rims meeting there and shows its own) best correlates with the edges
    seen (a correlation, so that a pattern with one rim more or less is no easier to fit)."""
    strength = np.log([_peak(profile, g * d, 0.08 * d) + 5.0 for g in GRID])
    strength -= strength.mean()
    scores = CENTRED @ strength / max(float(np.linalg.norm(strength)), 1e-6)
    order = np.argsort(scores)[::-1]
    margin = (scores[order[0]] - scores[order[1]]) / 0.25
    return int(order[0]), float(min(1.0, margin))


def even_lab(half: np.ndarray, view: FieldView, colours: dict) -> np.ndarray:
    """The half-size field (`view.warp_half`) in Lab, with the light evened out."""
    lab = cv2.cvtColor(half, cv2.COLOR_BGR2LAB)
    return lighting.normalise(lab, lighting.gain_map(lab, view, 0.5, colours))


def classify_small(even: np.ndarray, classify: Classifier) -> np.ndarray:
    """Pixel classes of the half-size evened field."""
    return cv2.medianBlur(classify(even), 3)


def read_rows(image: np.ndarray, view: FieldView, cls: np.ndarray) -> list[RowReading]:
    """Every row's reading from the pixel classes `cls` (half size); a row of five is looked at
    again in the full-size field, warped from the frame `image`, for checkers stacked on it."""
    ys, xs = view.axes
    light, dark, board = shares(cls[ys, xs])
    d = view.d
    out = []
    for k, row in enumerate(view.rows):
        count, is_light, margin = first_layer(light[k], dark[k], board[k], d * 0.5)
        if count == 5:
            extra, upper_margin = upper_layers(edge_profile(image, view, row), d)
            count += extra
            margin = min(margin, upper_margin)
        out.append(RowReading(row.name, count, is_light, margin))
    return out


PATTERNS = {n: rim_pattern(n) for n in range(5, 16)}
CENTRED = np.array([PATTERNS[n] - PATTERNS[n].mean() for n in range(5, 16)])
CENTRED /= np.linalg.norm(CENTRED, axis=1, keepdims=True)
