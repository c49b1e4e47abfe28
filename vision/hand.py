"""Hands and arms over the field: whatever reaches the field must cross the frame around it.

The band of frame just outside the field is one colour along each side (wood, painted edge);
an arm crossing it shows as a long run of samples far from that side's usual colour.
"""

from __future__ import annotations

import numpy as np

RUN = 0.05  # share of a side an arm covers at least
GAP = 0.03  # gaps between fingers, as a share of the side
LAB_WEIGHTS = np.float32([0.5, 1.0, 1.0])  # light left uneven counts less than colour


def side_profiles(lab: np.ndarray, m: float) -> list[np.ndarray]:
    """Mean Lab colour across the margin band, sample by sample along each of the four sides."""
    lab = lab.astype(np.float32)
    m = round(m)
    h, w = lab.shape[:2]
    band = slice(max(m // 4, 1), max(3 * m // 4, 2))
    top = lab[band, band.start:w - band.start].mean(0)
    bottom = lab[h - band.stop:h - band.start, band.start:w - band.start].mean(0)
    left = lab[band.start:h - band.start, band].mean(1)
    right = lab[band.start:h - band.start, w - band.stop:w - band.start].mean(1)
    return [top, bottom, left, right]


def smooth_trend(prof: np.ndarray) -> np.ndarray:
    """The running median over half the side (per channel, on every 4th sample): the slow
    change of light along the side, which an arm, narrower than that, does not move."""
    coarse = prof[::4]
    half = max(1, len(coarse) // 4)
    padded = np.pad(coarse, ((half, half), (0, 0)), mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * half + 1, axis=0)
    trend = np.median(windows, axis=-1)[: len(coarse)]
    at = np.arange(len(prof)) / 4
    return np.stack([np.interp(at, np.arange(len(coarse)), trend[:, c]) for c in range(3)], 1)


def longest_run(flags: np.ndarray) -> int:
    """Length of the longest run of True."""
    edges = np.diff(np.r_[0, flags.astype(np.int8), 0])
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return int((ends - starts).max()) if len(starts) else 0


def _crossed(dist: np.ndarray, mad: float) -> bool:
    flags = dist > max(12.0, 4 * mad)
    gap = max(1, round(GAP * len(dist)))
    closed = np.convolve(flags, np.ones(gap), mode="same") > 0  # fingers: one run
    return longest_run(closed) > RUN * len(dist) + gap and flags.sum() > RUN * len(dist)


def hand_present(lab: np.ndarray, m: float) -> bool:
    """True when something crosses the frame band (margin m px) around the field in `lab`
    (the rectified field in Lab with the light evened out): a run of samples unlike the
    side's slow trend, or unlike the whole side in colour (not only in lightness)."""
    for prof in side_profiles(lab, m):
        dist = np.linalg.norm((prof - smooth_trend(prof)) * LAB_WEIGHTS, axis=1)
        if _crossed(dist, float(np.median(dist))):
            return True
        chroma = np.linalg.norm(prof[:, 1:] - np.median(prof[:, 1:], axis=0), axis=1)
        if _crossed(chroma, float(np.median(chroma))):
            return True
    return False


def big_stranger(cls: np.ndarray, other: int, share: float = 0.03) -> bool:
    """True when one blob of pixels unlike any learned colour covers `share` of the field."""
    import cv2

    mask = (cls == other).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return bool(n > 1 and stats[1:, 4].max() > share * cls.size)
