"""Point columns cut straight from the camera frame, one small upright image per row of
checkers, for the learned checker reader.

Each of the 24 points and the two halves of the bar is looked at through its own homography:
a patch `WIDTH` x `HEIGHT` pixels covering the point's column (with some of its neighbours'
width, for checkers off the middle) from just outside the field's edge to the middle of the
field, the base always at the top. Cut from the frame itself, not from a rectified field, so
that a far point seen small keeps all the pixels the camera gave it.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..calibration.rectify import FieldView, Row

WIDTH, HEIGHT = 32, 112  # patch size in pixels
SIDE = 0.7  # half the patch width, in column widths
BEFORE = 0.03  # field height shown before the base (the field's edge)
LENGTH = 0.5  # field height shown from the base


def patch_matrix(view: FieldView, row: Row) -> np.ndarray:
    """Homography from patch pixels to frame pixels for `row`."""
    column = view.geo.column_width * view.w
    sx = 2 * SIDE * column / WIDTH
    sy = (BEFORE + LENGTH) * view.h / HEIGHT
    x0 = row.base[0] - SIDE * column
    y0 = row.base[1] - row.direction * BEFORE * view.h
    to_rect = np.array([[sx, 0, x0], [0, row.direction * sy, y0], [0, 0, 1]])
    return view.rect_to_image @ to_rect


class Columns:
    """Cuts the 26 row patches (points 1..24, bar_low, bar_high) of frames seen through one
    calibration."""

    def __init__(self, view: FieldView):
        self.view = view
        self.matrices = [patch_matrix(view, row) for row in view.rows]

    def cut(self, image: np.ndarray) -> np.ndarray:
        """The patches of a BGR frame: uint8 array (26, HEIGHT, WIDTH, 3)."""
        return np.stack([cv2.warpPerspective(image, m, (WIDTH, HEIGHT),
                                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
                         for m in self.matrices])
