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
    with pytest.raises(ValueError, match="none.onnx is missing$"):
        ff.find(np.zeros((64, 64, 3), np.uint8), tmp_path / "none.onnx")


def test_corners_that_cross_are_no_field(monkeypatch):
    from bgboard.vision import corners

    crossed = np.array([[100.0, 100.0], [300.0, 200.0], [300.0, 100.0], [100.0, 200.0]])
    monkeypatch.setattr(ff, "find", lambda image, model: ff.Field(crossed, (0, 2), 0.9))
    with pytest.raises(ValueError, match="no playing field found in the photo"):
        corners.field_namings(np.full((300, 400, 3), 128, np.uint8))


FIELD = {"p1": (100.0, 500.0), "p12": (1200.0, 500.0), "p13": (1200.0, 100.0),
         "p24": (100.0, 100.0)}  # seen from straight above: 1100 x 400 px


@pytest.mark.parametrize("corner", ["p1", "p12", "p13", "p24"])
def test_each_corner_is_seen_alike_the_field_below_and_right_whites_edge_across(corner):
    view = ff.corner_view(FIELD, corner)
    np.testing.assert_allclose(ff.from_patch_uv(view, (0, 0)), FIELD[corner], atol=1e-6)
    point = 1100 * ff.POINT  # a point's width in pixels, along White's edge
    inward = np.sign(np.subtract(FIELD["p13"], FIELD["p1"]))  # from p1 into the field
    if corner in ("p12", "p13"):
        inward[0] *= -1
    if corner in ("p13", "p24"):
        inward[1] *= -1
    one_in = np.add(FIELD[corner], inward * point)
    np.testing.assert_allclose(ff.to_patch_uv(view, one_in), (1, 1), atol=1e-6)  # both ways
    patch_middle = ff.from_patch_uv(view, (0, 0))
    assert ff.to_patch_uv(view, patch_middle) == pytest.approx((0, 0), abs=1e-9)


class SaysEveryCornerIsAt:
    """Stands in for the refiner's net: the same (u, v) for every view, so where each corner
    must go is known."""

    def __init__(self, uv):
        self.uv = np.array(uv, np.float32)

    def setInput(self, x):  # noqa: N802  (cv2.dnn.Net's name)
        self.n = len(x)

    def forward(self):
        return np.tile(self.uv, (self.n, 1))


def test_the_refiner_moves_each_corner_where_it_says_keeping_the_ring(monkeypatch):
    field = ff.Field(ff.ring(np.array(list(FIELD.values()))), (0, 2), 0.9)
    monkeypatch.setattr(ff, "REFINE_STEPS", 1)
    monkeypatch.setattr(ff, "net", lambda model: SaysEveryCornerIsAt((0.5, 0.0)))
    moved = ff.refine(np.zeros((600, 1300, 3), np.uint8), field, Path("refiner.onnx"))
    half = 0.5 * 1100 * ff.POINT  # half a point along White's edge, into the field
    expected = field.corners + np.array([[half, 0], [-half, 0], [-half, 0], [half, 0]])
    np.testing.assert_allclose(moved.corners, expected, atol=1e-6)
    assert moved.bar_edges == field.bar_edges
    monkeypatch.setattr(ff, "net", lambda model: SaysEveryCornerIsAt((ff.REACH, 0.0)))
    kept = ff.refine(np.zeros((600, 1300, 3), np.uint8), field, Path("refiner.onnx"))
    np.testing.assert_allclose(kept.corners, field.corners)  # outside its view: not moved


def test_bar_ends_off_the_middle_of_their_edges_in_shares_of_the_field():
    ends = np.array([[200.0, 96.0], [220.0, 204.0]])  # 0 and 0.1 of the field's length off
    assert ff.off_middle(SQUARE, ends) == pytest.approx(0.1)
    assert ff.off_middle(SQUARE, np.array([[303.0, 160.0]])) == pytest.approx(0.1)  # side edges
    assert ff.off_middle(SQUARE, np.array([[200.0, 150.0]])) == np.inf  # the field's middle
    assert ff.off_middle(SQUARE, np.zeros((0, 2))) == 0


def test_the_field_is_the_surest_four_corners_with_the_bar_at_their_middles():
    box = [[40.0, 100.0, 0.9], [40.0, 200.0, 0.85]]  # the outer corners of a tray on the left
    field = [[100.0, 100.0, 0.8], [300.0, 100.0, 0.7], [300.0, 200.0, 0.6], [100.0, 200.0, 0.5]]
    corners = np.array(box + field)  # the surest first
    ends = np.array([[200.0, 99.0], [200.0, 201.0]])
    np.testing.assert_allclose(ff.choose(corners, ends), field)
    np.testing.assert_allclose(ff.choose(corners[2:], ends), field)
    lopsided = np.array([[250.0, 99.0], [250.0, 201.0]])  # no four fit: the surest four
    np.testing.assert_allclose(ff.choose(corners, lopsided), ff.ring(corners[:4]))
