"""Dice on a calibrated board's field: candidates from the stranger mask, reading a patch."""

from dataclasses import replace
from functools import cache

import numpy as np

from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision import dice
from bgboard.vision.learn import learn
from bgboard.vision.read import Reader
from bgboard.vision.synth import DICE, START_POINTS, Die, Scene, random_scene, render


@cache
def _board(seed: int = 14):
    """A look with white dice and its FieldView, calibrated from a start frame."""
    look = replace(random_scene(seed).look, dice=DICE[0])
    start = render(Scene(START_POINTS, look=look), seed + 1)
    view = FieldView(learn(start.image, from_dict(start.calibration)))
    return look, view, view.cal.extra.get("die_size", dice.DIE_SIZE) * view.h


def _mask(view) -> np.ndarray:
    """An empty half-size stranger mask of the view's rectified field."""
    return np.zeros((view.size[1] // 2, view.size[0] // 2), bool)


def test_weighted_distance_is_the_weighted_lab_norm():
    lab = np.random.default_rng(0).uniform(0, 255, (7, 9, 3)).astype(np.float32)
    colour = np.float32([120, 130, 110])
    expected = np.sqrt((((lab - colour) * dice.LAB_WEIGHTS) ** 2).sum(-1))
    assert np.allclose(dice._weighted(lab, colour), expected, atol=1e-3)


def test_a_die_merged_with_a_stripe_is_still_a_candidate():
    _, view, die_rect = _board()
    side = round(die_rect / 2)  # the die's side in half-size pixels
    x, y = (round(v / 2) for v in view.to_rect((0.3, 0.5)))
    stranger = _mask(view)
    stranger[y - side // 2:y + side // 2 + 1, x - side // 2:x + side // 2 + 1] = True
    stranger[y - 1:y + 1, x:x + 6 * side] = True  # a triangle's edge, 2 px wide, 6 dice long
    found = dice.blob_candidates(stranger, _mask(view).view(np.uint8), view, [], die_rect)
    assert len(found) == 1
    assert np.hypot(found[0][0] - 2 * x, found[0][1] - 2 * y) < 0.25 * die_rect
    stranger[y - side // 2:y + side // 2 + 1, x - side // 2:x + side // 2 + 1] = False
    assert dice.blob_candidates(stranger, _mask(view).view(np.uint8), view, [], die_rect) == []


def test_a_leaning_die_off_the_patch_middle_is_read_around_itself():
    look, view, die_rect = _board()
    die = Die(4, (0.3, 0.5), 30.0, cocked=True)
    frame = render(Scene(START_POINTS, dice=(die,), look=look), 14).image
    centre = np.array(view.to_rect(die.field_xy))
    off = centre + (0.3 * die_rect, 0.0)  # where a blob of its side face alone would put it
    value, cocked, _, at = dice._read_at(frame, view, off, die_rect)
    assert (value, cocked) == (4, True)
    assert np.hypot(*(at - centre)) < 0.3 * die_rect


def test_a_die_wedged_against_two_checkers_is_read():
    look, view, _ = _board()
    row = view.row("19")  # five dark checkers
    for value in (3, 5):
        # beside the stack, where its first two checkers meet: within the blot of both
        at = view.to_field(np.array(row.base) + (-0.5 * view.d, row.direction * 1.1 * view.d))
        die = Die(value, at, 20.0)
        frame = render(Scene(START_POINTS, dice=(die,), look=look), 3).image
        found = Reader(view.cal).read(frame)["dice"]
        assert [(d["value"], d["cocked"]) for d in found] == [(value, False)]
        assert np.hypot(*np.subtract(found[0]["field_xy"], at)) < 0.01
