"""Where points, bar and checkers lie in field coordinates (0..1 along both sides).

Field coordinates as DESIGN.md: x from 0 at the p1/p24 end to 1 at the p12/p13 end, y from 0
on White's edge (points 1..12) to 1 on Black's edge (points 13..24).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BAR_WIDTH = 0.07
POINT_DEPTH = 0.42


@dataclass(frozen=True, slots=True)
class FieldGeometry:
    """The layout of the field: the bar's share of the width and the triangles' share of height."""

    bar_width: float = BAR_WIDTH
    point_depth: float = POINT_DEPTH

    def __post_init__(self) -> None:
        if not 0.0 <= self.bar_width < 0.5:
            raise ValueError(f"bar_width {self.bar_width} is not in [0, 0.5)")
        if not 0.1 <= self.point_depth <= 0.5:
            raise ValueError(f"point_depth {self.point_depth} is not in [0.1, 0.5]")

    @property
    def column_width(self) -> float:
        """Width of one point column (the 12 columns share the width left by the bar)."""
        return (1.0 - self.bar_width) / 12.0

    def column(self, point: int) -> int:
        """Column 0..11 of White's point 1..24, counted from x = 0."""
        if not 1 <= point <= 24:
            raise ValueError(f"point {point} is not in 1..24")
        return point - 1 if point <= 12 else 24 - point

    def point_x(self, point: int) -> float:
        """Field x of the centre line of White's point `point`."""
        col = self.column(point)
        return (col + 0.5) * self.column_width + (self.bar_width if col >= 6 else 0.0)

    def point_y(self, point: int) -> tuple[float, float]:
        """Field y of the base (outer edge) and of the tip of White's point `point`."""
        if point <= 12:
            return 0.0, self.point_depth
        return 1.0, 1.0 - self.point_depth

    def triangle(self, point: int, origin=(0.0, 0.0), size=(1.0, 1.0)) -> tuple:
        """Corners (left base, right base, tip) of White's point `point`, in field coordinates
        or, with the field's `origin` and `size` in pixels, in pixels."""
        (ox, oy), (w, h) = origin, size
        x = ox + self.point_x(point) * w
        half = self.column_width / 2 * w
        base, tip = (oy + v * h for v in self.point_y(point))
        return (x - half, base), (x + half, base), (x, tip)

    @property
    def bar_x(self) -> tuple[float, float]:
        """Field x range of the bar."""
        left = 6 * self.column_width
        return left, left + self.bar_width

def white_right_high(corners_px: dict | tuple) -> bool:
    """Whether White's right hand (seen from White's edge) is toward field x = 1 (p12/p13).

    p1 -> p12 runs along White's edge (field x) and p1 -> p24 goes away from White; White's
    right is that away-direction turned a quarter clockwise, seen from above."""
    if isinstance(corners_px, dict):
        corners_px = [corners_px[k] for k in ("p1", "p12", "p13", "p24")]
    p1, p12, _, p24 = (np.asarray(c, float) for c in corners_px)
    along, away = p12 - p1, p24 - p1
    right = np.array([-away[1], away[0]])
    return float(right @ along) > 0
