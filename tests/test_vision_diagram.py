"""The position diagram: geometry the LED layout relies on, pixels, SVG and `bgboard render`."""

import re

import cv2
import numpy as np
import pytest

from bgboard.controller.cli import main
from bgboard.vision.diagram import diagram_geometry, diagram_svg, render_diagram

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
NONE = {"white": 0, "black": 0}


def test_point_bases_follow_whites_numbering_around_the_board():
    g = diagram_geometry()
    assert g.point_base(1) == (793, 573)
    assert g.point_base(24) == (793, 27)
    assert g.point_base(12) == (58, 573)
    assert g.point_base(13) == (58, 27)
    xs = [g.point_base(p)[0] for p in range(1, 13)]
    assert xs == sorted(xs, reverse=True)  # 1 on the right, 12 on the left
    assert g.point_base(6)[0] - g.point_base(7)[0] > g.point_base(5)[0] - g.point_base(6)[0]


def test_bar_and_trays_are_placed_per_colour():
    g = diagram_geometry()
    assert g.bar_center("white")[1] < g.bar_center("black")[1]
    assert g.bar_center("white")[0] == g.bar_center("black")[0]
    assert g.point_base(7)[0] < g.bar_center("white")[0] < g.point_base(6)[0]
    assert g.tray_center("black")[1] < 300 < g.tray_center("white")[1]
    assert g.tray_center("white")[0] > g.point_base(1)[0]


def test_geometry_scales_with_the_size():
    g = diagram_geometry(480, 300)
    assert g.point_base(1) == (396, 286)


def _near(img, xy, rgb, tol=30):
    b, gr, r = img[xy[1], xy[0]].astype(int)
    return abs(r - rgb[0]) < tol and abs(gr - rgb[1]) < tol and abs(b - rgb[2]) < tol


def test_checkers_are_drawn_where_the_board_says():
    img = render_diagram(START, NONE, NONE)
    assert img.shape == (600, 960, 3) and img.dtype == np.uint8
    g = diagram_geometry()
    r = g.radius
    x, y = g.point_base(6)
    assert _near(img, (x, round(y - r)), (245, 242, 232))  # White's 6-point: a light checker
    x, y = g.point_base(19)
    assert _near(img, (x, round(y + r)), (40, 36, 34))  # Black on White's 19: a dark checker
    x, y = g.point_base(3)
    assert not _near(img, (x, round(y - r)), (245, 242, 232))  # empty


def test_bar_and_off_checkers_are_drawn():
    img = render_diagram([0] * 24, {"white": 1, "black": 0}, {"white": 14, "black": 15})
    g = diagram_geometry()
    assert _near(img, g.bar_center("white"), (245, 242, 232))
    assert not _near(img, g.bar_center("black"), (40, 36, 34))
    assert _near(img, g.tray_center("white"), (245, 242, 232))


def test_a_board_without_24_points_is_refused():
    with pytest.raises(ValueError, match="24 points"):
        render_diagram([0] * 23, NONE, NONE)


def test_svg_has_one_circle_per_checker_and_the_stack_count():
    points = list(START)
    points[5], points[12] = 7, 3  # seven on White's 6-point: five drawn plus the count
    svg = diagram_svg(points, NONE, NONE)
    assert svg.startswith("<svg")
    assert len(re.findall("<circle", svg)) == 30 - 2
    assert ">7</text>" in svg


def test_render_command_writes_png_and_svg(tmp_path):
    png, svg = tmp_path / "s.png", tmp_path / "s.svg"
    assert main(["render", "start", "--out", str(png)]) == 0
    assert main(["render", "start", "--out", str(svg)]) == 0
    img = cv2.imread(str(png))
    assert np.array_equal(img, render_diagram(START, NONE, NONE))
    assert len(re.findall("<circle", svg.read_text())) == 30


def test_render_command_rejects_bad_input(tmp_path, capsys):
    assert main(["render", "start", "--out", str(tmp_path / "s.jpg")]) == 2
    assert "must end in .png or .svg" in capsys.readouterr().err
    assert main(["render", "nonsense", "--out", str(tmp_path / "s.png")]) == 2
    assert "nonsense" in capsys.readouterr().err
