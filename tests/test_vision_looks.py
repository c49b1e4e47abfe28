"""The named looks of vision.synthetic.looks: what each family draws, and the renderer's new parts
(players' piles, lens distortion, a tilted camera) placing things where the truth says."""

from __future__ import annotations

import numpy as np
import pytest

from bgboard.vision import synthetic as synth
from bgboard.vision.synthetic import FRAME_SIZE, contrasted, distort, piled, render
from bgboard.vision.synthetic.looks import (
    FAMILIES,
    HELD_OUT,
    TRAINED,
    family_look,
    family_scene,
    tilted_corners,
)


def test_every_family_renders_a_frame_whose_field_is_in_the_picture() -> None:
    w, h = FRAME_SIZE
    for family in FAMILIES:
        scene = family_scene(1, family)
        rendered = render(scene, 1)
        assert rendered.image.shape == (h, w, 3)
        assert rendered.truth["points"] == list(scene.points)
        for x, y in rendered.calibration["corners_px"].values():
            assert 0 <= x < w and 0 <= y < h, (family, x, y)


def test_families_are_deterministic_from_the_seed() -> None:
    a, b = family_scene(4, "piled"), family_scene(4, "piled")
    assert a == b
    assert np.array_equal(render(a, 4).image, render(b, 4).image)
    assert family_scene(5, "piled") != a


def test_each_family_draws_what_it_names() -> None:
    rng = np.random.default_rng(0)
    same = [family_look(rng, "same-colour") for _ in range(10)]
    assert all(not contrasted(look.checkers, look.points) for look in same)
    assert family_look(rng, "inlaid").pattern == "inlay"
    assert family_look(rng, "marble").pattern == "marble"
    assert family_look(rng, "glossy").style == "3d"
    assert family_look(rng, "piled").pile == "players"
    assert family_look(rng, "tilted").distortion > 0
    assert {family_look(rng, "studded").ornament for _ in range(10)} == {"knob", "disc"}
    classic = family_look(np.random.default_rng(3), "classic")
    assert classic == synth.random_look(np.random.default_rng(3))
    assert set(HELD_OUT) < set(FAMILIES)
    assert set(TRAINED) == set(FAMILIES) - set(HELD_OUT) and len(TRAINED) == 9


def test_an_unknown_family_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown look 'velvet'"):
        family_look(np.random.default_rng(0), "velvet")


@pytest.mark.parametrize("n", [1, 5, 6, 9, 15])
def test_piled_checkers_all_lie_on_their_point(n: int) -> None:
    for seed in range(20):
        spots = piled(n, np.random.default_rng(seed), 0.9)
        assert len(spots) == n
        assert all(abs(dx) <= (1 / 0.9 - 1) / 2 + 0.08 for _, dx, _ in spots)
        assert all(0.4 < t < 7.5 for _, _, t in spots)
        first = sorted(t for layer, _, t in spots if layer == 0)
        assert len(first) == min(n, 7) or len(first) == min(n, 5)
        assert all(b - a > 0.8 for a, b in zip(first, first[1:], strict=False))


@pytest.mark.parametrize("n", [6, 9, 15])
def test_towers_stand_on_the_first_five(n: int) -> None:
    for seed in range(10):
        spots = piled(n, np.random.default_rng(seed), 0.9, "towers")
        first = sorted(t for layer, _, t in spots if layer == 0)
        assert len(first) == 5 and first[-1] < 4.6
        assert sum(layer == 1 for layer, _, _ in spots) == min(n - 5, 5)
        assert max(layer for layer, _, _ in spots) == (n - 1) // 5


def test_a_towers_look_draws_every_pile_of_six_as_towers() -> None:
    from dataclasses import replace

    look = replace(family_look(np.random.default_rng(0), "classic"), pile="towers")
    points = (9, -7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, -8)
    for _, n, _, spots in synth.strips(look, points, {"white": 0, "black": 0}):
        assert len(spots) == n
        assert sum(layer == 0 for _, _, layer, _ in spots) == 5
        assert max(layer for _, _, layer, _ in spots) == (n - 1) // 5


def test_distort_is_where_the_lens_shows_an_ideal_point() -> None:
    k1 = 0.08
    map_x, map_y = synth.lens_maps(k1)
    for ideal in [(100.0, 80.0), (640.0, 360.0), (1200.0, 650.0), (300.0, 600.0)]:
        (x, y), = distort([ideal], k1)
        ix, iy = round(x), round(y)
        assert abs(map_x[iy, ix] + (x - ix) * 1 - ideal[0]) < 1.5
        assert abs(map_y[iy, ix] + (y - iy) * 1 - ideal[1]) < 1.5
    (cx, cy), = distort([(640.0, 360.0)], k1)
    assert (cx, cy) == (640.0, 360.0)


