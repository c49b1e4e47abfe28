"""The synthetic renderer: deterministic, varied, and its ground truth matches its scene."""

from dataclasses import replace

import numpy as np

from bgboard.vision.checkers import pyramid
from bgboard.vision.synth import (
    CANVAS_H,
    DIE_PARALLAX,
    START_POINTS,
    Die,
    Scene,
    _cube_faces,
    contrasted,
    random_look,
    random_scene,
    render,
    with_look,
)


def test_same_scene_and_seed_give_the_same_frame():
    scene = random_scene(7)
    a, b = render(scene, 7), render(scene, 7)
    assert a.image.shape == (720, 1280, 3) and a.image.dtype == np.uint8
    assert np.array_equal(a.image, b.image)
    assert a.truth == b.truth


def test_truth_is_the_scene_with_off_counted():
    scene = Scene(START_POINTS, {"white": 0, "black": 0}, (Die(5, (0.8, 0.5), 30.0, True),))
    truth = render(scene, 1).truth
    assert truth["points"] == list(START_POINTS)
    assert truth["off"] == {"white": 0, "black": 0}
    assert truth["dice"][0]["value"] == 5 and truth["dice"][0]["cocked"] is True
    assert truth["hand"] is False
    x, y, w, h = truth["dice"][0]["box_px"]
    assert 10 < w < 60 and 10 < h < 60


def test_random_scenes_hold_fifteen_checkers_a_side():
    for seed in range(30):
        scene = random_scene(seed)
        white = sum(n for n in scene.points if n > 0) + scene.bar["white"]
        black = -sum(n for n in scene.points if n < 0) + scene.bar["black"]
        assert white <= 15 and black <= 15


def test_looks_vary_and_keep_checkers_apart_from_the_board():
    looks = [random_look(np.random.default_rng(s)) for s in range(40)]
    assert len({look.checkers for look in looks}) > 20
    assert len({look.texture for look in looks}) == 3
    assert {round(look.geometry.bar_width, 2) for look in looks} != {0.07}
    for look in looks:
        assert contrasted(look.checkers, (*look.points, look.field, look.frame))
        xs = [x for x, _ in look.corners]
        ys = [y for _, y in look.corners]
        assert 0 <= min(xs) and max(xs) <= 1280 and 0 <= min(ys) and max(ys) <= 720


def test_pyramid_is_five_four_three_two_one():
    spots = pyramid(15)
    assert [sum(1 for k, _ in spots if k == layer) for layer in range(5)] == [5, 4, 3, 2, 1]
    assert pyramid(6)[5] == (1, 1.0)  # the 6th sits in the first gap
    assert pyramid(3) == [(0, 0.5), (0, 1.5), (0, 2.5)]


def test_a_raised_box_shows_the_walls_facing_the_camera_and_hides_the_others():
    empty = Scene((0,) * 24)  # the default look: field from (180, 80) to (1100, 640)
    flat = render(empty, 3)
    above = render(with_look(empty, raised=0.05, nadir=(640.0, 360.0)), 3)
    aside = render(with_look(empty, raised=0.05, nadir=(-2000.0, 360.0)), 3)
    assert above.calibration == flat.calibration == aside.calibration  # the field's plane
    flat_px, above_px, aside_px = (shot.image.astype(int) for shot in (flat, above, aside))
    # From above the middle: the left wall shows beyond the field's left edge (x = 180), the
    # frame's top 0.05 further out; it is shaded darker than the frame's top; the field is
    # as before (the left half, away from the raised bar).
    assert np.all(above_px[360, 168] < 0.7 * flat_px[360, 168])
    assert np.array_equal(above_px[300:420, 190:560], flat_px[300:420, 190:560])
    # From far to the left: the top moves right over the field's left edge (to x = 289) and
    # hides it.
    assert np.abs(aside_px[360, 230] - flat_px[360, 230]).max() > 30


def test_a_3d_die_from_straight_above_shows_its_top_only_a_square_die_side_wide():
    look = replace(random_look(np.random.default_rng(2)), style="3d", view=(0.0, 0.0))
    faces = _cube_faces(look, Die(4, (0.5, 0.5), 0.0), (100.0, 50.0))
    side = look.die_size * CANVAS_H
    centre = (100 + 0.5 * CANVAS_H * look.aspect, 50 + 0.5 * CANVAS_H)
    assert [value for value, *_ in faces] == [4]
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    np.testing.assert_allclose(faces[0][2], np.add(centre, square), atol=1e-6)


def test_a_3d_die_seen_at_an_angle_shows_the_side_towards_the_view_and_its_value_on_top():
    look = replace(random_look(np.random.default_rng(2)), style="3d", view=(0.0, 1.0))
    faces = _cube_faces(look, Die(1, (0.5, 0.5), 0.0), (0.0, 0.0))
    side = look.die_size * CANVAS_H
    # 1 on top, 6 below, 2-5 round the sides: the side facing down the canvas (the view) is 3
    assert [value for value, *_ in faces] == [1, 3]
    top = faces[0][2]
    assert np.isclose(top[:, 1].mean(), 0.5 * CANVAS_H - DIE_PARALLAX * side / 2)
    assert np.isclose(faces[1][2][:, 1].max(), 0.5 * CANVAS_H + side / 2 * (1 + DIE_PARALLAX))
    # lit from above: the top brighter than the side
    assert faces[0][1] > faces[1][1]


def test_a_leaning_3d_die_shows_two_faces_even_from_straight_above_and_keeps_its_value():
    look = replace(random_look(np.random.default_rng(2)), style="3d", view=(0.0, 0.0))
    faces = _cube_faces(look, Die(6, (0.5, 0.5), 10.0, cocked=True), (0.0, 0.0))
    assert [value for value, *_ in faces][0] == 6 and len(faces) == 2
    truth = render(Scene(START_POINTS, dice=(Die(6, (0.3, 0.5), 10.0, True),), look=look), 3)
    x, y, w, h = truth.truth["dice"][0]["box_px"]
    assert truth.truth["dice"][0]["value"] == 6 and 20 < w < 60 and 20 < h < 60


def test_bear_off_trays_lie_beside_the_field_on_the_sides_asked():
    empty = Scene((0,) * 24)  # the default look: field from (180, 80) to (1100, 640)
    felt = {"tray": (40.0, 200.0, 40.0), "tray_gap": 0.07}
    shots = {side: render(with_look(empty, trays=side, **felt), 3)
             for side in ("none", "low", "high", "both")}
    assert len({str(shot.calibration) for shot in shots.values()}) == 1  # the field stays
    bare = shots["none"].image.astype(int)
    # each tray 0.1 of the field wide, 0.07 of its height out: beside points 12 and 13 at
    # x 41-133, beside 1 and 24 at 1147-1239
    high, low = np.s_[300:420, 60:115], np.s_[300:420, 1165:1220]

    def shown(side, at):
        return np.abs(shots[side].image.astype(int)[at] - bare[at]).mean() > 30

    assert [shown(end, low) for end in ("low", "high", "both")] == [True, False, True]
    assert [shown(end, high) for end in ("low", "high", "both")] == [False, True, True]
    assert shots["low"].image.tobytes() == render(with_look(empty, **felt), 3).image.tobytes()
