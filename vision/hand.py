"""Hands and arms over the field: whatever reaches the field must cross the frame around it.

The band of frame just outside the field is one colour along each side (wood, painted edge);
an arm crossing it shows as a long run of samples far from that side's usual colour.
"""

from __future__ import annotations

import cv2
import numpy as np

RUN = 0.05  # share of a side an arm covers at least


def side_profiles(rect: np.ndarray, m: int) -> list[np.ndarray]:
    """Mean Lab colour across the margin band, sample by sample along each of the four sides."""
    lab = cv2.cvtColor(rect, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    band = slice(max(m // 4, 1), max(3 * m // 4, 2))
    top = lab[band, m:w - m].mean(0)
    bottom = lab[h - band.stop:h - band.start, m:w - m].mean(0)
    left = lab[m:h - m, band].mean(1)
    right = lab[m:h - m, w - band.stop:w - band.start].mean(1)
    return [top, bottom, left, right]


def longest_run(flags: np.ndarray) -> int:
    best = run = 0
    for f in flags:
        run = run + 1 if f else 0
        best = max(best, run)
    return best


def hand_present(rect: np.ndarray, m: int) -> bool:
    """True when something crosses the frame band around the field."""
    for prof in side_profiles(rect, m):
        med = np.median(prof, axis=0)
        dist = np.linalg.norm(prof - med, axis=1)
        mad = float(np.median(dist))
        if longest_run(dist > max(14.0, 4 * mad)) > RUN * len(prof):
            return True
    return False
