"""The playing field found in any photo by a small learned net (run with OpenCV's DNN).

The net sees the photo shrunk to `SIZE` pixels on its longer side and marks, on a grid of
8x8-pixel cells, the four corners of the playing field and the two ends of the bar (where the
bar meets White's and Black's edges), each placed within its cell by an offset. Of the
corners it marks (a box's or a bear-off tray's too), the surest four that make a field with
the bar's ends at its middle are taken, in order around the field; the bar ends say which
two edges the points stand on, so only four namings of the corners remain (which end is
White's 1-point, and whether White sits on this side or the other), for the position or the
user to decide. Trained by benchmarks/train_field_corners.py on renders of every look and
the real photos' folds.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import cv2
import numpy as np

from ..calibration.file import CORNERS, FIELD_CORNERS, field_homography, seen_aspect
from ..calibration.geometry import BAR_WIDTH
from . import models
from .models import net_input

MODEL = models.FOLDER / models.FIELD_CORNERS
REFINER = models.FOLDER / models.FIELD_CORNER_REFINE
SIZE = 256  # the net's input side, pixels
STRIDE = 8  # input pixels per output cell
FOUND = 0.3  # the least peak score of a corner
PATCH = 64  # the refiner's input side, pixels
REACH = 1.5  # the refiner sees this many point widths either side of a corner
POINT = (1 - BAR_WIDTH) / 12  # a point's width on a usual board, in field widths
REFINE_STEPS = 2  # times each corner is placed again, each through the corners placed before
CANDIDATES = 8  # corner peaks tried as the field's corners, the surest first
OFF_MIDDLE = 0.05  # how far a bar end may lie from its edge's middle, in shares of the field
NEAR_EDGE = 0.25  # how far a bar end may lie from its edge, in shares of the field


def net(model: Path = MODEL) -> cv2.dnn.Net:
    return models.load(model)


def square(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The image shrunk to SIZE on its longer side, its edges repeated to a SIZE square; and
    the scale from image to square pixels."""
    h, w = image.shape[:2]
    k = SIZE / max(h, w)
    small = cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
    return cv2.copyMakeBorder(small, 0, SIZE - small.shape[0], 0, SIZE - small.shape[1],
                              cv2.BORDER_REPLICATE), k


def peaks(heat: np.ndarray, dx: np.ndarray, dy: np.ndarray, n: int) -> np.ndarray:
    """The `n` highest local maxima of a score map as (x, y, score) in square pixels, each
    placed within its cell by the offsets."""
    top = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    r, c = np.nonzero(top)
    order = np.argsort(-heat[r, c])[:n]
    r, c = r[order], c[order]
    return np.c_[(c + dx[r, c]) * STRIDE, (r + dy[r, c]) * STRIDE, heat[r, c]]


@dataclass(frozen=True)
class Field:
    """A field found in a photo: its corners in order around it (image pixels), the indices
    of the two edges (corner i to corner i + 1) that the bar meets, and how sure the least
    sure corner is."""

    corners: np.ndarray  # (4, 2)
    bar_edges: tuple[int, int]
    score: float

    def namings(self) -> list[dict[str, tuple[float, float]]]:
        """The four ways to name the corners p1 p12 p13 p24 that put the points on the edges
        the bar meets: White's edge p1-p12 is one of those edges, run either way."""
        out = []
        for edge in self.bar_edges:
            for step in (1, -1):
                start = edge if step == 1 else (edge + 1) % 4
                order = [self.corners[(start + step * i) % 4] for i in range(4)]
                out.append(dict(zip(CORNERS, (tuple(map(float, p)) for p in order),
                                    strict=True)))
        return out


def ring(points: np.ndarray) -> np.ndarray:
    """Points in order around their centre."""
    centre = points.mean(0)
    return points[np.argsort(np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0]))]


def bar_edges(corners: np.ndarray, ends: np.ndarray) -> tuple[int, int]:
    """The two opposite edges of the ring the bar ends lie nearest (by their midpoints); the
    pair whose midpoints lie nearer the ends found, or (0, 2) when no end was found."""
    if not len(ends):
        return 0, 2
    mids = (corners + np.roll(corners, -1, 0)) / 2
    cost = [sum(np.linalg.norm(mids[[i, i + 2]] - e, axis=1).min() for e in ends)
            for i in (0, 1)]
    return (0, 2) if cost[0] <= cost[1] else (1, 3)


def off_middle(corners: np.ndarray, ends: np.ndarray) -> float:
    """How far the bar ends lie from the middles of two opposite edges of the field with
    these corners (in ring order), along them, in shares of the field: each end mapped into
    the field seen square, the pair of edges that fits best (0 with no end; infinite when an
    end lies nearer the field's middle than its edges: no bar end of this field)."""
    if not len(ends):
        return 0.0
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    to_square = cv2.getPerspectiveTransform(corners.astype(np.float32), square)
    uv = cv2.perspectiveTransform(ends.reshape(-1, 1, 2).astype(np.float64), to_square)[:, 0]
    fits = []
    for along, across in (uv.T, uv.T[::-1]):
        near_edge = np.minimum(abs(across), abs(1 - across)) <= NEAR_EDGE
        fits.append(abs(along - 0.5).max() if near_edge.all() else np.inf)
    return float(min(fits))


