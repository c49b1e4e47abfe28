"""The field finder's geometry around its net: peaks placed within their cells, corners put
in order, the bar's edges told from its ends, and the four namings those leave."""

from pathlib import Path

import numpy as np
import pytest

from bgboard.vision import field_finder as ff

SQUARE = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 200.0], [100.0, 200.0]])


def test_peaks_are_the_highest_local_maxima_placed_by_their_offsets():
    heat = np.zeros((8, 8), np.float32)
    heat[2, 3], heat[2, 4], heat[6, 1] = 0.9, 0.5, 0.7
    dx, dy = np.full((8, 8), 0.25, np.float32), np.full((8, 8), 0.5, np.float32)
    np.testing.assert_allclose(ff.peaks(heat, dx, dy, 2), [
        [3.25 * ff.STRIDE, 2.5 * ff.STRIDE, 0.9], [1.25 * ff.STRIDE, 6.5 * ff.STRIDE, 0.7]],
        rtol=1e-6)


def test_ring_puts_corners_in_order_around_the_field():
    shuffled = SQUARE[[2, 0, 3, 1]]
    assert ff.ring(shuffled).tolist() == [[100, 100], [300, 100], [300, 200], [100, 200]]


def test_the_bar_meets_the_edges_nearest_its_ends():
    assert ff.bar_edges(SQUARE, np.array([[200.0, 98.0], [201.0, 203.0]])) == (0, 2)
    assert ff.bar_edges(SQUARE, np.array([[302.0, 150.0]])) == (1, 3)
    assert ff.bar_edges(SQUARE, np.zeros((0, 2))) == (0, 2)


def test_four_namings_put_whites_points_along_an_edge_the_bar_meets():
    field = ff.Field(SQUARE, (0, 2), 0.8)
    assert field.namings() == [
        {"p1": (100, 100), "p12": (300, 100), "p13": (300, 200), "p24": (100, 200)},
        {"p1": (300, 100), "p12": (100, 100), "p13": (100, 200), "p24": (300, 200)},
        {"p1": (300, 200), "p12": (100, 200), "p13": (100, 100), "p24": (300, 100)},
        {"p1": (100, 200), "p12": (300, 200), "p13": (300, 100), "p24": (100, 100)}]


def test_square_shrinks_the_longer_side_to_the_nets_size_and_repeats_the_edges():
    image = np.zeros((720, 1280, 3), np.uint8)
    image[-1] = 200
    sq, k = ff.square(image)
    assert sq.shape == (ff.SIZE, ff.SIZE, 3) and k == ff.SIZE / 1280
    assert (sq[144:, :, 0] == sq[143, :, 0]).all()


def test_a_missing_model_is_a_clear_error(tmp_path: Path):
    with pytest.raises(ValueError, match="the field finder is not installed"):
        ff.find(np.zeros((64, 64, 3), np.uint8), tmp_path / "none.onnx")


def test_corners_that_cross_are_no_field(monkeypatch):
    from bgboard.vision import corners

    crossed = np.array([[100.0, 100.0], [300.0, 200.0], [300.0, 100.0], [100.0, 200.0]])
    monkeypatch.setattr(ff, "find", lambda image, model: ff.Field(crossed, (0, 2), 0.9))
    with pytest.raises(ValueError, match="no playing field found in the photo"):
        corners.field_namings(np.full((300, 400, 3), 128, np.uint8))
