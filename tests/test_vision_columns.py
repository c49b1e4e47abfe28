"""Point columns cut from the frame: each patch shows its own point, base at the top."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from bgboard.calibration.file import Calibration, from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision.columns import (
    HEIGHT,
    OUTSIDE,
    WIDTH,
    Columns,
    middle_of_six,
    near_edge,
    patch_matrix,
)
from bgboard.vision.synthetic import Look, Scene, render


def test_each_patch_shows_its_own_point_from_the_base() -> None:
    points = [0] * 24
    points[5], points[18] = 3, -2  # White's 6-point, Black's 6-point (White's 19)
    look = Look(checkers=((250, 250, 250), (20, 20, 20)), points=((120, 120, 120),) * 2,
                field=(120, 120, 120), texture="plain", noise=0.0)
    rendered = render(Scene(tuple(points), {"white": 1, "black": 0}, look=look), 0)
    patches = Columns(FieldView(from_dict(rendered.calibration))).cut(rendered.image)
    assert patches.shape == (26, HEIGHT, WIDTH, 3)
    middle = patches[:, :, WIDTH // 2 - 3:WIDTH // 2 + 3].mean(axis=(2, 3))  # (26, HEIGHT)
    rows_of = [(middle[i] > 200).sum() for i in range(26)]
    dark_of = [(middle[i] < 40).sum() for i in range(26)]
    d = HEIGHT * 0.094 / 0.53  # a checker (0.094 field heights) in a patch of 0.53 of them
    assert rows_of[5] > 2.5 * d and dark_of[18] > 1.5 * d
    assert all(rows_of[i] == 0 and dark_of[i] == 0 for i in range(24) if i not in (5, 18))
    white_bar = rows_of[24] or rows_of[25]
    assert 0.7 * d < white_bar < 1.5 * d
    top, bottom = middle[5, :HEIGHT // 2].mean(), middle[5, HEIGHT // 2:].mean()
    assert top > bottom  # the base is at the top of the patch


def coloured_patches(top_odd_like_bottom_odd: bool):
    """26 flat patches: points of one row alternate red and green, the other row's odd points
    red or green as asked, a white checker's rows on three points, the bar halves grey and
    black."""
    import numpy as np

    red, green = (0, 0, 200), (0, 200, 0)
    patches = np.zeros((26, HEIGHT, WIDTH, 3), np.uint8)
    for i in range(24):
        odd_red = i < 12 or top_odd_like_bottom_odd
        patches[i] = red if (i % 2 == 0) == odd_red else green
    for i in (0, 5, 14):  # checkers on points 1, 6 and 15
        patches[i, :20] = 255
    patches[24], patches[25] = 128, 0
    return patches


def test_each_points_reference_is_its_colours_bare_point() -> None:
    import numpy as np

    from bgboard.vision.columns import references

    for alike in (True, False):
        patches = coloured_patches(alike)
        bare = references(patches)
        assert bare.shape == patches.shape and bare.dtype == np.uint8
        for i in range(24):
            assert (bare[i] == patches[i, -1, 0]).all(), i  # the colour of its own triangle
        assert (bare[24] == 0).all() and (bare[25] == 128).all()  # the other bar half


def test_each_rows_own_references_are_the_median_of_its_bare_points_of_that_colour() -> None:
    from bgboard.vision.columns import references, row_references

    patches = coloured_patches(True)
    patches[12:24] //= 2  # the far row in a wall's shade
    patches[12, 30:40] = 100  # its 13-point a shade darker in a band (a bare point's grain)
    patches[[2, 4], :20] = 255  # white checkers on points 3 and 5 too
    pooled = references(patches)
    bare = np.ones(26, bool)
    bare[[0, 2, 4, 5, 14]] = False  # the checkers on points 1, 3, 5, 6 and 15
    bare[13:24:2] = False  # and, as a first reading may have it, every far even point
    own = row_references(patches, bare, pooled)
    assert own.dtype == np.uint8 and own.shape == patches.shape
    for i in range(12):  # the near row: its own points' colours in full light
        assert (own[i] == patches[i, -1, 0]).all(), i
        assert not np.array_equal(pooled[i], own[i])  # the pool mixed in the shaded row
    for i in range(12, 24, 2):  # far odd points: the median of 13, 17, 19, 21 and 23, shaded
        assert (own[i] == patches[16, -1, 0]).all(), i  # (13's dark band: one of five)
    for i in range(13, 24, 2):  # no bare point of that colour in the row: the pool's
        assert np.array_equal(own[i], pooled[i]), i
    assert np.array_equal(own[24:], pooled[24:])  # the bar halves keep theirs


def test_the_boards_own_references_are_its_bare_rows_and_the_medians_elsewhere() -> None:
    import numpy as np

    from bgboard.vision.columns import board_references, references

    patches = coloured_patches(True)
    counts = [2, 0, 0, 0, 0, -5] + [0] * 18 + [0, 1]  # the 1- and 6-points and bar_high taken
    own = board_references(patches, counts)
    medians = references(patches)
    for i in range(26):
        expected = medians[i] if counts[i] else patches[i]
        assert np.array_equal(own[i], expected), i


def test_a_reader_adapted_at_calibration_compares_each_row_with_the_boards_bare_look() -> None:
    import numpy as np

    from bgboard.vision.columns import adapted, beside_references
    from bgboard.vision.read import Reader
    from bgboard.vision.synthetic import START_POINTS, random_scene

    look = random_scene(3).look
    start = render(Scene(START_POINTS, look=look), 3)
    cal = adapted(start.image, from_dict(start.calibration), [*START_POINTS, 0, 0])
    assert cal.board.corners_px == cal.corners_px and cal.board_patches().shape == (
        26, HEIGHT, WIDTH, 3)
    cut = Columns(FieldView(cal)).cut(start.image)
    for i in (1, 2, 8, 13, 24, 25):  # bare at the start: its own look is the reference
        assert np.array_equal(cal.board_patches()[i], cut[i])
    reader = Reader(cal)
    assert np.array_equal(reader.columns.board, cal.board_patches())
    seen = beside_references(cut, reader.columns.board)
    assert np.array_equal(seen[..., 3:], cal.board_patches())
    scene = random_scene(3)
    frame = render(Scene(scene.points, scene.bar, look=look), 4)
    assert reader.read(frame.image)["points"] == list(scene.points)


def _start_look(seed: int):
    from bgboard.vision.synthetic import START_POINTS, random_scene

    look = random_scene(seed).look
    return look, render(Scene(START_POINTS, look=look), seed)


def _on_point(view: FieldView, index: int, depth: float) -> tuple[float, float]:
    """Field coordinates `depth` field heights in from the base of row `index`."""
    row = view.rows[index]
    x, y = view.to_field(row.base)
    return x, y + row.direction * depth


def test_a_patch_holds_the_field_points_it_shows() -> None:
    import numpy as np

    _, start = _start_look(2)
    columns = Columns(FieldView(from_dict(start.calibration)))
    assert np.flatnonzero(columns.holding([_on_point(columns.view, 5, 0.1)])).tolist() == [5]
    assert np.flatnonzero(columns.holding([_on_point(columns.view, 15, 0.2),
                                           _on_point(columns.view, 2, 0.05)])).tolist() == [2, 15]
    assert not columns.holding([]).any()


def test_a_confirmed_frame_teaches_the_reader_its_bare_rows_where_no_die_lies() -> None:
    from dataclasses import replace

    import numpy as np

    from bgboard.vision.columns import adapted
    from bgboard.vision.read import Reader
    from bgboard.vision.synthetic import START_POINTS, Die

    look, start = _start_look(5)
    cal = adapted(start.image, from_dict(start.calibration), [*START_POINTS, 0, 0])
    reader = Reader(cal)
    before = reader.columns.board.copy()
    die = Die(4, _on_point(reader.view, 2, 0.15))  # on White's 3-point, bare at the start
    scene = Scene(START_POINTS, dice=(die,), look=look)
    frame = render(scene, 6).image
    assert [d["value"] for d in reader.read(frame)["dice"]] == [4]
    learned = reader.learn(frame, START_POINTS, 0)
    assert learned.corners_px == cal.corners_px and reader.cal is learned
    cut = Columns(FieldView(cal)).cut(frame)
    under_die = reader.columns.columns.holding([die.field_xy])
    assert np.flatnonzero(under_die).tolist() == [2]
    for i, count in enumerate([*START_POINTS, 0, 0]):
        expected = before[i] if count or under_die[i] else cut[i]
        assert np.array_equal(learned.board_patches()[i], expected), i
    assert reader.learn(render(replace(scene, hand=True), 7).image, START_POINTS, 0) is None


def test_the_middle_of_six_is_their_median() -> None:
    values = np.random.default_rng(5).integers(0, 4, (2, 6, 3, 50), dtype=np.uint8)  # ties
    assert np.array_equal(middle_of_six(values), np.median(values, axis=1))


def test_rows_whose_base_lies_on_the_pictures_edge_are_cut_from_further_out() -> None:
    """A field framed 9 px from the picture's bottom: its near rows (points 1-12 and the bar
    half on their side) start OUTSIDE column widths further out, the picture mirrored beyond
    its edge; the far rows, 100 px from the top, are cut as always."""
    cal = Calibration((1000, 800), {"p1": (900, 791), "p12": (100, 791), "p13": (100, 100),
                                    "p24": (900, 100)})
    view = FieldView(cal)
    assert [near_edge(view, row) for row in view.rows] == [True] * 12 + [False] * 12 + [
        True, False]
    columns = Columns(view)
    column = view.geo.column_width * view.w
    for row, matrix in zip(view.rows, columns.matrices, strict=True):
        moved = replace(row, base=(row.base[0], row.base[1] - row.direction * OUTSIDE * column))
        expected = patch_matrix(view, moved if near_edge(view, row) else row)
        np.testing.assert_allclose(matrix, expected)
    frame = np.zeros((800, 1000, 3), np.uint8)
    frame[760:] = 255  # a white band along the bottom: mirrored, it shows beyond the edge too
    near = columns.cut(frame)[0]
    assert near[0].min() == 255  # the patch's first line lies beyond the picture


def test_a_patch_reaching_further_shows_that_much_of_the_column_squeezed() -> None:
    """`Columns(view, scale, length)`: the pile counter's patch may reach past the field's
    middle (a long row of seven does), at the same size in pixels: it starts where the
    checker net's starts and ends `length` field heights from the base."""
    cal = Calibration((1000, 800), {"p1": (900, 700), "p12": (100, 700), "p13": (100, 100),
                                    "p24": (900, 100)})
    view = FieldView(cal)
    plain, far = Columns(view, 2), Columns(view, 2, 0.75)
    assert far.size == plain.size == (2 * WIDTH, 2 * HEIGHT)

    def frame_y(columns: Columns, v: float) -> float:
        middle = np.array([[[columns.size[0] / 2, v]]])
        return float(cv2.perspectiveTransform(middle, columns.matrices[0])[0, 0, 1])

    assert frame_y(far, 0) == pytest.approx(frame_y(plain, 0), abs=0.5)  # 0.03 beyond the base
    assert frame_y(plain, 2 * HEIGHT) == pytest.approx(700 - 0.5 * 600, abs=1.5)  # the middle
    assert frame_y(far, 2 * HEIGHT) == pytest.approx(700 - 0.75 * 600, abs=1.5)


