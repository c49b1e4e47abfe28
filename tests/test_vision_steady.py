"""The field followed when the camera or the board is bumped (vision.steady): a moved field
is found again to within a few pixels once SETTLE frames agree, a lost one stops the reading,
a steady one with its checkers moved, a hand over it or a lamp switched on stays put."""

from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from bgboard.benchmarks.faults import lamp_on
from bgboard.calibration.file import CORNERS, from_dict
from bgboard.controller.demo.film import film_calibration, film_match, render_frames
from bgboard.vision.steady import (
    LOST_AFTER,
    SETTLE,
    Change,
    FieldWatch,
    SteadyReader,
    describe,
)
from bgboard.vision.synthetic import Scene, draw_arm, random_scene, render
from bgboard.vision.synthetic.looks import family_look


@cache
def shots(seed: int = 4):
    """Two positions in one look, and the calibration of the first."""
    look = random_scene(seed, hand=0.0).look
    first = render(Scene(random_scene(seed).points, look=look), seed)
    second = render(Scene(random_scene(seed + 1).points, look=look), seed + 1)
    return first, second, from_dict(first.calibration)


def bumped(image, turn: float, dx: float, dy: float):
    """The picture as a camera turned by `turn` degrees and shifted by (dx, dy) sees it, and
    that map."""
    m = cv2.getRotationMatrix2D((640, 360), turn, 1.0)
    m[:, 2] += (dx, dy)
    return cv2.warpAffine(image, m, (1280, 720), borderMode=cv2.BORDER_REPLICATE), m


def error(change: Change, truth) -> float:
    found = np.array([change.calibration.corners_px[k] for k in CORNERS])
    return float(np.linalg.norm(found - truth, axis=1).max())


@pytest.mark.parametrize(("turn", "dx", "dy"), [(1.5, 25, -12), (0, -40, 0), (-6, 150, 60)])
def test_a_bumped_camera_is_seen_and_the_corners_found_again(turn, dx, dy):
    first, second, cal = shots()
    watch = FieldWatch(cal)
    assert watch.update(first.image) is None
    assert watch.update(second.image) is None  # checkers moved: the field did not
    image, m = bumped(second.image, turn, dx, dy)
    assert [watch.update(image) for _ in range(SETTLE - 1)] == [None] * (SETTLE - 1)
    assert watch.settling
    change = watch.update(image)
    truth = cv2.transform(np.float32([cal.corners_px[k] for k in CORNERS])[None], m)[0]
    assert error(change, truth) < 3.0
    assert change.shift == pytest.approx(np.linalg.norm(truth - np.float32(
        [cal.corners_px[k] for k in CORNERS]), axis=1).max(), abs=3.0)
    assert watch.update(image) is None  # and stays found
    assert change.calibration.extra == cal.extra and change.calibration.geometry == cal.geometry


def arm_over(image, seed: int, corners):
    """The picture with an arm reaching in over the board's edge (synth.draw_arm)."""
    rgb = image[..., ::-1].astype(np.float32)
    draw_arm(rgb, np.random.default_rng(seed), corners)
    return np.clip(rgb, 0, 255).astype(np.uint8)[..., ::-1].copy()


def test_a_lamp_switched_on_and_arms_over_the_board_move_nothing():
    first, second, cal = shots()
    corners = [cal.corners_px[k] for k in CORNERS]
    frames = [first.image, second.image] + [lamp_on(second.image)] * 8 + \
        [arm_over(lamp_on(second.image), seed, corners) for seed in range(6)] + \
        [lamp_on(second.image)] * 4
    watch = FieldWatch(cal)
    assert [watch.update(frame) for frame in frames] == [None] * len(frames)
    assert not watch.settling and not watch.lost
    assert np.array_equal(watch.corners, watch.first)


def test_a_still_camera_over_a_whole_filmed_game_is_never_said_to_move():
    """A glossy board (lamp glare on thick checkers), hands in every turn: the watch before
    SETTLE and the ring's edges took frame 394, just after a hand, for a bump of 11 px."""
    film = film_match(5, look=family_look(np.random.default_rng([5, 99]), "glossy"))
    watch = FieldWatch(from_dict(film_calibration(film)))
    assert [i for i, frame in enumerate(render_frames(film, 5)) if watch.update(frame)] == []


def test_a_lost_field_stops_the_reading_until_it_is_found_again():
    first, second, cal = shots()
    changes = []
    reader = SteadyReader(cal, changes.append)
    assert reader.read(first.image)["points"] == first.truth["points"]
    covered = np.full_like(first.image, 90)
    for _ in range(LOST_AFTER - 1):  # a moment covered (a hand, an arm) is not lost
        with pytest.raises(ValueError, match="the board is not seen in this frame"):
            reader.read(covered)
    assert changes == []
    for _ in range(2):
        with pytest.raises(ValueError, match="the board is not where it was"):
            reader.read(covered)
    assert [c.calibration for c in changes] == [None]
    assert describe(changes[0]) == "not where it was and not found again: not read until it is"
    image, _ = bumped(second.image, 2.0, 30, 10)
    for _ in range(SETTLE - 1):  # found, but not yet in SETTLE frames in a row
        with pytest.raises(ValueError, match="the board is not where it was"):
            reader.read(image)
    assert reader.read(image)["points"] == second.truth["points"]
    assert len(changes) == 2 and describe(changes[1]).startswith("moved ")
    for _ in range(SETTLE - 1):
        with pytest.raises(ValueError, match="the board seems to have moved: waiting"):
            reader.read(second.image)
    assert reader.read(second.image)["points"] == second.truth["points"]
    assert changes[2].shift == 0 and describe(changes[2]) == "back where it was calibrated"


def test_a_frame_of_another_size_is_refused_before_it_is_watched():
    _, _, cal = shots()
    with pytest.raises(ValueError, match="the calibration is for 1280x720"):
        SteadyReader(cal).read(np.zeros((480, 640, 3), np.uint8))


def test_moved_corners_that_read_another_board_are_refused():
    first, _, cal = shots()
    changes = []
    reader = SteadyReader(cal, changes.append)
    assert reader.read(first.image)["points"] == first.truth["points"]
    before = reader.watch.corners
    off = {k: (x + 40.0, y) for k, (x, y) in cal.corners_px.items()}  # a point and more off
    reader.watch.update = lambda image: Change(replace(cal, corners_px=off), 40.0)
    assert reader.read(first.image)["points"] == first.truth["points"]
    assert changes == [] and reader.cal.corners_px == cal.corners_px
    assert np.array_equal(reader.watch.corners, before)
