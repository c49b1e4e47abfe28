"""Hands and arms over the field: whatever reaches the field must cross the frame around it.

The band of frame just outside the field is one colour along each side (wood, painted edge);
an arm crossing it shows as a long run of samples far from that side's usual colour.
"""

from __future__ import annotations

import numpy as np

RUN = 0.05  # share of a side an arm covers at least
LAB_WEIGHTS = np.float32([0.5, 1.0, 1.0])  # light left uneven counts less than colour


def side_profiles(lab: np.ndarray, m: float) -> list[np.ndarray]:
    """Mean Lab colour across the margin band, sample by sample along each of the four sides."""
    lab = lab.astype(np.float32)
    m = round(m)
    h, w = lab.shape[:2]
    band = slice(max(m // 4, 1), max(3 * m // 4, 2))
    top = lab[band, m:w - m].mean(0)
    bottom = lab[h - band.stop:h - band.start, m:w - m].mean(0)
    left = lab[m:h - m, band].mean(1)
    right = lab[m:h - m, w - band.stop:w - band.start].mean(1)
    return [top, bottom, left, right]


def longest_run(flags: np.ndarray) -> int:
    """Length of the longest run of True."""
    edges = np.diff(np.r_[0, flags.astype(np.int8), 0])
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return int((ends - starts).max()) if len(starts) else 0


def hand_present(lab: np.ndarray, m: float) -> bool:
    """True when something crosses the frame band (margin m px) around the field in `lab`
    (the rectified field in Lab with the light evened out)."""
    for prof in side_profiles(lab, m):
        med = np.median(prof, axis=0)
        dist = np.linalg.norm((prof - med) * LAB_WEIGHTS, axis=1)
        mad = float(np.median(dist))
        if longest_run(dist > max(12.0, 4 * mad)) > RUN * len(prof):
            return True
    return False
