"""The synthetic renderer: deterministic, varied, and its ground truth matches its scene."""

import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from bgboard.vision.checkers import pyramid
from bgboard.vision.synthetic import (
    CANVAS_H,
    CUBE_FACES,
    DIE_PARALLAX,
    START_POINTS,
    Cube,
    Die,
    Look,
    Scene,
    contrasted,
    covered,
    cube_faces,
    random_cube,
    random_look,
    random_scene,
    render,
    with_look,
)
from bgboard.vision.synthetic.looks import family_scene


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


def test_standing_checkers_hide_the_foot_of_the_far_wall_behind_them():
    # The default look: point 13 at the top left (x = 216), its five checkers against the far
    # wall (y = 80) for a camera low beyond the bottom edge; point 14 (x = 287) is bare.
    stack = with_look(Scene((0,) * 12 + (5,) + (0,) * 11), raised=0.15, nadir=(640.0, 1500.0))
    flat = render(stack, 3).image.astype(int)
    standing = render(with_look(stack, standing=0.5), 3).image.astype(int)
    assert np.abs(standing[60, 216] - flat[60, 216]).max() > 60  # a checker over the wall
    assert np.array_equal(standing[:, 287], flat[:, 287])  # the wall behind a bare point
    assert np.array_equal(standing[420:, :], flat[420:, :])  # below the row (y 80-400): as before


def test_one_walls_shade_darkens_its_row_and_its_checkers_and_leaves_the_other_row():
    # The default look: points 1-12 along the frame's bottom edge (y = 640), 13-24 along its
    # top (y = 80); the field 560 px high. A checker on point 1 (x = 1062) and on point 24.
    scene = Scene((1,) + (0,) * 22 + (-1,))
    flat = render(scene, 3).image.astype(float)
    shaded = render(with_look(scene, shade_side="low", shade_reach=0.3, shade_depth=0.5),
                    3).image.astype(float)
    # Half the light at the wall, fading out 0.3 field heights (168 px) in: at 20 px from
    # the wall 1 - 0.5 * (1 - 20 / 168) of it is left, on the checker of point 1 as on a
    # bare point's base; the other row, the field's middle and the frame are untouched.
    left = 1 - 0.5 * (1 - 20 / 168)
    for x in (1062, 700):
        ratio = shaded[620, x - 5:x + 5].sum() / flat[620, x - 5:x + 5].sum()
        assert abs(ratio - left) < 0.02
    assert np.array_equal(shaded[:460], flat[:460])
    assert np.array_equal(shaded[660:], flat[660:])


def test_a_3d_die_from_straight_above_shows_its_top_only_a_square_die_side_wide():
    look = replace(random_look(np.random.default_rng(2)), style="3d", view=(0.0, 0.0))
    faces = cube_faces(look, Die(4, (0.5, 0.5), 0.0), (100.0, 50.0))
    side = look.die_size * CANVAS_H
    centre = (100 + 0.5 * CANVAS_H * look.aspect, 50 + 0.5 * CANVAS_H)
    assert [value for value, *_ in faces] == [4]
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    np.testing.assert_allclose(faces[0][2], np.add(centre, square), atol=1e-6)


def test_a_3d_die_seen_at_an_angle_shows_the_side_towards_the_view_and_its_value_on_top():
    look = replace(random_look(np.random.default_rng(2)), style="3d", view=(0.0, 1.0))
    faces = cube_faces(look, Die(1, (0.5, 0.5), 0.0), (0.0, 0.0))
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
    faces = cube_faces(look, Die(6, (0.5, 0.5), 10.0, cocked=True), (0.0, 0.0))
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


def test_cork_outlines_wear_and_a_pool_of_lamp_light_draw_only_what_they_name():
    from bgboard.calibration.file import from_dict

    empty = Scene((0,) * 24, look=Look(texture="plain", noise=0.0, gradient=0.0, shadow=0.0))
    plain = render(empty, 0)
    base = plain.image.astype(int)
    changes = {"cork": {"texture": "cork"}, "outline": {"pattern": "outline"},
               "worn": {"pattern": "worn"}, "lamp": {"blob_shadow": -0.4}}
    shots = {name: render(with_look(empty, **change), 0).image.astype(int)
             for name, change in changes.items()}
    cal = from_dict(plain.calibration)

    def at(fx: float, fy: float):
        x, y = np.round(cal.field_to_px([(fx, fy)])[0]).astype(int)
        return np.s_[y - 1:y + 2, x - 1:x + 2]

    (x0, foot), _, (x, tip) = empty.look.geometry.triangle(3)
    edge, inside, frame = at((x0 + x) / 2, (foot + tip) / 2), at(x, tip / 3), at(0.25, -0.04)
    field = np.s_[130:590, 230:1050]  # well inside the field (180-1100 x 80-640)
    bare = np.s_[350:370, 400:420]  # bare field between the points' tips
    assert base[bare].std((0, 1)).max() == 0  # cork: grains as strong as the look's grain
    assert (shots["cork"][bare].std((0, 1)) / base[bare].mean((0, 1))).min() > 0.04
    assert np.abs(shots["outline"][edge] - base[edge]).max() > 20
    assert np.array_equal(shots["outline"][inside], base[inside])
    worn = np.abs(shots["worn"][field] - base[field]).max(2)
    assert worn.max() > 30 and 0.1 < (worn > 5).mean() < 0.9
    assert shots["worn"][field].mean() > base[field].mean()
    for name in ("outline", "worn"):
        assert np.array_equal(shots[name][frame], base[frame]), name
    assert (shots["lamp"] >= base).all() and (shots["lamp"] - base).max() > 40


