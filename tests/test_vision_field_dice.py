"""Dice on a calibrated board's field: the finder's centres, the reader's values, whole frames."""

from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision import dice, models
from bgboard.vision.learn import learn
from bgboard.vision.read import Reader
from bgboard.vision.synthetic import DICE, START_POINTS, Die, Scene, random_scene, render
from bgboard.vision.synthetic.looks import family_scene


@cache
def _board(seed: int = 14):
    """A look with white dice and its FieldView, calibrated from a start frame."""
    look = replace(random_scene(seed).look, dice=DICE[0])
    start = render(Scene(START_POINTS, look=look), seed + 1)
    view = FieldView(learn(start.image, from_dict(start.calibration)))
    return look, view, dice.DIE_SIZE * view.h


def _read(*placed: Die, seed: int = 3) -> list[dict]:
    look, view, _ = _board()
    frame = render(Scene(START_POINTS, dice=placed, look=look), seed).image
    return Reader(view.cal).read(frame)["dice"]


def _near(a, b) -> bool:
    return bool(np.hypot(*np.subtract(a, b)) < 0.01)


def test_a_bare_start_position_has_no_dice():
    assert _read() == []


@pytest.mark.parametrize("value", range(1, 7))
def test_every_value_is_read_where_it_lies(value):
    at = (0.27, 0.42)
    found = _read(Die(value, at, 17.0 * value))
    assert [(d["value"], d["cocked"]) for d in found] == [(value, False)]
    assert _near(found[0]["field_xy"], at)


def test_two_dice_are_two_dice():
    a, b = Die(6, (0.66, 0.45), 40.0), Die(2, (0.76, 0.55), 5.0)
    found = sorted(_read(a, b), key=lambda d: d["field_xy"][0])
    assert [d["value"] for d in found] == [6, 2]
    assert _near(found[0]["field_xy"], a.field_xy) and _near(found[1]["field_xy"], b.field_xy)


def test_a_leaning_die_is_read_and_flagged_cocked():
    found = _read(Die(4, (0.3, 0.5), 30.0, cocked=True), seed=14)
    assert [(d["value"], d["cocked"]) for d in found] == [(4, True)]


def test_a_die_wedged_against_two_checkers_is_read():
    _, view, _ = _board()
    row = view.row("19")  # five dark checkers
    for value in (3, 5):
        # beside the stack, where its first two checkers meet
        at = view.to_field(np.array(row.base) + (-0.5 * view.d, row.direction * 1.1 * view.d))
        found = _read(Die(value, at, 20.0))
        assert [(d["value"], d["cocked"]) for d in found] == [(value, False)]
        assert _near(found[0]["field_xy"], at)


def test_finder_centres_are_placed_finer_than_its_cells():
    look, view, die_rect = _board()
    at = (0.3137, 0.6071)  # not at a cell's middle
    frame = render(Scene(START_POINTS, dice=(Die(5, at, 10.0),), look=look), 3).image
    centres = 2 * dice.find_centres(view.warp_half(frame), dice.nets()[0])
    assert np.hypot(*(centres - view.to_rect(at)).T).min() < 0.1 * die_rect


def test_the_reader_says_no_die_on_bare_board():
    look, view, die_rect = _board()
    frame = render(Scene(START_POINTS, look=look), 3).image
    bare = [view.to_rect(xy) for xy in ((0.3, 0.5), (0.7, 0.3), (0.1, 0.6))]
    probs, _ = dice.read_patches(np.stack([dice.die_patch(frame, view, c, die_rect)
                                           for c in bare]), dice.nets()[1])
    assert (probs[:, 0] > 0.9).all()


class CountingReader:
    """The shipped field-dice reader, counting the patches it is given."""

    def __init__(self):
        self.net, self.patches = dice.nets()[1], 0

    def setInput(self, x):  # noqa: N802  (cv2.dnn.Net's name)
        self.patches += len(x)
        self.net.setInput(x)

    def forward(self):
        return self.net.forward()


