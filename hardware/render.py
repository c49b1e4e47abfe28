"""Pictures of the LEDs: ANSI text for a terminal, and the board diagram with the LEDs on it.

Both follow the diagram of bgboard.vision.diagram: points 13..24 along the top, 12..1 along
the bottom (White's home at the bottom right), White's bar half above Black's, the trays and
to-play LEDs on the right (Black's above, White's below).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .layout import index
from .led_pattern import OFF, RGB

DOT = "\u25cf"
UNLIT = "\u00b7"
TOP = [*range(13, 19), "bar white", *range(19, 25), "tray black", "play black"]
BOTTOM = [*range(12, 6, -1), "bar black", *range(6, 0, -1), "tray white", "play white"]


def led_text(leds: Sequence[RGB], cube: str = "", colour: bool = True) -> str:
    """Four lines: labels, the top LEDs, the bottom LEDs, labels and the cube.

    Labels: point numbers, B = bar, T = tray, P = to play.
    """

    def dots(row: list) -> str:
        return " ".join(_dot(leds[index(place)], colour) for place in row)

    def labels(row: list) -> str:
        return " ".join(f"{place:>2}" if isinstance(place, int) else " " + place[0].upper()
                        for place in row)

    return "\n".join([
        labels(TOP),
        dots(TOP),
        dots(BOTTOM),
        labels(BOTTOM) + (f"  cube {cube}" if cube else ""),
    ])


def _dot(rgb: RGB, colour: bool) -> str:
    if tuple(rgb) == OFF:
        return " " + UNLIT
    if not colour:
        return " " + DOT
    r, g, b = rgb
    return f" \x1b[38;2;{r};{g};{b}m{DOT}\x1b[0m"


def led_image(
    leds: Sequence[RGB],
    points: Sequence[int] = (0,) * 24,
    bar: Mapping[str, int] | None = None,
    off: Mapping[str, int] | None = None,
    cube: int | None = None,
    *,
    width: int = 960,
    height: int = 600,
) -> np.ndarray:
    """The board diagram of a position with every LED drawn where it sits (BGR image)."""
    import cv2

    from ..vision.diagram import diagram_geometry, render_diagram

    bar = bar or {"white": 0, "black": 0}
    off = off or {"white": 0, "black": 0}
    img = render_diagram(points, bar, off, width=width, height=height)
    geo = diagram_geometry(width, height)
    radius = _led_radius(geo)
    for i, (x, y) in enumerate(led_centres(width, height)):
        r, g, b = leds[i]
        lit = (r, g, b) != OFF
        if lit:
            cv2.circle(img, (x, y), round(radius * 1.8), (b // 3, g // 3, r // 3), -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), radius, (b, g, r) if lit else (60, 60, 60), -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), radius, (20, 20, 20), 1, cv2.LINE_AA)
    if cube is not None:
        _cube(img, geo, cube)
    return img


def led_centres(width: int = 960, height: int = 600) -> list[tuple[int, int]]:
    """Pixel centre of every LED in layout order, on the diagram of this size."""
    from ..vision.diagram import diagram_geometry

    geo = diagram_geometry(width, height)
    inward = _led_radius(geo) + 2  # just inside the field, clear of the point numbers
    centres = [(x, y - inward if p <= 12 else y + inward)
               for p, (x, y) in ((p, geo.point_base(p)) for p in range(1, 25))]
    centres += [geo.bar_center(s) for s in ("white", "black")]
    centres += [geo.tray_center(s) for s in ("white", "black")]
    x = geo.tray_center("white")[0]
    m = round(geo.margin / 2)
    return centres + [(x, height - m), (x, m)]


def _led_radius(geo) -> int:
    return max(3, round(0.42 * geo.radius))


def _cube(img: np.ndarray, geo, value: int) -> None:
    """The doubling cube in the middle of the bar, showing `value` (1 shows 64)."""
    import cv2

    x = (geo.bar_center("white")[0] + geo.bar_center("black")[0]) // 2
    y = (geo.bar_center("white")[1] + geo.bar_center("black")[1]) // 2
    h = round(geo.radius)
    cv2.rectangle(img, (x - h, y - h), (x + h, y + h), (235, 235, 235), -1)
    cv2.rectangle(img, (x - h, y - h), (x + h, y + h), (30, 30, 30), 1)
    text = str(64 if value == 1 else value)
    scale = h / 28
    (w, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    cv2.putText(img, text, (x - w // 2, y + th // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (30, 30, 30), 1, cv2.LINE_AA)
