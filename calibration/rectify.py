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

    def _rows(self) -> list[Row]:
        m, w, h, geo = self.m, self.w, self.h, self.geo
        rows = [Row(str(p), (m + geo.point_x(p) * w, m if p <= 12 else m + h), 1 if p <= 12 else -1)
                for p in range(1, 25)]
        bar_x = m + sum(geo.bar_x) / 2 * w
        return rows + [Row("bar_low", (bar_x, m), 1), Row("bar_high", (bar_x, m + h), -1)]

    def row(self, name: str) -> Row:
        return next(r for r in self.rows if r.name == name)

    def warp(self, image: np.ndarray) -> np.ndarray:
        """The rectified field (with its margin) of a camera frame."""
        return cv2.warpPerspective(image, self.rect_to_image, self.size,
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)

    def to_field(self, xy) -> tuple[float, float]:
        """Field coordinates of a rectified pixel."""
        return (xy[0] - self.m) / self.w, (xy[1] - self.m) / self.h

    def to_rect(self, field_xy) -> tuple[float, float]:
        return self.m + field_xy[0] * self.w, self.m + field_xy[1] * self.h
