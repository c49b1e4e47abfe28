"""Hands over the field: the bare board's layout, arms the colour of the frame, fixed shading,
films judged against the last frame seen clear."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bgboard.benchmarks.faults import lamp_on
from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision import checkers, hand
from bgboard.vision.learn import learn
from bgboard.vision.read import Reader
from bgboard.vision.synthetic import (
    SKINS,
    START_POINTS,
    Scene,
    random_look,
    random_scene,
    render,
    with_look,
)
from bgboard.vision.synthetic.looks import family_scene
from vision_helpers import learned_from_start


def _finder_and_fields(look, seed: int, scenes):
    """ArmFinder of a calibration learned from the start (rendered with `seed`, so with the
    same room light as the frames) and the evened fields and classes of the scenes' frames."""
    start = render(Scene(START_POINTS, look=look), seed)
    cal = learn(start.image, from_dict(start.calibration))
    view, colours = FieldView(cal), cal.extra["colours"]
    classify = checkers.Classifier(colours)
    out = []
    for scene in scenes:
        even = checkers.even_lab(view.warp_half(render(scene, seed).image), view, colours)
        out.append((even, checkers.classify_small(even, classify)))
    return hand.ArmFinder(view, colours), out


def test_the_bare_board_puts_frame_field_triangles_and_bar_where_the_geometry_says():
    start = render(Scene(START_POINTS))
    view = FieldView(from_dict(start.calibration))
    labels = hand.bare_board(view, 0.5)
    m, geo = view.m / 2, view.geo

    def at(x, y):
        return labels[round(m + y * view.h / 2), round(m + x * view.w / 2)]

    assert labels[1, 1] == 0
    assert at(geo.point_x(1), 0.05) == 3 and at(geo.point_x(2), 0.05) == 2
    assert at(geo.point_x(13), 0.95) == 3 and at(geo.point_x(14), 0.95) == 2
    assert at(sum(geo.bar_x) / 2, 0.5) == 4
    assert at(geo.point_x(3), 0.5) == 1


def test_an_arm_the_colour_of_the_frame_is_found_in_the_field():
    look = with_look(Scene(START_POINTS), frame=SKINS[3]).look
    finder, fields = _finder_and_fields(look, 4, [Scene(START_POINTS, look=look),
                                                  Scene(START_POINTS, hand=True, look=look)])
    assert [finder(even, cls) for even, cls in fields] == [False, True]


def test_a_fixed_shadow_over_the_frame_band_is_no_arm():
    look = random_look(np.random.default_rng(3))
    assert look.blob_shadow > 0.25
    scenes = [Scene(START_POINTS, look=look), Scene(START_POINTS, look=look, hand=True)]
    scenes += [Scene(tuple(p), look=look) for p in _positions()]
    finder, fields = _finder_and_fields(look, 3, scenes)
    assert [finder(even, cls) for even, cls in fields] == [False, True] + [False] * 3


def _positions():
    """A few boards unlike the start (checkers moved near the frame band)."""
    moved = []
    for shift in (1, 2, 3):
        points = list(START_POINTS)
        points[5], points[5 - shift] = 5 - shift, shift
        moved.append(points)
    return moved


def test_calibration_keeps_the_frame_band_as_the_start_frame_shows_it():
    look = random_look(np.random.default_rng(3))
    start = render(Scene(START_POINTS, look=look), 3)
    cal = learn(start.image, from_dict(start.calibration))
    view = FieldView(cal)
    even = checkers.even_lab(view.warp_half(start.image), view, cal.extra["colours"])
    learned = cal.extra["colours"]["band"]
    assert [len(p) for p in learned] == [len(p) for p in hand.side_profiles(even, view.m / 2)]
    assert cv2.absdiff(np.uint8(learned[1]), np.uint8(np.rint(
        hand.side_profiles(even, view.m / 2)[1]))).max() <= 1


def test_an_arm_the_colour_of_the_light_checkers_is_found():
    scene = random_scene(185, hand=0.1, cocked=0.15)
    assert scene.hand  # a pale arm, near the cream checkers (243, 221, 202) in colour
    bare = Scene(scene.points, scene.bar, look=scene.look)
    finder, fields = _finder_and_fields(scene.look, 185, [bare, scene])
    assert [finder(even, cls) for even, cls in fields] == [False, True]
    assert [finder.wide_checker(finder.marks(even, cls)[1]) for even, cls in fields] == [
        False, True]


def _film(cal, images):
    """Each frame's `hand` read by one Reader, as `play` and `record` read a camera's frames."""
    reader = Reader(cal)
    return [reader.read(image)["hand"] for image in images]


@pytest.mark.parametrize("learned", [False, True])
def test_a_film_judges_each_frame_against_the_last_one_seen_clear(learned):
    scene = random_scene(185, hand=0.1, cocked=0.15)
    look = scene.look
    start = render(Scene(START_POINTS, look=look), 185)
    cal = from_dict(start.calibration)
    cal = learn(start.image, cal) if learned else cal
    moved = [render(Scene(tuple(p), look=look), 185).image for p in _positions()]
    images = [start.image, *moved[:2], render(scene, 185).image, moved[2]]
    assert _film(cal, images) == [False, False, False, True, False]


def test_a_film_that_starts_with_an_arm_settles_on_the_first_clear_frame():
    look = random_scene(6).look
    cal = learned_from_start(look, 7)
    arm = render(Scene(START_POINTS, hand=True, look=look), 6).image
    clear = render(Scene(START_POINTS, look=look), 6).image
    assert _film(cal, [arm, arm, clear, arm, clear]) == [True, True, False, True, False]


def test_after_stuck_still_frames_with_a_hand_what_they_show_is_the_board(monkeypatch):
    """Something laid on the frame and left there: once STUCK frames in a row stood still
    with it, it is the board, and the frame without it is new."""
    monkeypatch.setattr(hand, "STUCK", 3)
    look = random_scene(6).look
    arm = render(Scene(START_POINTS, hand=True, look=look), 6).image
    clear = render(Scene(START_POINTS, look=look), 6).image
    assert _film(learned_from_start(look, 7), [clear, arm, arm, arm, arm, clear]) == [
        False, True, True, True, False, True]


@pytest.mark.parametrize("learned", [False, True])
def test_a_lamp_switched_on_is_no_hand_and_arms_are_still_seen_after_it(learned):
    """Against the last frame seen clear, a lamp switched on changed every side of the band:
    without `relit` every later frame was a hand, and a recording stalled for the evening."""
    look = random_look(np.random.default_rng(3))  # film 3's board, whose recording stalled
    arm = render(Scene(START_POINTS, hand=True, look=look), 3).image
    clear = render(Scene(START_POINTS, look=look), 3).image
    cal = learned_from_start(look, 3) if learned else from_dict(render(Scene(START_POINTS,
                                                                          look=look)).calibration)
    lit, lit_arm = lamp_on(clear), lamp_on(arm)
    assert _film(cal, [clear, arm, clear, lit, lit, lit_arm, lit, lit_arm, lit]) == [
        False, True, False, False, False, True, False, True, False]


def test_the_hand_net_judges_frames_of_a_look_it_never_saw_alone():
    """A photo read on its own has no frame before it: the hand net alone says whether an arm
    is over the field (marble is held out of its training)."""
    seen = []
    for seed in range(900_000, 900_006):
        shot = render(family_scene(seed, "marble", hand=0.5), seed)
        half = FieldView(from_dict(shot.calibration)).warp_half(shot.image)
        seen.append((shot.truth["hand"], hand.seen_alone(half)))
    assert seen == [(True, True)] * 4 + [(False, False), (True, True)]
