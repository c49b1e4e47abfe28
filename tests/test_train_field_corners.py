"""The field finder's training samples of pictures cut at the field's edges (`--cut`): the
frame out of view on some sides, every corner still in the picture and marked."""

import numpy as np
import pytest

from bgboard.benchmarks import train_field_corners as tfc
from bgboard.vision import field_finder as ff

IMAGE = np.zeros((480, 640, 3), np.uint8)
CORNERS = np.array([[500, 400], [100, 400], [100, 80], [500, 80]], np.float32)  # 400 x 320
ENDS = np.array([[300, 400], [300, 80]], np.float32)


def test_a_cut_picture_ends_just_outside_the_field_or_where_it_ended():
    sides = []
    for seed in range(60):
        image, corners, ends = tfc.cut_at_field(IMAGE, CORNERS, ENDS,
                                                np.random.default_rng(seed))
        h, w = image.shape[:2]
        x0, y0 = (CORNERS - corners)[0]
        assert np.array_equal(CORNERS - corners, np.tile([x0, y0], (4, 1)))
        assert np.array_equal(ENDS - ends, np.tile([x0, y0], (2, 1)))
        assert corners.min() >= 0 and (corners < [w, h]).all()
        # each side: where the photo ended, or within 2% of the field's size (8 px) of it
        gaps = [x0, y0, 640 - x0 - w, 480 - y0 - h]
        field_gaps = [corners[:, 0].min(), corners[:, 1].min(), w - 1 - corners[:, 0].max(),
                      h - 1 - corners[:, 1].max()]
        cut = [g > 0 for g in gaps]
        assert all(0 <= f <= 8 for f, c in zip(field_gaps, cut, strict=True) if c)
        sides.append(cut)
    assert 0.3 < np.mean(sides) < 0.7 and np.array(sides).any(0).all()


@pytest.mark.parametrize("seed", range(4))
def test_a_picture_as_found_fills_the_square_from_its_top_left(seed):
    m = tfc.as_found(IMAGE, np.random.default_rng(seed))
    picture = np.array([[0, 0, 1], [640, 0, 1], [0, 480, 1], [640, 480, 1]], float) @ m.T
    assert picture.min(0) == pytest.approx([0, 0], abs=1e-6)
    assert np.ptp(picture, 0).max() == pytest.approx(ff.SIZE)
    # the shorter side three quarters of the longer, more when turned a few degrees off
    assert 0.75 * ff.SIZE - 1e-6 <= np.ptp(picture, 0).min() < 0.85 * ff.SIZE


def test_every_corner_and_bar_end_of_a_cut_sample_is_marked():
    for seed in range(10):
        x, target = tfc.sample(IMAGE, CORNERS, ENDS, np.random.default_rng(seed), cut=1.0)
        assert x.shape == (3, ff.SIZE, ff.SIZE)
        assert (target[0] == 1).sum() == 4 and (target[1] == 1).sum() == 2
        assert target[4].sum() == 6


def test_a_cut_refiner_sample_still_holds_its_corner():
    for seed in range(10):
        x, uv = tfc.refine_sample(IMAGE, CORNERS, ENDS, np.random.default_rng(seed), cut=1.0)
        assert x.shape == (3, ff.PATCH, ff.PATCH)
        assert np.abs(uv).max() < ff.REACH  # the labelled corner lies in the corner's view


def test_trays_are_drawn_of_every_kind_and_the_same_for_a_seed():
    from bgboard.vision.synthetic import Scene, with_look

    board = with_look(Scene((0,) * 24), field=(200.0, 180.0, 140.0))
    looks = [tfc.trayed(board, seed).look for seed in range(40)]
    assert {look.trays for look in looks} == {"both", "low", "high", "none"}
    assert all(tfc.TRAY_GAP[0] <= look.tray_gap <= tfc.TRAY_GAP[1] for look in looks)
    assert len({look.tray for look in looks}) == 4  # field, darker, frame lighter, felt
    assert tfc.trayed(Scene((0,) * 24), 5) == tfc.trayed(Scene((0,) * 24), 5)


def test_a_box_seen_from_low_has_its_nadir_beyond_the_field_tall_walls_and_standing_checkers():
    from bgboard.vision.synthetic import Scene

    board = Scene((0,) * 24)  # the default look: field from (180, 80) to (1100, 640)
    looks = [tfc.boxed(board, seed, low=True).look for seed in range(40)]
    for look in looks:
        x, y = look.nadir
        assert not (180 <= x <= 1100 and 80 <= y <= 640)  # off the field
        # 1 to 1.6 times as far from the field's middle as the field's edge that way
        away = np.array([x - 640, y - 360])
        edge = min(np.array([460, 280]) / np.abs(away / np.linalg.norm(away)))
        assert 1.0 <= np.linalg.norm(away) / edge <= 1.6
        assert tfc.LOW_RAISED[0] <= look.raised <= tfc.LOW_RAISED[1]
        assert tfc.LOW_STANDING[0] <= look.standing <= tfc.LOW_STANDING[1]
    sides = {(look.nadir[0] < 180) - (look.nadir[0] > 1100) for look in looks}
    assert sides == {-1, 0, 1}  # beside the left or right end, or beyond the long sides
    assert tfc.boxed(board, 7, low=True) == tfc.boxed(board, 7, low=True)
    assert all(tfc.RAISED[0] <= tfc.boxed(board, s).look.raised <= tfc.RAISED[1]
               and tfc.boxed(board, s).look.standing == 0 for s in range(10))


def test_drawn_frames_are_boards_drawn_at_random_with_their_marks(tmp_path):
    import json

    from bgboard.vision.synthetic import render
    from bgboard.vision.synthetic.drawn import drawn_scene

    tfc.render_frames(2, 620_000, tmp_path, drawn=True)
    for seed in (620_000, 620_001):
        shot = render(drawn_scene(seed), seed)
        k = tfc.KEPT_WIDTH / shot.image.shape[1]
        corners, ends = tfc.marks(shot.calibration)
        saved = json.loads((tmp_path / f"{seed}.json").read_text())
        assert np.allclose(saved["corners"], corners * k) and np.allclose(saved["ends"], ends * k)
        kept = tfc.cv2.imread(str(tmp_path / f"{seed}.jpg"))
        assert kept.shape[1] == tfc.KEPT_WIDTH
