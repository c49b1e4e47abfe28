"""The named looks of vision.synthetic.looks and the drawn ones of vision.synthetic.drawn: what each
family draws, what drawn looks span and hold out, and the renderer's new parts
(players' piles, lens distortion, a tilted camera) placing things where the truth says."""

from __future__ import annotations

import colorsys
from dataclasses import replace

import numpy as np
import pytest

from bgboard.vision import synthetic as synth
from bgboard.vision.synthetic import FRAME_SIZE, contrasted, distort, drawn, piled, render
from bgboard.vision.synthetic.looks import (
    FAMILIES,
    HELD_OUT,
    TRAINED,
    family_look,
    family_scene,
    tilted_corners,
    tilted_view,
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


# --- drawn looks (vision.synthetic.drawn) -----------------------------------------------------
@pytest.fixture(scope="module")
def drawn_looks() -> list:
    """2,000 drawn looks (no rendering)."""
    rng = np.random.default_rng(0)
    return [drawn.drawn_look(rng) for _ in range(2000)]


def _in_tournament_felt(look) -> bool:
    """The tournament felt family, measured here apart from the module's own test."""
    hue, sat, _ = colorsys.rgb_to_hsv(*(c / 255 for c in look.field))
    return look.texture == "felt" and 80 <= 360 * hue <= 200 and sat >= 0.3


def test_drawn_scenes_are_deterministic_from_the_seed_on_their_own_stream() -> None:
    assert drawn.drawn_scene(3) == drawn.drawn_scene(3)
    assert drawn.drawn_scene(3, cube=1.0) == drawn.drawn_scene(3, cube=1.0)
    assert drawn.drawn_scene(3, cube=1.0).cube is not None
    assert drawn.drawn_scene(4) != drawn.drawn_scene(3)
    assert drawn.held_out_scene(3, "logo") == drawn.held_out_scene(3, "logo")
    looks = {drawn.drawn_scene(3).look, family_scene(3, "classic").look,
             *(drawn.held_out_scene(3, family).look for family in drawn.DRAWN_HELD_OUT)}
    assert len(looks) == 5


def test_no_drawn_look_is_of_a_held_out_family(drawn_looks) -> None:
    assert drawn.DRAWN_HELD_OUT == ("tournament-felt", "logo", "marble")
    assert all(drawn.held_out_family(look) is None for look in drawn_looks)
    assert not any(_in_tournament_felt(look) for look in drawn_looks)
    assert not {look.pattern for look in drawn_looks} & {"logo", "marble"}
    # felt fields of other colours, and green fields of other textures, are drawn
    assert sum(look.texture == "felt" for look in drawn_looks) > 300
    assert any(_in_tournament_felt(replace(look, texture="felt")) for look in drawn_looks)


@pytest.mark.parametrize("family", ["tournament-felt", "logo", "marble"])
def test_each_held_out_generator_draws_inside_its_family(family: str) -> None:
    rng = np.random.default_rng(1)
    looks = [drawn.held_out_look(rng, family) for _ in range(40)]
    assert all(drawn.held_out_family(look) == family for look in looks)
    if family == "tournament-felt":
        assert all(_in_tournament_felt(look) for look in looks)
    else:
        assert all(look.pattern == family and not _in_tournament_felt(look) for look in looks)


def test_an_unknown_held_out_family_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown held-out family 'classic'"):
        drawn.held_out_look(np.random.default_rng(0), "classic")
    with pytest.raises(ValueError, match="unknown held-out family 'velvet'"):
        drawn.held_out_scene(0, "velvet")


def test_drawn_looks_span_every_kind(drawn_looks) -> None:
    looks = drawn_looks[:500]
    kinds = {"texture": {"felt", "wood", "plain", "cork"},
             "pattern": {"none", "inlay", "outline", "worn", "leather"},
             "style": {"flat", "3d"}, "pile": {"rows", "players", "towers"},
             "ornament": {"none", "knob", "disc"}, "trays": {"low", "high", "both", "none"},
             "shade_side": {"none", "low", "high"}}
    for name, values in kinds.items():
        assert {getattr(look, name) for look in looks} == values, name
    for name in ("raised", "standing", "wall", "glare", "distortion", "blur", "jpeg"):
        drawn_share = sum(getattr(look, name) > 0 for look in looks) / len(looks)
        assert 0.1 < drawn_share < 0.8, (name, drawn_share)
    blobs = [look.blob_shadow for look in looks]
    assert min(blobs) < -0.3 and max(blobs) > 0.3  # a pool of lamp light, a broad shadow
    assert {look.tray is None for look in looks} == {True, False}
    assert min(look.geometry.bar_width for look in looks) < 0.06
    assert max(look.geometry.bar_width for look in looks) > 0.12
    assert min(look.aspect for look in looks) < 1.2 and max(look.aspect for look in looks) > 1.55


def test_drawn_colours_are_continuous_and_checkers_keep_apart(drawn_looks) -> None:
    import cv2

    looks = drawn_looks[:500]
    hues = {int(360 * colorsys.rgb_to_hsv(*(c / 255 for c in look.field))[0] // 30)
            for look in looks}
    assert hues == set(range(12))
    assert len({look.checkers for look in looks}) == 500
    assert len({look.dice for look in looks}) == 500
    assert all(contrasted(look.checkers[:1], look.checkers[1:], 35) for look in looks)
    close = sum(not contrasted(look.checkers[:1], look.checkers[1:], 60) for look in looks)
    assert 10 < close < 150  # close pairs too
    board = [(*look.points, look.field, look.frame) for look in looks]
    standing_out = sum(contrasted(look.checkers, b, 45) for look, b in zip(looks, board,
                                                                          strict=True))
    assert 0.75 * 500 < standing_out < 500
    for look in looks:  # the lighter set first: "white" in the truth
        light, dark = cv2.cvtColor(np.uint8([look.checkers]), cv2.COLOR_RGB2LAB)[0, :, 0]
        assert light >= dark
        assert contrasted(look.dice[:1], look.dice[1:], 70)


def test_drawn_cameras_turn_any_way_and_keep_the_field_in_the_picture(drawn_looks) -> None:
    w, h = FRAME_SIZE
    turns = []
    for look in drawn_looks:
        corners = np.array(look.corners)
        assert corners.min() >= 10 and corners[:, 0].max() <= w - 10
        assert corners[:, 1].max() <= h - 10
        (x0, y0), (x1, y1) = corners[:2]
        turns.append(np.degrees(np.arctan2(y1 - y0, x1 - x0)) % 360)
    assert len({int(t // 45) for t in turns}) == 8
    off_axis = sum(20 < t % 90 < 70 for t in turns) / len(turns)
    assert 0.1 < off_axis < 0.4
    assert all(0.4 - 1e-6 <= np.hypot(*look.view) <= 1.2 + 1e-6 for look in drawn_looks)


def test_a_drawn_camera_tilts_up_to_the_limit_and_sees_its_nadir_where_it_stands() -> None:
    import cv2

    rng = np.random.default_rng(2)
    views = [drawn.drawn_view(rng, 1.4) for _ in range(500)]
    tilts = [view.tilt for view in views]
    assert 0 <= min(tilts) < 2 and 33 < max(tilts) <= drawn.MAX_TILT
    assert sum(t >= 30 for t in tilts) > 40
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    for view in views[:50]:  # the nadir lies height x tan(tilt) from the field's middle
        to_frame = cv2.getPerspectiveTransform(square, np.float32(view.corners))
        fx, fy = cv2.perspectiveTransform(np.float32([[view.nadir]]),
                                          np.linalg.inv(to_frame))[0, 0]
        away = np.hypot((fx - 0.5) * 1.4, fy - 0.5)
        assert away == pytest.approx(view.height * np.tan(np.radians(view.tilt)), abs=0.01)
    straight, _ = tilted_view(np.random.default_rng(0), 1.4, 0.0)
    assert tilted_view(np.random.default_rng(0), 1.4, 0.0)[1] == pytest.approx(
        tuple(np.mean(straight, 0)), abs=0.1)
    assert tilted_view(np.random.default_rng(0), 1.4, 20.0)[0] == tilted_corners(
        np.random.default_rng(0), 1.4, 20.0)


def test_a_few_drawn_and_held_out_scenes_render_and_differ() -> None:
    w, h = FRAME_SIZE
    scenes = [drawn.drawn_scene(seed, hand=0.5, cube=0.5) for seed in range(5)]
    scenes += [drawn.held_out_scene(0, family) for family in drawn.DRAWN_HELD_OUT]
    images = []
    for seed, scene in enumerate(scenes):
        rendered = render(scene, seed)
        assert rendered.image.shape == (h, w, 3)
        assert rendered.truth["points"] == list(scene.points)
        for x, y in rendered.calibration["corners_px"].values():
            assert 0 <= x < w and 0 <= y < h
        images.append(rendered.image.astype(np.int16))
    for i, a in enumerate(images):
        for b in images[i + 1:]:
            assert np.abs(a - b).mean() > 10