def test_a_die_sure_at_the_expected_size_is_read_once_and_a_bare_place_at_every_size():
    look, view, die_rect = _board()
    at = (0.27, 0.42)
    frame = render(Scene(START_POINTS, dice=(Die(4, at, 30.0),), look=look), 3).image
    places = np.array([view.to_rect(at), view.to_rect((0.7, 0.3))])
    counting = CountingReader()
    probs, _, sizes = dice.best_reading(frame, view, places, die_rect, counting)
    sure = dice.surety(probs)
    # both at the expected size, the bare place at the 2 others; neither again in eight views
    # (the die is surer than ONE_SIZE, the bare place less sure than PLAUSIBLE)
    assert counting.patches == 2 + 2
    assert probs[0, 1:].argmax() + 1 == 4 and sure[0] >= dice.ONE_SIZE
    assert sizes[0] == die_rect and sure[1] < dice.SURE


@pytest.mark.parametrize(("seed", "values"), [(0, []), (5, [3])])
def test_glossy_checkers_highlights_are_not_dice(seed, values):
    # thick glossy checkers under a lamp, each with one bright spot: read at twice a die's
    # size a checker filled the patch and its spot read as a 1 (3 and 5 false dice here)
    scene = family_scene(seed, "glossy", hand=0.1, cocked=0.15)
    start = render(Scene(START_POINTS, look=scene.look), seed + 1_000_000)
    frame = render(scene, seed)
    assert sorted(d["value"] for d in frame.truth["dice"]) == values
    read = Reader(from_dict(start.calibration)).read(frame.image)["dice"]
    assert sorted(d["value"] for d in read) == values


def test_a_patch_reads_the_same_turned_or_mirrored():
    look, view, die_rect = _board()
    frame = render(Scene(START_POINTS, dice=(Die(2, (0.27, 0.42), 30.0),), look=look), 3).image
    patch = dice.die_patch(frame, view, view.to_rect((0.27, 0.42)), die_rect)
    reader = dice.nets()[1]
    views = np.stack([patch, np.rot90(patch), patch[:, ::-1], np.rot90(patch, 3)[::-1]])
    probs, lean = dice.read_views(views, reader)
    assert probs[:, 1:].argmax(1).tolist() == [1, 1, 1, 1]  # a 2 in every view
    np.testing.assert_allclose(probs, probs[[0, 0, 0, 0]], atol=1e-5)
    np.testing.assert_allclose(lean, lean[[0, 0, 0, 0]], atol=1e-5)


def test_an_unsure_die_is_weighed_with_the_any_photo_readers_a_sure_one_and_no_die_kept():
    look, view, die_rect = _board()
    at = (0.27, 0.42)
    frame = render(Scene(START_POINTS, dice=(Die(4, at, 30.0),), look=look), 3).image
    places = np.array([view.to_rect(at)] * 3)
    sure = [0.001] + [0.999 if v == 2 else 0.0 for v in range(1, 7)]  # a sure 2: kept
    nothing = [0.7] + [0.05] * 6  # no die: not the any-photo readers' to say
    torn = [0.1] + [0.15] * 6  # a die, no value preferred: the any-photo readers tell it
    read = np.array([sure, nothing, torn], np.float32)
    out = dice.with_photo_readers(frame, view, places, np.array([die_rect] * 3), read)
    np.testing.assert_array_equal(out[:2], read[:2])
    assert out[2, 1:].argmax() + 1 == 4
    assert out[2, 0] == read[2, 0] and out[2].sum() == pytest.approx(1)


def test_trial_nets_are_read_from_their_folder_and_a_folder_lacking_one_is_refused(tmp_path):
    shipped = dice.FOLDER
    (tmp_path / dice.NETS[0]).write_bytes((shipped / dice.NETS[0]).read_bytes())
    with pytest.raises(ValueError, match=f"lacks {dice.NETS[1]}"):
        dice.use_nets(tmp_path)
    assert dice.FOLDER == shipped
    (tmp_path / dice.NETS[1]).write_bytes((shipped / dice.NETS[1]).read_bytes())
    try:
        dice.use_nets(tmp_path)
        assert dice.FOLDER == tmp_path
        assert dice.nets()[1] is models.shipped(dice.NETS[1], tmp_path)
        assert dice.nets()[1] is not models.shipped(dice.NETS[1], shipped)
        assert [d["value"] for d in _read(Die(4, (0.27, 0.42), 68.0))] == [4]
    finally:
        dice.use_nets(shipped)
