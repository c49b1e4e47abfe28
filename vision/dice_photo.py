"""Dice in any photo: found as small compact things unlike their surroundings.

The surroundings are the image blurred far beyond a die's size; dice are blobs that differ
from it (or closed outlines of die size); touching dice are split at the waist between them.
Each is read like a die on the field (`vision.dice.read_field_die`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .dice import LAB_WEIGHTS, _fill_holes, _lab, read_field_die


def foreground(image: np.ndarray, die_px: float) -> np.ndarray:
    """Mask of pixels that differ from their wide surroundings (a blur several dice wide)."""
    lab = _lab(cv2.GaussianBlur(image, (3, 3), 0))
    k = max(3, int(die_px * 3) | 1)
    small = cv2.resize(image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    bg_small = cv2.medianBlur(small, max(3, (k // 4) | 1))
    bg = _lab(cv2.resize(bg_small, (image.shape[1], image.shape[0]),
                         interpolation=cv2.INTER_LINEAR))
    dist = np.linalg.norm((lab - bg) * LAB_WEIGHTS, axis=2)
    mad = float(np.median(dist))
    mask = (dist > max(18.0, 4 * mad)).astype(np.uint8)
    grey = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2GRAY)
    outline = cv2.dilate(cv2.Canny(grey, 30, 90), np.ones((3, 3), np.uint8))
    mask |= _fill_holes((outline > 0).astype(np.uint8), (2.5 * die_px) ** 2)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (max(3, round(die_px * 0.25)) | 1,) * 2))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (max(3, round(die_px * 0.2)) | 1,) * 2))
    return _fill_holes(mask, (2.5 * die_px) ** 2)


def _components(mask: np.ndarray, die_px: float):
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = die_px * die_px
    for i in range(1, n):
        x, y, w, h, a = stats[i]
        if a < 0.35 * area or a > 5 * area or max(w, h) > 4 * die_px:
            continue
        comp = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        if a > 1.7 * area:
            yield from _split(comp, x, y, die_px)
        else:
            yield comp, x, y


def _split(comp: np.ndarray, x0: int, y0: int, die_px: float):
    """Touching dice: one part per peak of the distance to the blob's edge."""
    dist = cv2.distanceTransform(comp, cv2.DIST_L2, 5)
    peaks = (dist >= 0.3 * die_px) & (dist == cv2.dilate(dist, np.ones((5, 5), np.uint8)))
    n, markers = cv2.connectedComponents(peaks.astype(np.uint8))
    if n <= 2:
        yield comp, x0, y0
        return
    markers = np.where(comp == 0, n, markers).astype(np.int32)  # the outside is a basin too
    ws = cv2.watershed(cv2.cvtColor(comp * 255, cv2.COLOR_GRAY2BGR), markers)
    for i in range(1, n):
        part = ((ws == i) & (comp > 0)).astype(np.uint8)
        ys, xs = np.nonzero(part)
        if len(xs):
            yield part[ys.min():ys.max() + 1, xs.min():xs.max() + 1], x0 + xs.min(), y0 + ys.min()


def die_size(mask: np.ndarray) -> float:
    """Typical die side in pixels: the median size of compact blobs."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    sides = [np.sqrt(a) for x, y, w, h, a in stats[1:] if a >= 64 and max(w, h) < 2 * min(w, h)]
    return float(np.median(sides)) if sides else 0.0


def read_blob(image: np.ndarray, comp: np.ndarray, x: int, y: int, size: int = 48):
    """Value and confidence of the die in blob `comp` at (x, y): a square patch 2.2 dice wide
    around the blob's centre, read like a die on the field."""
    h, w = comp.shape
    ys, xs = np.nonzero(comp)
    cx, cy = x + xs.mean(), y + ys.mean()
    r = 1.1 * np.sqrt(comp.sum())
    k = 2 * r / size
    a = np.float32([[k, 0, cx - r], [0, k, cy - r]])
    patch = cv2.warpAffine(image, a, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)
    value, _, conf = read_field_die(patch)
    return value, conf


def find_dice(image: np.ndarray, die_px: float | None = None) -> list[dict]:
    """Every die in a photo: value, box_px [x, y, w, h] and a confidence."""
    if not die_px:
        die_px = die_size(foreground(image, max(image.shape[:2]) / 16)) or 24.0
    mask = foreground(image, die_px)
    found = []
    for comp, x, y in _components(mask, die_px):
        value, conf = read_blob(image, comp, x, y)
        if value:
            h, w = comp.shape
            found.append({"value": value, "box_px": [int(x), int(y), int(w), int(h)],
                          "confidence": round(conf, 3)})
    return found
