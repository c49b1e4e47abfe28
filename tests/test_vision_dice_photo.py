"""Any-photo dice: the shipped nets find and read rendered dice, and nothing on a bare table."""

import cv2
import numpy as np
import pytest

from bgboard.vision.dice_photo import CROP, crop, find_centres, find_dice, nets, read_values
from bgboard.vision.synthetic import dice_photo


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_find_dice_reads_every_die_of_a_rendered_photo(seed):
    values = [1, 2, 3, 4, 5, 6, 6, 1]
    photo, truth = dice_photo(values, seed=seed)
    found = find_dice(photo)
    assert len(found) == len(truth)
    for t in truth:
        tx, ty, tw, th = t["box_px"]
        near = [d for d in found if abs(d["box_px"][0] + d["box_px"][2] / 2 - tx - tw / 2) < tw / 4
                and abs(d["box_px"][1] + d["box_px"][3] / 2 - ty - th / 2) < th / 4]
        assert [d["value"] for d in near] == [t["value"]]
        assert 0.6 * tw < near[0]["box_px"][2] < 1.3 * tw


def test_a_bare_table_has_no_dice():
    photo, _ = dice_photo([], seed=4)
    assert find_dice(photo) == []


def test_centres_are_placed_finer_than_the_finders_cells():
    photo, truth = dice_photo([5], seed=8)
    (x, y, side), = find_centres(photo, nets()[0])
    tx, ty, tw, th = truth[0]["box_px"]
    assert np.hypot(x - tx - tw / 2, y - ty - th / 2) < 3
    assert 0.7 < side / (0.5 * (tw + th) / 1.2) < 1.3


def test_crop_is_centred_on_the_point_asked_for():
    image = np.zeros((100, 100, 3), np.uint8)
    image[60:70, 30:40] = 255  # a square centred at (35, 65), pixel edges at integers
    patch = cv2.cvtColor(crop(image, 35.0, 65.0, 10.0), cv2.COLOR_BGR2GRAY)
    ys, xs = np.nonzero(patch > 127)
    assert patch.shape == (CROP, CROP)
    assert abs(xs.mean() + 0.5 - CROP / 2) < 0.6 and abs(ys.mean() + 0.5 - CROP / 2) < 0.6


def test_an_unsure_read_is_the_same_for_a_crop_turned_any_quarter_turn():
    photo, truth = dice_photo([3], seed=9)
    tx, ty, tw, th = truth[0]["box_px"]
    die = crop(photo, tx + tw / 2, ty + th / 2, 0.5 * (tw + th) / 1.2)
    views = np.stack([die, np.rot90(die), np.rot90(die, 2), np.rot90(die, 3)])
    probs = read_values(views, nets()[1], sure=1.01)  # every crop read all four ways
    assert np.allclose(probs, probs[0], atol=1e-5)
    assert probs[0].argmax() == 3


def test_the_readers_probabilities_are_averaged():
    photo, truth = dice_photo([3], seed=9)
    tx, ty, tw, th = truth[0]["box_px"]
    die = crop(photo, tx + tw / 2, ty + th / 2, 0.5 * (tw + th) / 1.2)[None]
    readers = nets()[1]
    assert len(readers) == 4  # dice_value.onnx, dice_value_2.onnx ... dice_value_4.onnx
    each = [read_values(die, (reader,), sure=0) for reader in readers]  # sure=0: no turns
    assert np.allclose(read_values(die, readers, sure=0), np.mean(each, axis=0), atol=1e-6)
