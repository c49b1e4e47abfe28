"""The cube nets' training samples (benchmarks/train_cube.py): the finder's targets follow the
window's turns and mirrors, text patches are "no cube"."""

import numpy as np

from bgboard.benchmarks import train_cube as tc
from bgboard.vision import dice as fd


def test_the_finders_target_marks_the_cube_wherever_the_window_and_its_turn_put_it():
    half = np.zeros((230, 350, 3), np.uint8)
    centre = np.array([301.3, 57.6])
    half[57:59, 301:303] = 255  # the cube's middle, a bright dot
    missed = 0
    for seed in range(40):
        x, target = tc.finder_sample(half, centre, 9.0, True, np.random.default_rng(seed))
        assert x.shape == (3, *tc.WINDOW) and target.shape == (4, *np.array(tc.WINDOW) // 4)
        heat, dx, dy, mask = target
        peaks = np.argwhere(heat == 1.0)
        if not len(peaks):  # a window without the cube: nothing marked
            assert mask.sum() == 0 and x.max() == -0.5
            missed += 1
            continue
        (r, c), = peaks
        assert mask[r, c] == 1 and mask.sum() == 1
        marked = (np.array([c + dx[r, c], r + dy[r, c]]) * fd.STRIDE)
        ys, xs = np.nonzero(x.sum(0) > x.sum(0).min())
        assert np.hypot(*(marked - (xs.mean() + 0.5, ys.mean() + 0.5))) < 1.0
    assert 5 <= missed <= 20  # two windows in three are placed to hold the cube


def test_text_printed_on_a_patch_is_no_cube():
    patch = np.full((tc.vc.PATCH, tc.vc.PATCH, 3), 90, np.uint8)
    changed = []
    for seed in range(10):
        x, label = tc.reader_sample(patch, tc.TEXT, np.random.default_rng(seed))
        assert label == 0 and x.shape == (3, tc.vc.PATCH, tc.vc.PATCH)
        changed.append(np.ptp(x) > 0.1)
    assert sum(changed) >= 8  # the text shows (a few land mostly off the patch)
