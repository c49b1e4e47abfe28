"""Real checkers pasted onto real boards (benchmarks/pasted.py): the checker net's extra real
training rows must show as many checkers as they are labelled with, where a reader looks for
them."""

import cv2
import numpy as np
import pytest

from bgboard.benchmarks import pasted
from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision.columns import HEIGHT, WIDTH, Columns

GREY, LIGHT, DARK = 128, 250, 10


@pytest.fixture(scope="module")
def view() -> FieldView:
    """A 1000 x 800 px field seen from straight above (bar 0.06, points 0.4 deep)."""
    return FieldView(from_dict({
        "version": 1, "image_size": [1280, 960],
        "corners_px": {"p1": [1140, 880], "p12": [140, 880], "p13": [140, 80],
                       "p24": [1140, 80]},
        "geometry": {"bar_width": 0.06, "point_depth": 0.4}}))


def test_a_checker_is_a_column_wide_and_as_long_as_the_field_shows_it(view: FieldView) -> None:
    across, along = pasted.checker_size(view)
    assert across == pytest.approx(WIDTH / 1.4)
    # a column is 0.94 / 12 of the 1000 px field's width; 112 patch pixels show 0.53 of its
    # 800 px height
    assert along == pytest.approx(0.94 / 12 * 1000 / (0.53 * 800) * HEIGHT, rel=1e-3)


def test_five_checkers_lie_in_a_row_from_the_base_and_the_sixth_on_top_between_them() -> None:
    along = 20.0
    base = 0.03 / 0.53 * HEIGHT
    assert [pasted.centre(k, along)[1] - base for k in range(7)] == pytest.approx(
        [10, 30, 50, 70, 90, 20, 40])
    assert {pasted.centre(k, along)[0] for k in range(7)} == {WIDTH / 2}


def test_at_twice_the_pixels_a_checker_and_its_place_are_twice_as_far(view: FieldView) -> None:
    assert pasted.checker_size(view, 2) == pytest.approx(
        tuple(2 * s for s in pasted.checker_size(view)))
    for k in (0, 6):
        x, y = pasted.centre(k, 20.0)
        assert pasted.centre(k, 40.0, 2) == pytest.approx((2 * x, 2 * y))


@pytest.mark.parametrize("scale", [1, 2])
@pytest.mark.parametrize("n", [1, 3, 5])
def test_a_pasted_row_shows_its_checkers_at_their_places_and_nothing_beyond(
        view: FieldView, n: int, scale: int) -> None:
    size = pasted.checker_size(view, scale)
    bare = np.full((HEIGHT * scale, WIDTH * scale, 3), GREY, np.uint8)
    piece = np.full((9, 9, 3), LIGHT, np.uint8)
    row = pasted.paste(bare, piece, n, size, np.random.default_rng(0))
    places = [round(pasted.centre(k, size[1], scale)[1]) for k in range(pasted.ROW)]
    assert [int(row[y, WIDTH * scale // 2, 0]) for y in places] == [LIGHT] * n + [GREY] * (5 - n)
    edge = 3 * scale  # between the points
    assert (row[:, :edge] == GREY).all() and (row[:, -edge:] == GREY).all()


def test_sprites_are_cut_where_the_boxes_show_checkers_on_points_of_their_set(
        view: FieldView) -> None:
    columns = Columns(view)
    size = pasted.checker_size(view)
    patches = np.full((26, HEIGHT, WIDTH, 3), GREY, np.uint8)
    counts = np.zeros(26, np.int8)
    counts[2], counts[20] = 3, -2
    for i, colour in ((2, LIGHT), (20, DARK)):
        patches[i] = pasted.paste(patches[i], np.full((5, 5, 3), colour, np.uint8), 1, size,
                                  np.random.default_rng(i))

    def box(i: int, k: int = 0) -> tuple[float, float]:  # photo pixels of a row's k-th checker
        (x, y), = cv2.perspectiveTransform(np.array([[pasted.centre(k, size[1])]], np.float64),
                                           columns.matrices[i])[0]
        return x, y

    boxes = [(True, *box(2)), (False, *box(20)), (False, *box(2)), (True, *box(9)),
             (True, *box(2, 9))]  # a dark box on a light point, a bare point, beyond the patch
    found = pasted.sprites(patches, columns, counts, boxes)
    assert [len(found[1]), len(found[-1])] == [1, 1]
    h, w = found[1][0].shape[:2]
    assert (h, w) == (round(1.06 * size[1]), round(1.06 * size[0]))
    assert found[1][0][h // 2, w // 2, 0] == LIGHT and found[-1][0][h // 2, w // 2, 0] == DARK


def test_a_composite_labels_each_pasted_row_with_what_was_pasted_on_it(view: FieldView) -> None:
    size = pasted.checker_size(view)
    patches = np.full((26, HEIGHT, WIDTH, 3), GREY, np.uint8)
    counts = np.zeros(26, np.int8)
    counts[5], counts[18] = 5, -5
    bare = np.r_[counts[:24] == 0, False, False]
    donor = {1: [np.full((9, 9, 3), LIGHT, np.uint8)], -1: [np.full((9, 9, 3), DARK, np.uint8)]}
    rng = np.random.default_rng(3)
    out, signed = pasted.composite(patches, counts, bare, view, [], donor, rng)
    changed = (out != patches).any((1, 2, 3))
    assert list(np.flatnonzero(changed)) == list(np.flatnonzero(signed != counts))
    assert 0 < changed.sum() < bare.sum() and signed[5] == 5 and signed[18] == -5
    first = round(pasted.centre(0, size[1])[1])
    for i in np.flatnonzero(changed):
        middles = [round(pasted.centre(k, size[1])[1]) for k in range(min(abs(signed[i]), 5))]
        assert {int(out[i, y, WIDTH // 2, 0]) for y in middles} == \
            {LIGHT if signed[i] > 0 else DARK}
        assert out[i, first, WIDTH // 2, 0] == (LIGHT if signed[i] > 0 else DARK)


def test_real_photos_with_pasted_checkers_keep_their_labels_on_their_own_rows() -> None:
    from bgboard.benchmarks import train_checkers as tc

    plain, plain_counts = tc.real_patches({0}, cuts=1)
    both, counts = tc.real_patches({0}, cuts=1, pasted=1)
    assert len(plain) % 24 == 0 and len(both) == 2 * len(plain)  # fold 0: no uncertain point
    both = both.reshape(-1, 2, 24, *both.shape[1:])
    counts = counts.reshape(-1, 2, 24)
    plain_counts = plain_counts.reshape(-1, 24)
    assert (both[:, 0] == plain.reshape(-1, 24, *plain.shape[1:])).all()
    assert (counts[:, 0] == plain_counts).all()
    moved = counts[:, 1] != plain_counts
    assert (plain_counts[moved] == 0).all() and moved.sum() > 0.1 * (plain_counts == 0).sum()
    assert set(np.abs(counts[:, 1][moved])) <= set(pasted.COUNTS)
