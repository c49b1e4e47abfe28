"""Dice on a calibrated board's field, read by their pips.

`find_field_dice` looks on the rectified field for die-sized blobs unlike the board, away from
the checkers. A die is read in a square patch about two dice wide (`read_field_die`, also used
by `vision.dice_photo`): the face is the connected region of the die's colour, pips are the
round spots of another colour on it (not those of a side face), and a die whose outline is not
square is leaning (`cocked`).
"""

from __future__ import annotations

import cv2
import numpy as np

LAB_WEIGHTS = np.float32([0.5, 1.0, 1.0])
TOP_FACE = 0.48  # pips farther than this (x die side) from the die's middle are on a side
DIE_SIZE = 0.041  # die side / field height, unless the calibration says otherwise


def _lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)


def _fill_holes(mask: np.ndarray, largest: float = np.inf) -> np.ndarray:
    """`mask` with the inside of every outline filled, for outlines of at most `largest` px."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    small = [c for c in contours if cv2.contourArea(c) <= largest]
    cv2.drawContours(out, small, -1, 1, -1)
    return out


def blob_candidates(stranger: np.ndarray, view, covered, die_rect: float) -> list[tuple]:
    """Die-sized blobs of half-size pixels unlike the board, away from checkers and bar."""
    mask = cv2.morphologyEx(stranger.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    m = round(view.m / 2)
    mask[:m + 1], mask[-m - 1:], mask[:, :m + 1], mask[:, -m - 1:] = 0, 0, 0, 0
    for cx, cy in covered:
        cv2.circle(mask, (round(cx / 2), round(cy / 2)), round(view.d * 0.45), 0, -1)
    bx0, bx1 = (round((view.m + v * view.w) / 2) for v in view.geo.bar_x)
    mask[:, bx0:bx1 + 1] = 0
    n, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = (die_rect / 2) ** 2
    return [tuple(centroids[i] * 2) for i in range(1, n)
            if 0.35 * area <= stats[i, 4] <= 3.5 * area
            and max(stats[i, 2], stats[i, 3]) <= 2.5 * die_rect / 2
            and stats[i, 4] >= 0.4 * stats[i, 2] * stats[i, 3]]


def die_patch(image: np.ndarray, view, centre, die_rect: float, size: int = 48) -> np.ndarray:
    """A top-down patch of the frame around a die, 2.2 dice wide, `size` px square."""
    r = 1.1 * die_rect
    k = 2 * r / size
    a = np.array([[k, 0, centre[0] - r], [0, k, centre[1] - r], [0, 0, 1]])
    return cv2.warpPerspective(image, view.rect_to_image @ a, (size, size),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)


def read_field_die(patch: np.ndarray) -> tuple[int, bool, float]:
    """Value, cocked and confidence of the die in the middle of a top-down patch."""
    lab = _lab(patch)
    s = patch.shape[0]
    c = slice(round(0.32 * s), round(0.68 * s))  # mostly the die's face, pips a minority
    body = np.median(lab[c, c].reshape(-1, 3), axis=0)
    dist = np.linalg.norm((lab - body) * LAB_WEIGHTS, axis=2)
    ring = np.r_[lab[:3].reshape(-1, 3), lab[-3:].reshape(-1, 3), lab[:, :3].reshape(-1, 3),
                 lab[:, -3:].reshape(-1, 3)]
    around = np.linalg.norm((lab - np.median(ring, axis=0)) * LAB_WEIGHTS, axis=2)
    near = ((dist < 40) & (dist < around)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=4)
    if n < 2:
        return 0, False, 0.0
    centre = labels[c, c].ravel()
    centre = centre[centre > 0]
    mid = int(np.bincount(centre).argmax()) if len(centre) else int(np.argmax(stats[1:, 4])) + 1
    die = _fill_holes((labels == mid).astype(np.uint8))
    edge = die[0].any() or die[-1].any() or die[:, 0].any() or die[:, -1].any()
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (w, h), _ = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    expected = (s / 2.2) ** 2
    if edge or not 0.4 * expected <= die.sum() <= 2.0 * expected or die.sum() < 0.8 * w * h:
        return 0, False, 0.0  # not an isolated, square, die-sized thing
    cocked = max(w, h) > 1.12 * max(min(w, h), 1)
    face = cv2.erode(die, np.ones((3, 3), np.uint8))
    if not face.any():
        return 0, cocked, 0.0
    thr = max(22.0, 0.5 * float(np.percentile(dist[face > 0], 99)))
    pips = ((dist > thr) & (face > 0)).astype(np.uint8)
    n, _, stats, spots = cv2.connectedComponentsWithStats(pips, connectivity=8)
    side = np.sqrt(die.sum())
    ys, xs = np.nonzero(die)
    centre = np.array([xs.mean(), ys.mean()])
    areas = [a for a, xy in zip(stats[1:, 4], spots[1:], strict=True)
             if 0.004 * side * side <= a <= 0.08 * side * side
             and np.linalg.norm(xy - centre) <= TOP_FACE * side]  # not on a side face
    if not 1 <= len(areas) <= 6:
        # a leaning die must be rolled again whatever it shows: report it, unsure of its value
        return (min(max(len(areas), 1), 6), True, 0.2) if cocked else (0, False, 0.0)
    spread = float(np.std(areas) / max(np.mean(areas), 1))
    return len(areas), cocked, float(np.clip(1 - spread, 0.2, 1.0))


def find_field_dice(image: np.ndarray, view, stranger: np.ndarray, covered) -> list[dict]:
    """Dice on the field: value, field_xy, cocked and a confidence each."""
    die_rect = view.cal.extra.get("die_size", DIE_SIZE) * view.h
    found: list[dict] = []
    places: list[tuple] = []
    for c in blob_candidates(stranger, view, covered, die_rect):
        if all(np.hypot(c[0] - p[0], c[1] - p[1]) > die_rect for p in places):
            places.append(c)
    for centre in places:
        value, cocked, conf = read_field_die(die_patch(image, view, centre, die_rect))
        if value:
            fx, fy = view.to_field(centre)
            found.append({"value": value, "field_xy": [round(float(fx), 3), round(float(fy), 3)],
                          "cocked": cocked, "confidence": round(conf, 3)})
    return found
