"""A clean top-down diagram of a position, as a BGR image (OpenCV) or as SVG text.

White's home (points 1..6) is at the bottom right, as in GNU Backgammon with White below; the
bear-off trays are on the right (Black's above, White's below). The diagram is built once as a
list of shapes, so the PNG and the SVG agree pixel for pixel in layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import numpy as np

from ..calibration.geometry import FieldGeometry

FRAME = (92, 60, 38)
FIELD = (214, 196, 160)
BAR = (120, 80, 50)
TRAY = (70, 46, 30)
POINT_COLOURS = ((170, 60, 50), (60, 80, 70))
CHECKER = {"white": (245, 242, 232), "black": (40, 36, 34)}
EDGE = {"white": (120, 110, 100), "black": (10, 10, 10)}
LABEL = (235, 225, 205)
STACK = 5


@dataclass(frozen=True)
class Shape:
    """One drawing primitive; colours are RGB."""

    kind: str  # "rect" (x0, y0, x1, y1) | "poly" (x, y, ...) | "circle" (cx, cy, r) | "text"
    coords: tuple[float, ...]
    fill: tuple[int, int, int]
    stroke: tuple[int, int, int] | None = None
    text: str = ""
    size: float = 0.0


@dataclass(frozen=True)
class DiagramGeometry:
    """Pixel layout of the diagram: field, bar, points and trays."""

    width: int
    height: int
    field: FieldGeometry = FieldGeometry()

    @property
    def margin(self) -> float:
        return round(0.045 * self.height)

    @property
    def field_box(self) -> tuple[float, float, float, float]:
        m = self.margin
        return m, m, self.width - 2 * m - self.tray_width, self.height - m

    @property
    def tray_width(self) -> float:
        return round(0.085 * self.width)

    def to_px(self, fx: float, fy: float) -> tuple[float, float]:
        """Pixel of field point (fx, fy): x = 0 (point 1) on the right, y = 0 at the bottom."""
        x0, y0, x1, y1 = self.field_box
        return x1 - fx * (x1 - x0), y1 - fy * (y1 - y0)

    @property
    def radius(self) -> float:
        x0, y0, x1, y1 = self.field_box
        column = self.field.column_width * (x1 - x0)
        return min(0.46 * column, (y1 - y0) / 2 / (2 * STACK + 0.6))

    def point_base(self, p: int) -> tuple[int, int]:
        """Pixel centre of the outer edge of White's point p, where its LED sits."""
        x, y = self.to_px(self.field.point_x(p), self.field.point_y(p)[0])
        return round(x), round(y)

    def bar_center(self, color_key: str) -> tuple[int, int]:
        """Centre of the bar half that holds `color_key`'s checkers (White above, Black below)."""
        fy = {"white": 0.75, "black": 0.25}[color_key]
        x, y = self.to_px(sum(self.field.bar_x) / 2, fy)
        return round(x), round(y)

    def tray_box(self, color_key: str) -> tuple[float, float, float, float]:
        _, y0, x1, y1 = self.field_box
        gap = self.margin / 2
        mid = (y0 + y1) / 2
        top, bottom = (mid + gap, y1) if color_key == "white" else (y0, mid - gap)
        return x1 + self.margin, top, x1 + self.margin + self.tray_width, bottom

    def tray_center(self, color_key: str) -> tuple[int, int]:
        """Centre of `color_key`'s bear-off tray (Black's above, White's below)."""
        x0, y0, x1, y1 = self.tray_box(color_key)
        return round((x0 + x1) / 2), round((y0 + y1) / 2)


def diagram_geometry(width: int = 960, height: int = 600) -> DiagramGeometry:
    """The layout used by `render_diagram` at this size."""
    if width < 200 or height < 150:
        raise ValueError(f"diagram size {width}x{height} is too small (at least 200x150)")
    return DiagramGeometry(width, height)


def diagram_shapes(points, bar, off, geo: DiagramGeometry) -> list[Shape]:
    """Every shape of the diagram, back to front."""
    if len(points) != 24:
        raise ValueError(f"a board has 24 points, not {len(points)}")
    shapes = [Shape("rect", (0, 0, geo.width, geo.height), FRAME)]
    shapes.append(Shape("rect", geo.field_box, FIELD))
    bx0, by0 = geo.to_px(geo.field.bar_x[0], 0.0)
    bx1, by1 = geo.to_px(geo.field.bar_x[1], 1.0)
    shapes.append(Shape("rect", (bx1, by1, bx0, by0), BAR))
    for p in range(1, 25):
        shapes += _point(geo, p, points[p - 1])
    for key in ("white", "black"):
        shapes += _bar_checkers(geo, key, bar.get(key, 0))
        shapes += _tray(geo, key, off.get(key, 0))
    return shapes


