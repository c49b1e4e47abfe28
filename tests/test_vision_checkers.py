"""Checker reading pieces: what is precomputed per calibration reads as computed per frame."""

import cv2
import numpy as np

from bgboard.calibration.rectify import REACH
from bgboard.vision import checkers
from bgboard.vision.read import Reader
from vision_helpers import calibrated


def _half_size_classes(seed):
    rendered, cal = calibrated(seed, hand=0.0)
    reader = Reader(cal)
    even = checkers.even_lab(reader.view.warp_half(rendered.image), reader.view,
                             reader.classify.colours)
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


def test_table_cells_are_the_row_major_index_of_lab_cut_to_its_top_bits():
    lab = np.random.default_rng(0).integers(0, 256, (40, 50, 3), dtype=np.uint8)
    lab[0, :2] = [[0, 0, 0], [255, 255, 255]]
    q = lab.astype(int)
    assert np.array_equal(checkers.cells(lab, 6),
                          (q[..., 0] >> 2) * 4096 + (q[..., 1] >> 2) * 64 + (q[..., 2] >> 2))
    assert np.array_equal(checkers.cells(lab, 5),
                          (q[..., 0] >> 3) * 1024 + (q[..., 1] >> 3) * 32 + (q[..., 2] >> 3))
    assert checkers.cells(lab, 6).dtype == np.int32


def test_the_half_size_field_is_the_full_size_field_halved():
    rendered, cal = calibrated(5, hand=0.0)
    view = Reader(cal).view
    full = view.warp(rendered.image)
    half = view.warp_half(rendered.image)
    assert half.shape == (*view.half, 3)
    box = cv2.resize(full, view.half[::-1], interpolation=cv2.INTER_AREA).astype(int)
    assert np.abs(half.astype(int) - box).mean() < 2.0
    shifted = np.abs(half[:, 1:].astype(int) - box[:, :-1]).mean()  # one pixel off: far worse
    assert shifted > 2 * np.abs(half.astype(int) - box).mean()


def test_a_box_of_the_field_is_that_box_of_the_whole_warp():
    rendered, cal = calibrated(5, hand=0.0)
    view = Reader(cal).view
    full = view.warp(rendered.image).astype(int)
    box = view.warp_box(rendered.image, 100, 40, 17, 210).astype(int)
    assert box.shape == (210, 17, 3)
    assert np.abs(box - full[40:250, 100:117]).max() <= 1
