"""The field seen from straight above: a warp of the camera frame through the calibration.

The rectified image has White's edge at the top and the p1/p24 end on the left, plus a margin
band of frame around the field. Rows of checkers start at a point's base and run inward.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .file import Calibration

WIDTH = 480  # rectified field width in pixels
MARGIN = 0.045  # band around the field, as a share of the width
RATIO = 0.91  # checker diameter / column width when the calibration has not learned it
AXIS = 0.22  # half width of the band along a row's axis that checkers are read on, in diameters
REACH = 0.49  # length of that band, as a share of the field's height


@dataclass(frozen=True)
class Row:
    """A row of checkers: its name, base point (rectified px) and direction (+1 down, -1 up)."""

    name: str  # "1".."24", "bar_low", "bar_high"
    base: tuple[float, float]
    direction: int


class FieldView:
    """Rectifies frames seen through one calibration."""

    def __init__(self, cal: Calibration, width: int = WIDTH):
        self.cal = cal
        self.geo = cal.geometry
        self.w = width
        self.h = round(width / cal.aspect())
        self.m = round(MARGIN * width)
        scale = np.array([[1 / self.w, 0, -self.m / self.w], [0, 1 / self.h, -self.m / self.h],
                          [0, 0, 1]])
        self.rect_to_image = cal.homography() @ scale
        self.size = (self.w + 2 * self.m, self.h + 2 * self.m)
        share = cal.extra.get("checker_diameter", RATIO * self.geo.column_width)
        self.d = float(share) * self.w
        self.rows = self._rows()
        self.half = (round(self.size[1] / 2), round(self.size[0] / 2))  # half-size field's shape
        self.axes = self._axes()
        self._half = self._half_warp()

    def _rows(self) -> list[Row]:
        m, w, h, geo = self.m, self.w, self.h, self.geo
        rows = [Row(str(p), (m + geo.point_x(p) * w, m if p <= 12 else m + h), 1 if p <= 12 else -1)
                for p in range(1, 25)]
        bar_x = m + sum(geo.bar_x) / 2 * w
        return rows + [Row("bar_low", (bar_x, m), 1), Row("bar_high", (bar_x, m + h), -1)]

    def _axes(self) -> tuple[np.ndarray, np.ndarray]:
        """`axis_band` of every row in the half-size field, stacked (as wide as the narrowest,
        which only a row at the image's edge could be): indices the same for every frame."""
        bands = [axis_band(row, self.d, 0.5, REACH * self.h, self.half) for row in self.rows]
        width = min(len(xs) for _, xs in bands)
        return np.stack([ys for ys, _ in bands]), np.stack([xs[:width] for _, xs in bands])[:, None]

    def _half_warp(self) -> tuple[tuple[slice, slice], np.ndarray]:
        """The frame's region under the field and the matrix from the half-size field into
        that region at half size (a half-size pixel u covers full-size pixels 2u and 2u + 1)."""
        to_full = np.array([[2.0, 0, 0.5], [0, 2.0, 0.5], [0, 0, 1]])
        hh, hw = self.half
        corners = np.array([[0, 0, 1], [hw, 0, 1], [0, hh, 1], [hw, hh, 1]], float)
        xy = corners @ (self.rect_to_image @ to_full).T
        xy = xy[:, :2] / xy[:, 2:]
        size = np.array(self.cal.image_size)
        x0, y0 = np.clip(np.floor(xy.min(0)).astype(int) - 4, 0, size - 2) // 2 * 2
        x1, y1 = np.clip(np.ceil(xy.max(0)).astype(int) + 4, (x0 + 2, y0 + 2), size)
        shrink = np.array([[0.5, 0, -x0 / 2], [0, 0.5, -y0 / 2], [0, 0, 1]])
        return (slice(y0, y1), slice(x0, x1)), shrink @ self.rect_to_image @ to_full

    def row(self, name: str) -> Row:
        return next(r for r in self.rows if r.name == name)

    def warp(self, image: np.ndarray) -> np.ndarray:
        """The rectified field (with its margin) of a camera frame."""
        return self.warp_box(image, 0, 0, *self.size)

    def warp_half(self, image: np.ndarray) -> np.ndarray:
        """The rectified field at half size (shape `half`): the frame's region under the field
        halved by a Gaussian pyramid step, then warped (a quarter of the pixels of `warp`)."""
        region, matrix = self._half
        small = cv2.pyrDown(image[region])
        return cv2.warpPerspective(small, matrix, self.half[::-1],
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)

    def warp_box(self, image: np.ndarray, x: int, y: int, w: int, h: int) -> np.ndarray:
        """The `w` x `h` box of the rectified field (full size) whose top left is (x, y)."""
        shift = np.array([[1.0, 0, x], [0, 1, y], [0, 0, 1]])
        return cv2.warpPerspective(image, self.rect_to_image @ shift, (w, h),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)

    def to_field(self, xy) -> tuple[float, float]:
        """Field coordinates of a rectified pixel."""
        return (xy[0] - self.m) / self.w, (xy[1] - self.m) / self.h

    def to_rect(self, field_xy) -> tuple[float, float]:
        return self.m + field_xy[0] * self.w, self.m + field_xy[1] * self.h


def axis_band(row: Row, d: float, scale: float, length: float, shape) -> tuple:
    """Indices (ys as a column, xs) of the band AXIS diameters to each side of the row's axis in
    the field at `scale` (an image of `shape`): one line per px from the base, `length` long."""
    x = round(row.base[0] * scale)
    half = max(1, round(AXIS * d * scale))
    steps = np.arange(int(length * scale)) + 0.5
    ys = np.clip(np.rint(row.base[1] * scale + row.direction * steps).astype(int), 0, shape[0] - 1)
    return ys[:, None], np.arange(max(0, x - half), min(x + half + 1, shape[1]))
