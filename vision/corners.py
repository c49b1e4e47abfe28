"""Finding the playing field in a frame of the start position.

`find_field` looks for the two halves of the field (two large quadrilaterals side by side, the
bar between them) and takes the outer corners; `field_namings` gives the ways to name them,
for the checkers read through each to decide (`controller.calibrating`, `controller.photo`).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import cv2
import numpy as np

from ..calibration.file import CORNERS

START = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)


def _quads(image: np.ndarray) -> list[np.ndarray]:
    """Convex quadrilaterals of 5..60% of the image found on colour edges."""
    k = 640 / max(image.shape[:2])
    small = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    lab = cv2.cvtColor(cv2.bilateralFilter(small, 9, 40, 9), cv2.COLOR_BGR2LAB)
    edges = np.zeros((h, w), np.uint8)
    for channel in cv2.split(lab):
        edges |= cv2.Canny(channel, 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(255 - edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for c in contours:
        area = cv2.contourArea(c)
        if not 0.05 * w * h <= area <= 0.6 * w * h:
            continue
        hull = cv2.convexHull(c)
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and area > 0.85 * cv2.contourArea(approx):
            quads.append(approx.reshape(4, 2).astype(np.float64) / k)
    return quads


def find_field(image: np.ndarray) -> np.ndarray | None:
    """The four field corners (unordered, 4 x 2) from its two halves, or None."""
    quads = _quads(image)
    best, best_score = None, 0.0
    for a, b in itertools.combinations(quads, 2):
        area_a = cv2.contourArea(a.astype(np.float32))
        area_b = cv2.contourArea(b.astype(np.float32))
        if min(area_a, area_b) < 0.7 * max(area_a, area_b):
            continue
        gap = np.linalg.norm(a.mean(0) - b.mean(0))
        if gap < 0.5 * np.sqrt(area_a) or gap > 2.0 * np.sqrt(area_a):
            continue
        hull = cv2.convexHull(np.vstack([a, b]).astype(np.float32))
        outer = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if len(outer) != 4:
            continue
        fill = (area_a + area_b) / cv2.contourArea(outer)
        if fill > best_score and fill > 0.75:
            best, best_score = outer.astype(np.float64), fill
    return best


def _ring(corners: np.ndarray) -> np.ndarray:
    """Corners in order around the quadrilateral."""
    centre = corners.mean(0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    return corners[np.argsort(angles)]


def labellings(corners: np.ndarray):
    """The eight ways to name four corners p1, p12, p13, p24 going round the field."""
    ring = _ring(np.asarray(corners, np.float64))
    for start in range(4):
        for step in (1, -1):
            order = [ring[(start + step * i) % 4] for i in range(4)]
            yield dict(zip(CORNERS, (tuple(map(float, p)) for p in order), strict=True))


def long_first(named: dict) -> bool:
    """Whether a naming puts White's points along a long side of the field (p1-p12 no
    shorter than p1-p24): the points run along the long sides."""
    c = {k: np.asarray(v) for k, v in named.items()}
    return np.linalg.norm(c["p12"] - c["p1"]) >= np.linalg.norm(c["p24"] - c["p1"])


def field_namings(image: np.ndarray, finder: Path | None = None
                  ) -> list[dict[str, tuple[float, float]]]:
    """The four namings of the field found in any photo (White's edge either side the points
    stand on, run either way): found by the field's two halves (exact where it works: clear
    fields; the points on its long sides), else by the learned finder (`vision.field_finder`,
    its net `finder` or the installed one; the points on the sides its bar ends meet);
    ValueError when neither finds a field (four corners that make a convex quadrilateral)."""
    from . import field_finder, models

    found = find_field(image)
    if found is not None:
        return [named for named in labellings(found) if long_first(named)]
    finder = finder or field_finder.MODEL
    field = field_finder.find(image, finder) if models.wanted(finder) else None
    if field is None or not cv2.isContourConvex(field.corners.astype(np.float32)):
        raise ValueError("no playing field found in the photo (give its corners with "
                         "--calibration)")
    return field.namings()
