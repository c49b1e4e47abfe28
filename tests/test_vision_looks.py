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


def _plain(**shapes) -> tuple[synth.Look, synth.Scene]:
    """A plain, evenly lit board with the given shapes, and a scene on it: White's checker on
    point 1, Black's on 13, a 4 on the left half."""
    look = synth.Look(points=((200, 30, 30), (30, 30, 200)), field=(40, 160, 40),
                      texture="plain", noise=0.0, gradient=0.0, shadow=0.0,
                      shapes=synth.Shapes(**shapes))
    points = (1,) + (0,) * 11 + (-1,) + (0,) * 11
    return look, synth.Scene(points, dice=(synth.Die(4, (0.25, 0.5)),), look=look)


def _frame_pixel(rendered, x: float, y: float) -> np.ndarray:
    """The RGB colour the frame shows at field point (x, y)."""
    import cv2

    from bgboard.calibration.file import from_dict

    homography = from_dict(rendered.calibration).homography()
    u, v = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), homography)[0, 0]
    return rendered.image[round(v), round(u)][::-1].astype(int)


def test_default_shapes_draw_sharp_points_a_column_wide() -> None:
    look = synth.Look()
    for p in (1, 12, 13, 24):
        triangle = np.array(look.geometry.triangle(p, (39, 39), (756, 560))) * 16
        assert synth.point_outline(look, p, (39, 39), (756, 560)).tolist() == \
            triangle.astype(np.int32).tolist()
    assert synth.canvas_layout(look)[1] == (39 + 76 + 39, 39)  # frame 0.07 wide, a low tray


def test_narrow_points_with_round_tips_leave_the_field_beside_them() -> None:
    wide, narrow = (render(_plain(**shapes)[1], 0) for shapes in (
        {}, {"point_base": 0.7, "point_tip": 0.3}))
    look = _plain()[0]
    for p in (2, 11, 14, 23):  # bare points of either colour
        (left, base), _, (x, tip) = look.geometry.triangle(p)
        edge = (x + (left - x) * 0.9, base + (tip - base) * 0.03)  # inside the base's corner
        near_tip = (x, base + (tip - base) * 0.97)
        assert np.abs(_frame_pixel(wide, *edge) - look.points[p % 2]).max() < 30, p
        assert np.abs(_frame_pixel(narrow, *edge) - look.field).max() < 30, p
        assert np.abs(_frame_pixel(wide, *near_tip) - look.points[p % 2]).max() < 60, p
        assert np.abs(_frame_pixel(narrow, *near_tip) - look.field).max() < 30, p
    outline = synth.point_outline(replace(look, shapes=synth.Shapes(point_tip=0.3)), 1,
                                  (0, 0), (1000, 1000)) / 16
    (_, base), _, (_, tip) = look.geometry.triangle(1, (0, 0), (1000, 1000))
    assert len(outline) == 11  # the base's two corners and a round tip of nine
    assert abs(outline[:, 1] - base).max() < abs(tip - base)  # shorter than the sharp tip


def test_a_wider_frame_shows_frame_where_a_narrow_one_shows_the_table() -> None:
    look = _plain()[0]
    for width, seen in ((0.14, look.frame), (0.02, look.table)):
        framed, scene = _plain(frame=width)
        rendered = render(scene, 0)
        assert synth.canvas_layout(framed)[1][1] == round(width * 560), width
        for x in (0.25, 0.75):
            assert np.abs(_frame_pixel(rendered, x, -0.1) - seen).max() < 40, (width, x)
            assert np.abs(_frame_pixel(rendered, x, 1.1) - seen).max() < 40, (width, x)


def test_checker_rims_grooves_and_pips_follow_their_shapes() -> None:
    def image(**shapes) -> np.ndarray:
        return render(_plain(**shapes)[1], 0).image.astype(int)

    base = image()
    dark_rim, no_groove = image(rim=0.2, rim_shade=0.45), image(groove=0.0)
    changed = np.abs(dark_rim - base).max(-1) > 10
    assert changed.sum() > 50 and (dark_rim - base)[changed].sum() < 0  # darker, wider rims
    assert (np.abs(no_groove - base).max(-1) > 5).sum() > 10
    x0, y0, w, h = render(_plain()[1], 0).truth["dice"][0]["box_px"]
    x1, y1 = x0 + w, y0 + h

    def pip_pixels(img: np.ndarray) -> int:  # the die is white with black pips
        return int((img[y0:y1, x0:x1].max(-1) < 100).sum())

    small, large = pip_pixels(image(pip=0.06)), pip_pixels(image(pip=0.11))
    assert small > 0 and large > 2.5 * small
    assert np.array_equal(image(pip_spread=0.3)[:y0], base[:y0])  # only the die changes


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


def test_drawn_shapes_come_from_a_stream_of_their_own() -> None:
    """A seed's look is what it was before shapes were drawn, its shapes apart."""
    for seed in (3, 8):
        rng = np.random.default_rng([seed, drawn.STREAM])
        shapes = drawn.drawn_shapes(np.random.default_rng([seed, drawn.STREAM, drawn.SHAPES]))
        assert drawn.drawn_scene(seed).look == replace(drawn.drawn_look(rng), shapes=shapes)
    logo = drawn.held_out_scene(3, "logo").look
    assert logo.shapes == drawn.drawn_shapes(np.random.default_rng([3, drawn.STREAM, 2,
                                                                    drawn.SHAPES]))


def test_drawn_shapes_span_their_ranges() -> None:
    rng = np.random.default_rng(5)
    shapes = [drawn.drawn_shapes(rng) for _ in range(500)]

    def values(name: str) -> np.ndarray:
        return np.array([getattr(s, name) for s in shapes])

    for name, low, high in (("point_base", 0.7, 1.0), ("frame", 0.02, 0.14), ("rim", 0.03, 0.2),
                            ("rim_shade", 0.45, 0.95), ("pip_spread", 0.22, 0.3)):
        got = values(name)
        assert low <= got.min() < low + 0.05 * (high - low) and \
            high - 0.05 * (high - low) < got.max() <= high, name
    assert 0.4 < (values("point_tip") == 0).mean() < 0.6
    assert 0.15 < (values("groove") == 0).mean() < 0.35
    assert values("point_tip").max() > 0.28 and values("groove").max() > 0.78
    assert (values("pip") >= 0.06).all() and (values("pip") <= 0.45 * values("pip_spread")).all()


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
