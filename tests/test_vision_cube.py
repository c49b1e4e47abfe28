"""The doubling cube in a photo: what its number and side tell, and the shipped nets finding
and reading it in rendered frames."""

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from bgboard.calibration.file import Calibration, from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.controller.cli import main
from bgboard.controller.photo import position_ids
from bgboard.vision import cube
from bgboard.vision.synthetic import START_POINTS, Cube, Scene, random_scene, render

SEED = 11
CORNERS = {"p1": (1100, 640), "p12": (180, 640), "p13": (180, 80), "p24": (1100, 80)}


@pytest.mark.parametrize(("face", "y", "told"), [
    (64, 0.5, (1, None)), (64, 0.1, (1, None)),  # 64 up: in the middle wherever it lies
    (2, 0.1, (2, "white")), (16, 0.9, (16, "black")),
    (4, 0.45, (4, None)), (4, 0.65, (4, None)), (4, 0.7, (4, "black")),  # the middle band
])
def test_the_number_on_top_and_the_side_tell_value_and_owner(face, y, told):
    assert cube.ownership(face, y) == {"value": told[0], "owner": told[1]}


def test_the_owner_turns_with_the_naming_of_the_corners():
    size = (1280, 720)
    white_low = FieldView(Calibration(size, CORNERS))
    turned = FieldView(Calibration(size, {"p1": CORNERS["p13"], "p12": CORNERS["p24"],
                                          "p13": CORNERS["p1"], "p24": CORNERS["p12"]}))
    seen = {"face": 2, "px": [640.0, 584.0], "confidence": 0.9}  # a tenth above the low edge
    assert cube.seen_through(seen, white_low) == {**seen, "field_xy": [0.5, 0.1],
                                                  "value": 2, "owner": "white"}
    assert cube.seen_through(seen, turned) == {**seen, "field_xy": [0.5, 0.9],
                                               "value": 2, "owner": "black"}


def _shot(cube_on=None, seed: int = SEED):
    """A start position on random look `seed` (its tray at the low end) with the cube."""
    look = random_scene(seed, hand=0.0).look
    return render(Scene(START_POINTS, look=look, cube=cube_on), seed)


@pytest.mark.parametrize(("face", "xy", "told"), [
    (64, "bar", (1, None)),  # in the middle of the bar: nobody's
    (2, (-0.08, 0.15), (2, "white")),  # in the tray beside White's 1-point
    (8, "bar high", (8, "black")),  # on the bar at Black's edge
    (16, (1.03, 0.8), (16, "black")),  # on the frame beside Black's 13-point
    (32, (0.75, 0.5), (32, None)),  # on the field, in the middle: whose cannot be told
])
def test_a_rendered_cube_is_found_and_its_number_read(face, xy, told):
    look = random_scene(SEED, hand=0.0).look
    bar = sum(look.geometry.bar_x) / 2
    at = {"bar": (bar, 0.5), "bar high": (bar, 0.85)}.get(xy, xy)
    shot = _shot(Cube(face, at, angle=25.0, size=0.06))
    seen = cube.find_cube(shot.image, FieldView(from_dict(shot.calibration)))
    assert seen is not None and (seen["face"], seen["value"], seen["owner"]) == (face, *told)
    assert np.hypot(*np.subtract(seen["field_xy"], at)) < 0.03


def test_no_cube_is_read_where_there_is_none():
    for seed in range(6):
        shot = render(replace(random_scene(seed, hand=0.0), cube=None), seed)
        assert cube.find_cube(shot.image, FieldView(from_dict(shot.calibration))) is None


def test_read_find_cube_puts_the_cube_in_the_observation_and_the_xgid(tmp_path, capsys):
    look = random_scene(SEED, hand=0.0).look
    shot = _shot(Cube(8, (sum(look.geometry.bar_x) / 2, 0.85), angle=25.0, size=0.06))
    photo, cal = tmp_path / "photo.png", tmp_path / "cal.json"
    cv2.imwrite(str(photo), shot.image)
    cal.write_text(json.dumps(shot.calibration))
    assert main(["read", str(photo), "--calibration", str(cal), "--json", "--find-cube"]) == 0
    obs = json.loads(capsys.readouterr().out)
    assert {k: obs["cube"][k] for k in ("face", "value", "owner")} == \
        {"face": 8, "value": 8, "owner": "black"}
    assert obs["xgid"] == position_ids(obs, "white", 8, "black")["xgid"]
    assert obs["xgid"].split(":")[1:3] == ["3", "1"]  # cube 2^3, Black's
    assert main(["read", str(photo), "--calibration", str(cal), "--json"]) == 0
    assert "cube" not in json.loads(capsys.readouterr().out)  # not asked: not looked for
