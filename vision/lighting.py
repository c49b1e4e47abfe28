"""Uneven light: how much brighter or darker each part of the field is than at calibration.

Places that are nearly always bare show the gain: the frame band around the field and the
middle line of the field. A smooth quadratic surface fitted to L(observed) / L(learned) there,
robustly, divides out gradients and broad shadows before pixels are classed.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..calibration.rectify import FieldView

OFFSET = 41.0  # L (8-bit) + OFFSET scales with the light: L* + 16 goes as the cube root of Y


def _samples(view: FieldView, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixel positions (x, y) in the scaled image: frame band, then the field's middle line."""
    m, w, h = view.m * scale, view.w * scale, view.h * scale
    along_x = np.arange(m, m + w, 3.0)
    along_y = np.arange(m, m + h, 3.0)
    band = m / 2
    frame = np.r_[np.c_[along_x, np.full_like(along_x, band)],
                  np.c_[along_x, np.full_like(along_x, 2 * m + h - band)],
                  np.c_[np.full_like(along_y, band), along_y],
                  np.c_[np.full_like(along_y, 2 * m + w - band), along_y]]
    bx0, bx1 = (m + v * w for v in view.geo.bar_x)
    mid_x = along_x[(along_x < bx0 - 2) | (along_x > bx1 + 2)]
    middle = np.c_[mid_x, np.full_like(mid_x, m + h / 2)]
    return frame, middle


def gain_map(lab: np.ndarray, view: FieldView, scale: float, colours: dict) -> np.ndarray:
    """Per pixel of `lab` (the rectified field at `scale`), the light gain against calibration."""
    frame, middle = _samples(view, scale)
    pts = np.r_[frame, middle]
    ref = np.r_[np.full(len(frame), colours["frame"][0]), np.full(len(middle), colours["field"][0])]
    xi = np.clip(np.rint(pts[:, 0]).astype(int), 0, lab.shape[1] - 1)
    yi = np.clip(np.rint(pts[:, 1]).astype(int), 0, lab.shape[0] - 1)
    ratio = np.log((lab[yi, xi, 0].astype(np.float32) + OFFSET) / (ref + OFFSET))
    hh, ww = lab.shape[:2]
    u, v = pts[:, 0] / ww - 0.5, pts[:, 1] / hh - 0.5
    design = np.c_[np.ones_like(u), u, v, u * u, u * v, v * v]
    keep = np.ones(len(u), bool)
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(design[keep], ratio[keep], rcond=None)
        resid = np.abs(ratio - design @ coef)
        keep = resid <= max(3 * float(np.median(resid[keep])), 0.04)
    v, u = np.mgrid[0:1:16j, 0:1:16j] - 0.5
    fit = coef[0] + coef[1] * u + coef[2] * v + coef[3] * u * u + coef[4] * u * v + coef[5] * v * v
    coarse = np.exp(np.clip(fit, -1.2, 1.2)).astype(np.float32)
    return cv2.resize(coarse, (ww, hh), interpolation=cv2.INTER_LINEAR)


def normalise(lab: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """`lab` with its lightness divided by the gain (colour channels and clipped whites kept)."""
    out = lab.copy()
    raw = lab[..., 0]
    even = np.clip((raw.astype(np.float32) + OFFSET) / gain - OFFSET, 0, 255).astype(np.uint8)
    out[..., 0] = np.where(raw >= 250, raw, even)
    return out