def test_a_tilted_camera_sees_the_far_edge_shorter() -> None:
    aspect = 1.35
    for seed in range(10):
        corners = np.array(tilted_corners(np.random.default_rng(seed), aspect, 35.0))
        sides = [np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]
        ratios = [max(sides[i], sides[i + 2]) / min(sides[i], sides[i + 2]) for i in (0, 1)]
        assert max(ratios) > 1.3, seed
        flat = np.array(tilted_corners(np.random.default_rng(seed), aspect, 0.0))
        sides = [np.linalg.norm(flat[i] - flat[(i + 1) % 4]) for i in range(4)]
        assert max(sides[0] / sides[2], sides[1] / sides[3]) == pytest.approx(1.0, abs=1e-3)


def test_a_deep_box_shades_the_field_beside_its_walls_and_nowhere_else() -> None:
    from dataclasses import replace

    from bgboard.calibration.file import from_dict

    scene = replace(family_scene(2, "inlaid", hand=0.0), points=(0,) * 24, dice=())
    flat = replace(scene, look=replace(scene.look, wall=0.0))
    deep = replace(scene, look=replace(scene.look, wall=0.08))
    a, b = render(flat, 2), render(deep, 2)
    cal = from_dict(a.calibration)

    def grey(image, fx, fy) -> float:
        x, y = np.round(cal.field_to_px([(fx, fy)])[0]).astype(int)
        return float(image[y - 2:y + 3, x - 2:x + 3].mean())

    for beside_a_wall in [(0.25, 0.01), (0.75, 0.99), (0.005, 0.5), (0.995, 0.5)]:
        assert grey(b.image, *beside_a_wall) < 0.93 * grey(a.image, *beside_a_wall)
    for far_from_walls in [(0.25, 0.5), (0.75, 0.3)]:
        assert grey(b.image, *far_from_walls) == grey(a.image, *far_from_walls)


def test_most_wide_looks_have_a_deep_box_and_the_rest_of_the_look_is_unchanged() -> None:
    looks = [family_look(np.random.default_rng([seed, 3]), "inlaid") for seed in range(40)]
    walls = [look.wall for look in looks]
    assert 20 <= sum(w > 0 for w in walls) <= 36
    assert all(0.02 <= w <= 0.08 for w in walls if w)
    assert family_look(np.random.default_rng(3), "classic").wall == 0.0
    # the walls come from a child generator: what the look draws after them is as before
    rng = np.random.default_rng(7)
    family_look(rng, "marble")
    assert rng.random() == pytest.approx(0.9227595761684675)  # as before walls


@pytest.mark.parametrize("ornament", ["knob", "disc"])
def test_ornaments_are_round_shapes_on_every_bare_point(ornament: str) -> None:
    """A knob at each tip, a disc near each base: where the plain board shows the point's or
    the field's colour, the ornamented one shows something else."""
    import cv2

    from bgboard.calibration.file import from_dict

    look = synth.Look(points=((200, 30, 30), (30, 30, 200)), field=(40, 160, 40),
                      texture="plain", noise=0.0, gradient=0.0, shadow=0.0)
    empty = (0,) * 24
    plain = render(synth.Scene(empty, look=look), 0)
    studded = render(synth.Scene(empty, look=synth.with_look(
        synth.Scene(empty, look=look), ornament=ornament).look), 0)
    homography = from_dict(plain.calibration).homography()

    def pixel(x: float, y: float) -> tuple[int, int]:
        xy = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), homography)[0, 0]
        return round(xy[1]), round(xy[0])

    column = look.geometry.column_width
    for p in range(1, 25):
        (x0, base), _, (x, tip) = look.geometry.triangle(p)
        toward = np.sign(tip - base)
        y = tip if ornament == "knob" else base + toward * column * 0.55 * look.aspect
        spot, far = pixel(x, y + toward * 0.005), pixel(x, 0.5)
        a, b = (img[spot].astype(int) for img in (plain.image, studded.image))
        assert np.abs(a - b).max() > 20, (p, a, b)
        assert np.abs(plain.image[far].astype(int) - studded.image[far].astype(int)).max() <= 2
