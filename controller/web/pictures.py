"""The page's pictures as SVG text: the game's board with its LEDs and cube, the board as the
camera read it, that reading drawn over the camera image (with a calibration), and the point
grid with what is read through it while the corners are set (the calibrate view).

All reuse the shapes of bgboard.vision.diagram and the LED places of bgboard.hardware.render.
"""

from __future__ import annotations

from html import escape

import numpy as np

from ...calibration.file import Calibration
from ...hardware.render import led_centres
from ...vision.diagram import DiagramGeometry, diagram_geometry, diagram_svg

WIDTH, HEIGHT = 960, 600
WRONG = "#e8402a"
DIE = "#fbfbf4"


def board_svg(position: dict, leds: list, cube: dict) -> str:
    """The game's position with every LED where it sits and the cube on the bar."""
    geo = diagram_geometry(WIDTH, HEIGHT)
    radius = max(3.0, 0.42 * geo.radius)
    parts = []
    for (x, y), colour in zip(led_centres(WIDTH, HEIGHT), leds, strict=False):
        if any(colour):
            fill = _hex(colour)
            parts.append(f'<circle class="led lit" cx="{x}" cy="{y}" r="{radius * 1.9:.1f}" '
                         f'fill="{fill}" opacity="0.35"/>')
            parts.append(f'<circle cx="{x}" cy="{y}" r="{radius:.1f}" fill="{fill}" '
                         f'stroke="#141414"/>')
        else:
            parts.append(f'<circle class="led" cx="{x}" cy="{y}" r="{radius:.1f}" '
                         f'fill="#3c3c3c" stroke="#141414"/>')
    parts.append(_cube(geo, cube))
    return _add(diagram_svg(position["points"], position["bar"], position["off"],
                            width=WIDTH, height=HEIGHT), parts)


def read_svg(observation: dict, position: dict) -> str:
    """What the camera read: its board, its dice where they lie, and a ring on every point
    whose count differs from the game's position."""
    geo = diagram_geometry(WIDTH, HEIGHT)
    parts = []
    for p, (seen, game) in enumerate(zip(observation["points"], position["points"],
                                         strict=True), start=1):
        if seen != game:
            x, y = geo.point_base(p)
            parts.append(f'<circle class="wrong" cx="{x}" cy="{y}" r="{geo.radius * 1.2:.1f}" '
                         f'fill="none" stroke="{WRONG}" stroke-width="4"/>')
    for die in observation.get("dice", []):
        x, y = geo.to_px(*die["field_xy"])
        parts.append(_die(x, y, 0.8 * geo.radius, die["value"], die.get("cocked", False)))
    return _add(diagram_svg(observation["points"], observation["bar"], observation["off"],
                            width=WIDTH, height=HEIGHT), parts)


def camera_svg(observation: dict, position: dict, cal: Calibration) -> str:
    """The reading over the camera image: the field's outline, each point's count at its
    base (red where it differs from the game) and the dice, in image pixels."""
    width, height = cal.image_size
    field = cal.geometry
    corners = cal.field_to_px([(0, 0), (1, 0), (1, 1), (0, 1)])
    outline = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
    parts = [f'<polygon points="{outline}" fill="none" stroke="#38d0ff" stroke-width="3"/>']
    size = max(12.0, height / 24)
    for p, (seen, game) in enumerate(zip(observation["points"], position["points"],
                                         strict=True), start=1):
        if seen == 0 and game == 0:
            continue
        base = field.point_y(p)[0]
        (x, y), = cal.field_to_px([(field.point_x(p), base + (0.06 if p <= 12 else -0.06))])
        if seen != game:
            parts.append(f'<circle class="wrong" cx="{x:.1f}" cy="{y:.1f}" r="{0.8 * size:.1f}" '
                         f'fill="none" stroke="{WRONG}" stroke-width="4"/>')
        parts.append(_count(x, y, seen, size))
    for die in observation.get("dice", []):
        (x, y), = cal.field_to_px([die["field_xy"]])
        parts.append(_die(x, y, size / 2, die["value"], die.get("cocked", False)))
    return _over(width, height, parts)


