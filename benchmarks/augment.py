"""Colour changes and degradations shared by the training scripts that need no PyTorch to be
imported (so their sample makers can be tested where PyTorch is not installed)."""

from __future__ import annotations

import cv2
import numpy as np


def recolour(image: np.ndarray, rng) -> np.ndarray:
    """Colours shuffled and scaled, so dice of colours never seen look familiar."""
    gain = rng.uniform(0.75, 1.2) * rng.uniform(0.9, 1.1, 3)
    return np.clip(image[..., rng.permutation(3)] * gain, 0, 255).astype(np.uint8)


def lamp(image: np.ndarray, near: float, far: float, angle: float = 0.0) -> np.ndarray:
    """The picture under a lamp switched on: brighter by `near` times on one side, rising
    evenly to `far` times on the other, the way `angle` (radians; 0: left to right) points;
    what goes past white washes out, as a camera's pixels do."""
    h, w = image.shape[:2]
    along = np.arange(w)[None, :] * np.cos(angle) + np.arange(h)[:, None] * np.sin(angle)
    along -= along.min()
    gain = near + (far - near) * along / max(float(along.max()), 1e-6)
    return np.clip(image * gain[..., None].astype(np.float32), 0, 255).astype(np.uint8)


def lit(image: np.ndarray, rng) -> np.ndarray:
    """The picture under a lamp drawn at random: 1-1.3 times brighter on one side, 1.2-1.6 on
    the other, from any side (benchmarks/faults.py's lamp is 1.2-1.5, left to right)."""
    return lamp(image, rng.uniform(1.0, 1.3), rng.uniform(1.2, 1.6), rng.uniform(0, 2 * np.pi))


def as_in_frame(image: np.ndarray, x: float, y: float, side: float, rng, size: int,
                span: float) -> np.ndarray:
    """A `size`-pixel patch, `span` sides of `side` pixels across, around (x, y) of a photo of
    dice taken from above, made to look as a die does in a board frame once the field is
    rectified: turned any way, fewer pixels (the camera gives a die 14-32), fewer still across
    the way the camera looks at a slant (up to 35 degrees), softer and JPEG-compressed. Where
    the patch is placed and how large, as a finder might, is the caller's."""
    angle = rng.uniform(0, 2 * np.pi)
    k = span * side / size
    c, s = np.cos(angle) * k, np.sin(angle) * k
    to_photo = np.array([[c, -s, x - (c - s) * size / 2], [s, c, y - (s + c) * size / 2]])
    patch = cv2.warpAffine(image, to_photo, (size, size),
                           flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REFLECT)
    pixels = min(1.0, rng.uniform(14, 32) * span / size)  # camera pixels per patch pixel
    across = pixels * np.cos(np.radians(rng.uniform(0, 35)))
    small = cv2.resize(patch, (max(2, round(size * pixels)), max(2, round(size * across))),
                       interpolation=cv2.INTER_AREA)
    patch = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    patch = cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.2, 0.6))
    _, jpeg = cv2.imencode(".jpg", patch, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 96))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
