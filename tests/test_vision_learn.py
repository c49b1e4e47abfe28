"""Learning a board from its start position: the checker sets' colours and the diameter."""

import cv2
import numpy as np
import pytest

from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision.learn import learn
from bgboard.vision.synthetic import START_POINTS, Scene, render
from bgboard.vision.synthetic.drawn import drawn_scene, held_out_scene


def _start(look, seed: int):
    start = render(Scene(START_POINTS, look=look), seed, shot=1)
    return start.image, from_dict(start.calibration)


@pytest.mark.parametrize("scene, seed", [(held_out_scene(30, "tournament-felt"), 30),
                                         (drawn_scene(28), 28), (drawn_scene(50), 50)],
                         ids=["felt-pink-on-pink", "drawn-one-row-short", "drawn-two-rows-lost"])
def test_a_board_whose_sets_show_on_two_rows_only_is_learned(scene, seed):
    # on these boards one or two of the five-checker rows lie on points coloured much as
    # their set, and measure short or not at all: the rows that agree give the diameter
    image, cal = _start(scene.look, seed)
    view = FieldView(cal)
    learned = learn(image, cal)
    diameter = learned.extra["checker_diameter"] * view.w
    true = scene.look.checker_ratio * view.geo.column_width * view.w
    assert abs(diameter - true) < 0.15 * true  # as on boards whose four rows all measure
    sets = cv2.cvtColor(np.uint8([scene.look.checkers]), cv2.COLOR_BGR2LAB)[0].astype(float)
    colours = learned.extra["colours"]
    for learned_set, own, other in ((colours["light"], *sets), (colours["dark"], *sets[::-1])):
        assert np.linalg.norm(learned_set - own) < np.linalg.norm(learned_set - other)


def test_a_blank_frame_teaches_nothing():
    blank = np.full((720, 1280, 3), 128, np.uint8)
    _, cal = _start(drawn_scene(28).look, 28)
    with pytest.raises(ValueError, match="five-checker rows are not told from the board"):
        learn(blank, cal)