def _point(geo: DiagramGeometry, p: int, n: int) -> list[Shape]:
    corners = [geo.to_px(*corner) for corner in geo.field.triangle(p)]
    shapes = [Shape("poly", tuple(v for xy in corners for v in xy), POINT_COLOURS[p % 2])]
    bx, by = geo.point_base(p)
    step = 2 * geo.radius * (-1 if p <= 12 else 1)
    key = "white" if n > 0 else "black"
    centres = [(bx, by + step * (i + 0.5)) for i in range(min(abs(n), STACK))]
    shapes += _checkers(geo, key, centres, abs(n))
    label_y = by + (geo.margin / 2 if p <= 12 else -geo.margin / 2)
    shapes.append(Shape("text", (bx, label_y), LABEL, text=str(p), size=0.45 * geo.margin))
    return shapes


def _checkers(geo, key: str, centres, total: int) -> list[Shape]:
    r = geo.radius
    shapes = [Shape("circle", (x, y, r * 0.94), CHECKER[key], EDGE[key]) for x, y in centres]
    if centres and total > len(centres):
        x, y = centres[-1]
        shapes.append(Shape("text", (x, y), CHECKER[_other(key)], text=str(total), size=0.9 * r))
    return shapes


def _bar_checkers(geo: DiagramGeometry, key: str, n: int) -> list[Shape]:
    cx, cy = geo.bar_center(key)
    r = geo.radius
    shown = min(n, 4)
    centres = [(cx, cy + 2 * r * (i - (shown - 1) / 2)) for i in range(shown)]
    return _checkers(geo, key, centres, n)


def _tray(geo: DiagramGeometry, key: str, n: int) -> list[Shape]:
    x0, y0, x1, y1 = geo.tray_box(key)
    shapes = [Shape("rect", (x0, y0, x1, y1), TRAY)]
    slab = (y1 - y0 - 8) / 15
    for i in range(n):
        top = y1 - 4 - (i + 1) * slab if key == "white" else y0 + 4 + i * slab
        shapes.append(Shape("rect", (x0 + 4, top + 1, x1 - 4, top + slab - 1), CHECKER[key],
                            EDGE[key]))
    return shapes


def _other(key: str) -> str:
    return "black" if key == "white" else "white"


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return rgb[2], rgb[1], rgb[0]


def _draw(img: np.ndarray, s: Shape) -> None:
    import cv2

    aa = cv2.LINE_AA
    if s.kind == "rect":
        x0, y0, x1, y1 = (round(v) for v in s.coords)
        cv2.rectangle(img, (x0, y0), (x1, y1), _bgr(s.fill), -1)
        if s.stroke:
            cv2.rectangle(img, (x0, y0), (x1, y1), _bgr(s.stroke), 1)
    elif s.kind == "poly":
        pts = np.array(s.coords, np.float64).reshape(-1, 2)
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], _bgr(s.fill), aa, 4)
    elif s.kind == "circle":
        x, y, r = s.coords
        centre = (round(x * 16), round(y * 16))
        cv2.circle(img, centre, round(r * 16), _bgr(s.fill), -1, aa, 4)
        cv2.circle(img, centre, round(r * 16), _bgr(s.stroke), 2, aa, 4)
    else:
        scale = s.size / 22.0
        (w, h), _ = cv2.getTextSize(s.text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        org = (round(s.coords[0] - w / 2), round(s.coords[1] + h / 2))
        cv2.putText(img, s.text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, _bgr(s.fill), 1, aa)


def render_diagram(points, bar, off, *, width: int = 960, height: int = 600) -> np.ndarray:
    """The diagram of a position as a BGR uint8 image of `height` x `width`."""
    geo = diagram_geometry(width, height)
    img = np.zeros((height, width, 3), np.uint8)
    for shape in diagram_shapes(points, bar, off, geo):
        _draw(img, shape)
    return img


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def _svg(s: Shape) -> str:
    fill = _hex(s.fill)
    stroke = f' stroke="{_hex(s.stroke)}"' if s.stroke else ""
    c = [round(v, 2) for v in s.coords]
    if s.kind == "rect":
        return (f'<rect x="{c[0]}" y="{c[1]}" width="{round(c[2] - c[0], 2)}" '
                f'height="{round(c[3] - c[1], 2)}" fill="{fill}"{stroke}/>')
    if s.kind == "poly":
        pts = " ".join(f"{x},{y}" for x, y in zip(c[::2], c[1::2], strict=True))
        return f'<polygon points="{pts}" fill="{fill}"/>'
    if s.kind == "circle":
        return f'<circle cx="{c[0]}" cy="{c[1]}" r="{c[2]}" fill="{fill}"{stroke}/>'
    return (f'<text x="{c[0]}" y="{c[1]}" font-size="{round(s.size, 1)}" fill="{fill}" '
            f'text-anchor="middle" dominant-baseline="central" '
            f'font-family="sans-serif">{escape(s.text)}</text>')


def diagram_svg(points, bar, off, *, width: int = 960, height: int = 600) -> str:
    """The same diagram as an SVG document."""
    geo = diagram_geometry(width, height)
    body = "\n".join(_svg(s) for s in diagram_shapes(points, bar, off, geo))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n{body}\n</svg>\n')