def grid_svg(preview: dict) -> str:
    """A calibration preview (bgboard.controller.calibrating.Desk.preview) over the frame:
    the field's outline, the bar, each point's triangle and the count read on it."""
    width, height = preview["image_size"]
    grid = preview["grid"]
    size = max(12.0, height / 24)
    parts = [_polygon(grid["field"], "field", "#38d0ff", 3),
             _polygon(grid["bar"], "bar", "#ffd23f", 2)]
    for (left, right, tip), seen in zip(grid["points"], preview["points"], strict=True):
        parts.append(_polygon([left, right, tip], "point", "#ffd23f", 1.5))
        base = np.add(left, right) / 2
        x, y = base + 0.15 * (np.asarray(tip) - base)
        if seen:
            parts.append(_count(x, y, seen, size))
    return _over(width, height, parts)


def _polygon(points, kind: str, colour: str, width: float) -> str:
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return (f'<polygon class="{kind}" points="{corners}" fill="none" stroke="{colour}" '
            f'stroke-width="{width}"/>')


def _count(x: float, y: float, seen: int, size: float) -> str:
    """A point's signed count as read, white on black for White, black on white for Black."""
    fill, edge = ("#ffffff", "#000000") if seen > 0 else ("#111111", "#ffffff")
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.0f}" fill="{fill}" '
            f'stroke="{edge}" stroke-width="0.8" text-anchor="middle" '
            f'dominant-baseline="central" font-family="sans-serif" '
            f'font-weight="bold">{abs(seen)}</text>')


def _over(width: int, height: int, parts: list[str]) -> str:
    """An SVG in image pixels, to lie over the picture."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'preserveAspectRatio="none">{"".join(parts)}</svg>')


def _die(x: float, y: float, half: float, value: int, cocked: bool) -> str:
    stroke = WRONG if cocked else "#222"
    return (f'<g class="die"><rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" '
            f'height="{2 * half:.1f}" rx="{half / 4:.1f}" fill="{DIE}" stroke="{stroke}" '
            f'stroke-width="3"/><text x="{x:.1f}" y="{y:.1f}" font-size="{1.3 * half:.1f}" '
            f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif" '
            f'fill="#222">{escape(str(value))}</text></g>')


def _cube(geo: DiagramGeometry, cube: dict) -> str:
    """The cube in the bar: in the middle while centred, on its owner's half otherwise."""
    white, black = geo.bar_center("white"), geo.bar_center("black")
    x = (white[0] + black[0]) / 2
    y = {"white": (white[1] + 3 * black[1]) / 4, "black": (3 * white[1] + black[1]) / 4}.get(
        cube["owner"], (white[1] + black[1]) / 2)
    offered = cube.get("offered_by")
    face = cube["value"] * 2 if offered else cube["value"]
    half = geo.radius
    stroke = "#ff9c1a" if offered else "#1e1e1e"
    return (f'<g class="cube"><rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" '
            f'height="{2 * half:.1f}" rx="4" fill="#ebebeb" stroke="{stroke}" '
            f'stroke-width="{4 if offered else 1}"/><text x="{x:.1f}" y="{y:.1f}" '
            f'font-size="{half:.1f}" text-anchor="middle" dominant-baseline="central" '
            f'font-family="sans-serif" fill="#1e1e1e">{64 if face == 1 else face}</text></g>')


def _add(svg: str, parts: list[str]) -> str:
    """`svg` with `parts` drawn on top."""
    head, _, tail = svg.rpartition("</svg>")
    return head + "\n".join(parts) + "\n</svg>" + tail


def _hex(rgb) -> str:
    return "#" + "".join(f"{int(v):02x}" for v in rgb)