def test_each_sets_colour_is_the_median_first_checker_of_its_rows() -> None:
    from bgboard.vision.columns import BASE_ROWS, set_colours
    from bgboard.vision.synthetic import START_POINTS

    patches = np.full((26, HEIGHT, WIDTH, 3), 90, np.uint8)  # the board
    counts = [*START_POINTS, 0, 0]
    shades = {1: [200, 210, 230, 240], -1: [20, 30, 40, 50]}  # each set's four rows, grey
    for sign, greys in shades.items():
        for i, grey in zip([i for i, n in enumerate(counts) if n * sign > 0], greys, strict=True):
            patches[i, BASE_ROWS] = grey
    def lightness(grey):
        return float(cv2.cvtColor(np.full((1, 1, 3), grey, np.uint8), cv2.COLOR_BGR2LAB)[0, 0, 0])
    assert set_colours(patches, counts) == tuple(
        (float(np.median([lightness(g) for g in shades[sign]])), 128.0, 128.0) for sign in (1, -1))


def test_the_start_frame_tells_the_reader_which_set_is_white_on_a_board_of_one_set() -> None:
    # marble frame 195 of the held-out looks: only White's checkers on the field, half in a
    # shade; unadapted the shaded rows are taken for Black's (docs/vision-log.md)
    from bgboard.vision.columns import adapted
    from bgboard.vision.read import Reader
    from bgboard.vision.synthetic import START_POINTS
    from bgboard.vision.synthetic.looks import family_scene

    scene = family_scene(195, "marble", hand=0.1, cocked=0.15)
    start = render(Scene(START_POINTS, look=scene.look), 195, shot=1)
    cal = adapted(start.image, from_dict(start.calibration), [*START_POINTS, 0, 0])
    white, black = cal.board_sets()
    assert white[0] > 200 and black[0] < 40  # lightness, 0-255
    frame = render(scene, 195)
    assert all(n >= 0 for n in frame.truth["points"])
    assert Reader(cal).read(frame.image)["points"] == frame.truth["points"]
    unadapted = Reader(from_dict(start.calibration)).read(frame.image)["points"]
    assert any(n < 0 for n in unadapted)
