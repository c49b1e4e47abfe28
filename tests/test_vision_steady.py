"""The field followed when the camera or the board is bumped (vision.steady): a moved field
is found again to within a few pixels, a lost one stops the reading, a steady one with its
checkers moved stays put."""

from functools import cache

import cv2
import numpy as np
import pytest

from bgboard.calibration.file import CORNERS, from_dict
from bgboard.vision.steady import Change, FieldWatch, SteadyReader, describe
from bgboard.vision.synth import Scene, random_scene, render


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
    change = watch.update(image)
    truth = cv2.transform(np.float32([cal.corners_px[k] for k in CORNERS])[None], m)[0]
    assert error(change, truth) < 3.0
    assert change.shift == pytest.approx(np.linalg.norm(truth - np.float32(
        [cal.corners_px[k] for k in CORNERS]), axis=1).max(), abs=3.0)
    assert watch.update(image) is None  # and stays found
    assert change.calibration.extra == cal.extra and change.calibration.geometry == cal.geometry


def test_a_lost_field_stops_the_reading_until_it_is_found_again():
    first, second, cal = shots()
    changes = []
    reader = SteadyReader(cal, changes.append)
    assert reader.read(first.image)["points"] == first.truth["points"]
    covered = np.full_like(first.image, 90)
    for _ in range(2):
        with pytest.raises(ValueError, match="the board is not where it was"):
            reader.read(covered)
    assert [c.calibration for c in changes] == [None]
    assert describe(changes[0]) == "not where it was and not found again: not read until it is"
    image, _ = bumped(second.image, 2.0, 30, 10)
    assert reader.read(image)["points"] == second.truth["points"]
    assert len(changes) == 2 and describe(changes[1]).startswith("moved ")
    assert reader.read(second.image)["points"] == second.truth["points"]
    assert changes[2].shift == 0 and describe(changes[2]) == "back where it was calibrated"


def test_a_frame_of_another_size_is_refused_before_it_is_watched():
    _, _, cal = shots()
    with pytest.raises(ValueError, match="the calibration is for 1280x720"):
        SteadyReader(cal).read(np.zeros((480, 640, 3), np.uint8))