def choose(corners: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The four of the corner peaks (x, y, score; surest first) that make the field, in ring
    order, with their scores: the surest four that make a convex quadrilateral with the bar
    ends at the middles of two opposite edges (a peak at a box's outer corner or a bear-off
    tray's is left out), else the surest four."""
    fours = sorted(combinations(range(len(corners)), 4), key=lambda c: (max(c), c))
    for four in fours:
        ringed = ring(corners[list(four)])
        if (cv2.isContourConvex(ringed[:, :2].astype(np.float32))
                and off_middle(ringed[:, :2], ends) <= OFF_MIDDLE):
            return ringed
    return ring(corners[:4])


def find(image: np.ndarray, model: Path = MODEL, refiner: Path | None = REFINER
         ) -> Field | None:
    """The playing field in a BGR photo of a board, or None when the net finds no four
    corners; each corner then placed again by the refiner (`refine`) when it is installed
    (None: not placed again)."""
    sq, k = square(image)
    finder = net(model)
    finder.setInput(net_input(sq))
    corner_heat, bar_heat, dx, dy = finder.forward()[0]
    corners = peaks(corner_heat, dx, dy, CANDIDATES)
    corners = corners[corners[:, 2] >= FOUND] / [k, k, 1]
    if len(corners) < 4:
        return None
    ends = peaks(bar_heat, dx, dy, 2)
    ends = ends[ends[:, 2] >= FOUND, :2] / k
    chosen = choose(corners, ends)
    placed = chosen[:, :2]
    field = Field(placed, bar_edges(placed, ends), float(chosen[:, 2].min()))
    return refine(image, field, refiner) if refiner and models.wanted(refiner) else field


def second_look(image: np.ndarray, named: dict) -> float:
    """How far the corners `named` (p1 p12 p13 p24, image pixels) lie from those found again
    in the photo's mirror image (by `find`, mirrored back; each corner to the nearest found),
    at the farthest, in point widths of the field (infinite when none is found there). The
    nets see other pixels at each corner in the mirror, so a corner the photo shows is found
    in the same place again, and one they guess at (hidden by a wall or checkers) moves."""
    field = find(cv2.flip(image, 1))
    if field is None:
        return float("inf")
    back = field.corners * [-1, 1] + [image.shape[1] - 1, 0]
    p1, p12, p13, p24 = (np.asarray(named[k], float) for k in CORNERS)
    point = (np.linalg.norm(p12 - p1) + np.linalg.norm(p13 - p24)) / 2 * POINT
    return float(max(np.linalg.norm(back - c, axis=1).min() for c in (p1, p12, p13, p24)) / point)


def corner_view(named: dict, corner: str) -> np.ndarray:
    """For a field named by `named` (image pixels of p1 p12 p13 p24), the homography from a
    corner's refiner patch to image pixels. The patch is REACH point widths either side of
    the corner, the field below and to the right of it, White's edge across, for every
    corner alike (`to_patch_uv` and `from_patch_uv` say where in it a point lies)."""
    aspect = seen_aspect(named)
    cx, cy = FIELD_CORNERS[corner]
    sx, sy = (1 - 2 * cx) * POINT, (1 - 2 * cy) * POINT * aspect  # field units per point width
    k = 2 * REACH / PATCH
    patch_to_field = np.array([[sx * k, 0, cx - sx * REACH], [0, sy * k, cy - sy * REACH],
                               [0, 0, 1]])
    return field_homography(named) @ patch_to_field


def from_patch_uv(matrix: np.ndarray, uv) -> np.ndarray:
    """Image pixels of (u, v) in a corner's patch (`corner_view`'s `matrix`): point widths
    from the corner, into the field."""
    at = np.asarray(uv, float) * PATCH / (2 * REACH) + PATCH / 2
    return cv2.perspectiveTransform(at.reshape(1, 1, 2), matrix)[0, 0]


def to_patch_uv(matrix: np.ndarray, xy) -> np.ndarray:
    """(u, v) in a corner's patch of an image point (the inverse of `from_patch_uv`)."""
    at = cv2.perspectiveTransform(np.asarray(xy, float).reshape(1, 1, 2), np.linalg.inv(matrix))
    return (at[0, 0] - PATCH / 2) * 2 * REACH / PATCH


def corner_patch(image: np.ndarray, view: np.ndarray) -> np.ndarray:
    """The refiner's PATCH x PATCH view of one corner (`view`: its `corner_view`)."""
    return cv2.warpPerspective(image, view, (PATCH, PATCH),
                               flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def refine(image: np.ndarray, field: Field, model: Path = REFINER) -> Field:
    """The field with each corner placed again by the refiner: a small net that looks at the
    photo around each corner (REACH point widths either side, through the corners found) and
    says where in that view the field's corner is (u, v in point widths). Done REFINE_STEPS
    times; a corner the refiner puts outside its view keeps its place."""
    refiner = net(model)
    named = field.namings()[0]
    for _ in range(REFINE_STEPS):
        views = [corner_view(named, k) for k in CORNERS]
        refiner.setInput(net_input(np.stack([corner_patch(image, v) for v in views])))
        named = {k: tuple(from_patch_uv(view, uv))
                 if np.abs(uv).max() < REACH else named[k]
                 for k, view, uv in zip(CORNERS, views, refiner.forward(), strict=True)}
    start = field.bar_edges[0]  # the ring index of p1 in namings()[0], the others following
    corners = np.array([named[CORNERS[(i - start) % 4]] for i in range(4)], float)
    return Field(corners, field.bar_edges, field.score)
