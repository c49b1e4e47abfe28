"""The field-dice nets' training frames (benchmarks/field_dice_frames.py): frames from
BIG_SEED on draw dice larger than their look's, and say how large; from DRAWN_SEED on, boards
drawn at random."""

import json

import pytest

from bgboard.benchmarks import field_dice_frames as ff
from bgboard.vision import dice as fd


@pytest.mark.parametrize("seed", [ff.BIG_SEED + 4, ff.BIG_SEED + 5])
def test_a_big_dice_frame_draws_its_dice_larger_than_its_looks_and_gives_their_side(
        seed, tmp_path):
    look = ff.frame_scene(seed).look
    ff.make_frame(seed, tmp_path)
    meta = json.loads((tmp_path / f"{seed}.json").read_text())
    assert ff.BIG[0] <= meta["die_size"] / look.die_size <= ff.BIG[1]
    image, view, rows, side = ff.load_frame(seed, tmp_path)
    assert image.shape == (720, 1280, 3) and len(rows) == len(meta["dice"]) >= 1
    assert side == pytest.approx(meta["die_size"] * view.h)


def test_a_frame_before_big_seed_keeps_its_looks_dice_and_the_expected_side(tmp_path):
    seed = ff.FIRST_SEED + 7
    ff.make_frame(seed, tmp_path)
    meta = json.loads((tmp_path / f"{seed}.json").read_text())
    assert meta["die_size"] is None
    _, view, rows, side = ff.load_frame(seed, tmp_path)
    assert side == pytest.approx(fd.DIE_SIZE * view.h)
    assert rows[:, 2].min() >= 1 and rows[:, 2].max() <= 6


def test_a_drawn_frame_is_a_drawn_board_whose_dice_keep_their_looks_side(tmp_path):
    from bgboard.vision.synthetic.drawn import drawn_scene, held_out_family

    seed = ff.DRAWN_SEED + 3
    scene = ff.frame_scene(seed)
    assert scene == drawn_scene(seed, hand=0.05) and held_out_family(scene.look) is None
    ff.make_frame(seed, tmp_path)
    meta = json.loads((tmp_path / f"{seed}.json").read_text())
    assert meta["die_size"] == scene.look.die_size
    _, view, rows, side = ff.load_frame(seed, tmp_path)
    assert side == pytest.approx(scene.look.die_size * view.h) and len(rows) >= 1
