"""Shared helpers of the vision tests: rendered frames with a calibration learned like a user's."""

from __future__ import annotations

import json
from functools import cache

import cv2

from bgboard.calibration.file import from_dict
from bgboard.vision.learn import learn
from bgboard.vision.synthetic import START_POINTS, Scene, random_scene, render


@cache
def calibrated(seed: int, **options):
    """(rendered frame of random scene `seed`, calibration learned from its look's start)."""
    scene = random_scene(seed, **options)
    start = render(Scene(START_POINTS, look=scene.look), seed + 1_000_000)
    return render(scene, seed), learn(start.image, from_dict(start.calibration))


def learned_from_start(look, seed: int):
    """The calibration `bgboard calibrate` learns from the start position rendered on `look`."""
    start = render(Scene(START_POINTS, look=look), seed)
    return learn(start.image, from_dict(start.calibration))


def write_frame(tmp_path, rendered, cal, name="frame.png"):
    """The frame as a PNG and the calibration as a JSON file in tmp_path."""
    image, cal_path = tmp_path / name, tmp_path / "cal.json"
    cv2.imwrite(str(image), rendered.image)
    cal_path.write_text(json.dumps(cal.to_dict()))
    return image, cal_path


