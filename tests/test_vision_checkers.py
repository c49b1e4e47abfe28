"""Checker reading pieces: what is precomputed per calibration reads as computed per frame."""

import numpy as np

from bgboard.calibration.rectify import REACH
from bgboard.vision import checkers
from bgboard.vision.read import Reader
from vision_helpers import calibrated


def _half_size_classes(seed):
    rendered, cal = calibrated(seed, hand=0.0)
    reader = Reader(cal)
    rect = reader.view.warp(rendered.image)
    even = checkers.even_lab(rect, reader.view, reader.classify.colours)
    return reader, checkers.classify_small(even, reader.classify)


def test_the_view_s_stacked_row_axes_give_each_row_s_run_profile():
    reader, cls = _half_size_classes(3)
    view = reader.view
    assert cls.shape == view.half
    ys, xs = view.axes
    stacked = checkers.shares(cls[ys, xs])
    for k, row in enumerate(view.rows):
        alone = checkers.run_profile(cls, row, view.d, 0.5, REACH * view.h)
        for a, b in zip(alone, stacked, strict=True):
            assert np.array_equal(a, b[k])
