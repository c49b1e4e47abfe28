"""Reading frames: checkers (stacks, bar, colours), dice, hands, confidence, bad frames."""

from dataclasses import replace

import numpy as np
import pytest

from bgboard.calibration.file import from_dict
from bgboard.vision.read import Reader
from bgboard.vision.synthetic import DICE, START_POINTS, Die, Scene, random_scene, render
from vision_helpers import calibrated, learned_from_start


def _read(rendered, cal):
    return Reader(cal).read(rendered.image)


@pytest.mark.parametrize("seed", [3, 5, 8, 21, 34])
def test_random_frames_are_read_exactly(seed):
    rendered, cal = calibrated(seed, hand=0.0)
    obs = _read(rendered, cal)
    assert obs["points"] == rendered.truth["points"]
    assert obs["bar"] == rendered.truth["bar"]
    assert obs["off"] == rendered.truth["off"]
    assert obs["hand"] is False


STACKS = (0, -6, 0, 0, 0, -9, 0, 0, 0, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
THIRTY_ONE = (-2, 6, 0, 0, 0, 9, 0, 0, 1, 0, 0, -7, 15, 0, 0, 0, -3, 0, 0, 0, 0, 0, 0, 0)


@pytest.mark.parametrize("seed", [2, 4])
def test_rows_longer_than_the_triangle_and_a_stack_of_fifteen(seed):
    look = random_scene(seed).look
    obs = _read(render(Scene(STACKS, look=look), seed), learned_from_start(look, seed + 99))
    assert obs["points"] == list(STACKS)
    assert obs["bar"] == {"white": 0, "black": 0}
    assert obs["off"] == {"white": 0, "black": 0}


@pytest.mark.parametrize("seed", [2, 4])
def test_a_board_of_more_than_fifteen_of_a_set_reads_within_fifteen_unsure(seed):
    look = random_scene(seed).look
    scene = Scene(THIRTY_ONE, {"white": 0, "black": 3}, look=look)
    obs = _read(render(scene, seed), learned_from_start(look, seed + 99))
    # 31 light checkers cannot be right: the likeliest board within 15 keeps the pile of 15
    assert obs["points"] == [-2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7, 15, 0, 0, 0, -3, 0, 0, 0, 0,
                             0, 0, 0]
    assert obs["bar"] == {"white": 0, "black": 3}
    assert obs["confidence"] < 0.5


def test_dice_values_places_and_a_cocked_die():
    look = replace(random_scene(14).look, dice=DICE[0], die_size=0.046)  # 26 px white dice
    dice = (Die(3, (0.25, 0.5), 20.0), Die(6, (0.75, 0.5), 65.0, cocked=True))
    obs = _read(render(Scene(START_POINTS, dice=dice, look=look), 14), learned_from_start(look, 15))
    assert obs["points"] == list(START_POINTS)
    found = sorted(obs["dice"], key=lambda d: d["field_xy"][0])
    assert [d["value"] for d in found] == [3, 6]
    assert [d["cocked"] for d in found] == [False, True]
    assert np.allclose([d["field_xy"] for d in found], [(0.25, 0.5), (0.75, 0.5)], atol=0.02)


def test_a_hand_over_the_field_is_flagged_with_low_confidence():
    look = random_scene(6).look
    rendered = render(Scene(START_POINTS, hand=True, look=look), 6)
    obs = _read(rendered, learned_from_start(look, 7))
    assert obs["hand"] is True
    assert obs["confidence"] < 0.5


def test_a_calibration_with_only_the_required_keys_reads_the_start():
    look = random_scene(3).look
    rendered = render(Scene(START_POINTS, look=look), 3)
    obs = Reader(from_dict(rendered.calibration)).read(rendered.image)
    assert obs["points"] == list(START_POINTS)


def test_empty_and_wrong_size_frames_are_refused():
    rendered, cal = calibrated(3, hand=0.0)
    reader = Reader(cal)
    with pytest.raises(ValueError, match="empty image"):
        reader.read(np.zeros((0, 0, 3), np.uint8))
    with pytest.raises(ValueError, match="image is 640x480, the calibration is for 1280x720"):
        reader.read(np.zeros((480, 640, 3), np.uint8))


def test_light_grey_points_are_board_not_light_checkers_in_shadow():
    """A light grey triangle looks like a light checker in shadow: the board wins the tie."""
    look = random_scene(2).look
    look = replace(look, checkers=((252, 252, 250), look.checkers[1]),
                   points=((150, 45, 50), (200, 202, 200)))
    points = (0, 3, 0, 0, 0, 5, 0, 0, 0, 0, 0, -5, 0, 0, 0, 0, 0, 0, -5, 0, 0, 0, 0, 0)
    rendered = render(Scene(points, look=look), 6)
    obs = _read(rendered, learned_from_start(look, 6))
    assert obs["points"] == list(points)