def test_the_cube_is_drawn_where_it_lies_with_its_number_on_top():
    empty = Scene((0,) * 24)  # the default look: field from (180, 80) to (1100, 640)
    bare = render(empty, 3)
    shots = {face: render(replace(empty, cube=Cube(face, (0.5, 0.2), size=0.07)), 3)
             for face in (2, 64)}
    assert "cube" not in bare.truth
    assert shots[2].truth["cube"] == {"face": 2, "field_xy": [0.5, 0.2],
                                      "box_px": [616, 508, 48, 40]}
    for shot in shots.values():
        changed = np.abs(shot.image.astype(int) - bare.image.astype(int)).max(2) > 40
        ys, xs = np.nonzero(changed)
        # the cube and its shadow: within a few pixels of its box, nothing else touched
        assert 612 <= xs.min() and xs.max() <= 672 and 504 <= ys.min() and ys.max() <= 556
    # the ink (near black on the default cube) covers more of the face for 64 than for 2
    ink = {face: int((shot.image[516:540, 624:656].max(2) < 90).sum())
           for face, shot in shots.items()}
    assert 30 < ink[2] < ink[64]


def test_a_3d_cube_shows_its_number_on_top_and_other_numbers_on_its_sides():
    look = replace(random_look(np.random.default_rng(2)), style="3d", view=(0.0, 1.0))
    scene = Scene((0,) * 24, look=look)
    shots = [render(replace(scene, cube=Cube(face, (0.3, 0.5), size=0.07)), 3)
             for face in (2, 8)]
    x, y, w, h = shots[0].truth["cube"]["box_px"]
    assert h > w  # the side towards the view shows below the top
    assert shots[0].image[y:y + h, x:x + w].tobytes() != shots[1].image[y:y + h, x:x + w].tobytes()


def test_random_cubes_lie_where_players_leave_them():
    cubes = [random_cube(np.random.default_rng(seed), Scene((0,) * 24).look)
             for seed in range(300)]
    assert {c.face for c in cubes} == set(CUBE_FACES)
    middle = [c for c in cubes if 0.4 <= c.field_xy[1] <= 0.6 and c.face == 64]
    beside = [c for c in cubes if not 0 <= c.field_xy[0] <= 1]
    assert 0.25 < len(middle) / len(cubes) < 0.45 and 0.25 < len(beside) / len(cubes) < 0.5
    # beside the field: on the frame or in the tray, within the board (the default look has
    # a tray at the low end: x down to -0.204; 0.052 of frame at the high end), never over
    # the field's edge (at least half the smallest cube, 0.0147 of the field's width, off it)
    assert all(-0.204 < c.field_xy[0] < -0.014 or 1.014 < c.field_xy[0] < 1.052 for c in beside)
    assert all(0.036 * 1.1 <= c.size <= 0.046 * 1.8 for c in cubes)


def test_another_shot_shows_the_same_board_with_its_own_sensor_noise() -> None:
    """A calibration's start frame and the frames read later show one board: `shot` draws
    only the noise afresh, so the two frames differ by two draws of it and nothing else."""
    look = Look(noise=4.0)
    first = render(Scene(START_POINTS, look=look), 7).image.astype(np.float32)
    again = render(Scene(START_POINTS, look=look), 7).image.astype(np.float32)
    other = render(Scene(START_POINTS, look=look), 7, shot=1).image.astype(np.float32)
    assert np.array_equal(first, again)
    difference = (other - first)[first.min(axis=2) > 20]  # away from clipping at black
    assert abs(float(difference.mean())) < 0.1
    assert float(difference.std()) == pytest.approx(4.0 * np.sqrt(2), rel=0.1)


def test_checkers_in_the_gaps_of_the_layer_below_all_show():
    points = [9, -6, 5, 0] + [0] * 20
    look = Look()  # the reader's rows: from the 6th on in the gaps of the first layer
    assert covered(look, points) == [0] * 24
    # half a diameter off the one below: counted only when anything within a diameter is
    assert covered(look, points, within=1.0) == [4, 1] + [0] * 22


def test_tower_checkers_count_as_covered_by_how_near_they_sit_on_the_one_below():
    look = Look(pile="towers")  # the 6th on set on the first five, a little off
    points = [0, 7, 0, -8] + [0] * 20
    assert covered(look, points, within=0.0) == [0] * 24
    assert covered(look, points, within=1.0) == [0, 2, 0, 3] + [0] * 20


def test_the_benchmarks_towers_hiding_a_checker_are_found():
    # the held-out looks' frames whose sixth checker lies 0.019 and 0.028 of a diameter off
    # the one below it (docs/vision-log.md: what the held-out looks still lose)
    for family, seed, point in (("logo", 3, 5), ("marble", 28, 12)):
        scene = family_scene(seed, family, hand=0.1, cocked=0.15)
        assert scene.points[point - 1] == -6
        assert covered(scene.look, scene.points)[point - 1] == 1


def test_the_live_reader_never_imports_the_renderer():
    code = ("import sys, bgboard.vision.read, bgboard.vision.steady, bgboard.vision.dice, "
            "bgboard.vision.cube, bgboard.vision.dice_photo, bgboard.vision.corners; "
            "print([m for m in sys.modules if 'synth' in m])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "[]\n"
