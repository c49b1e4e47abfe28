"""The checker reader's training frames: the tall stacks of `--tall` and `--towers`, the
shaded rows of `--shade`, the one-coloured points of `--mono`."""

import numpy as np
import pytest

from bgboard.benchmarks import train_checkers as tc
from bgboard.vision.synthetic import Look, random_look


@pytest.mark.parametrize("least", [6, 8])
def test_a_tall_position_has_a_tall_stack_a_side_and_at_most_fifteen_checkers(least: int) -> None:
    for seed in range(30):
        points, bar = tc.tall_position(np.random.default_rng(seed), least)
        assert bar == {"white": 0, "black": 0}
        for sign in (1, -1):
            mine = [sign * n for n in points if sign * n > 0]
            assert sum(mine) <= 15 and max(mine) >= least


def test_tower_frames_read_every_stack_of_the_position() -> None:
    patches, counts = tc.frame_patches(540_000, tc.TRAINED, towers=True)
    assert patches.shape == (26, tc.HEIGHT, tc.WIDTH, 3)
    points = counts[:24]
    assert max(points) >= tc.TOWERS_LEAST and -min(points) >= tc.TOWERS_LEAST
    assert list(counts[24:]) == [0, 0]


def test_shaded_frames_darken_one_row_and_keep_the_position() -> None:
    seed = 560_000
    plain, counts = tc.frame_patches(seed, tc.TRAINED)
    shaded, shaded_counts = tc.frame_patches(seed, tc.TRAINED, shade=True)
    assert np.array_equal(counts, shaded_counts)
    look = tc.shaded(Look(), seed)
    low, high = slice(0, 12), slice(12, 24)  # points 1-12, 13-24
    near, far = (low, high) if look.shade_side == "low" else (high, low)
    assert look.shade_depth > 0.3 and shaded[near].mean() < 0.92 * plain[near].mean()
    assert np.array_equal(shaded[far], plain[far])  # a shade reaching under half the field


def test_one_coloured_looks_paint_every_point_a_set_of_checkers_colour() -> None:
    light = 0
    for seed in range(100):
        look = random_look(np.random.default_rng(seed))
        mono = tc.one_coloured(look, seed)
        distance = np.abs(np.subtract(mono.points, np.array(look.checkers)[:, None])).max(2)
        owner = int(np.argmin(distance.max(1)))  # the set whose colour both points are near
        assert distance[owner].max() <= 30
        light += owner == 0
    assert 60 <= light <= 80  # MONO_LIGHT of them


def test_a_shaded_real_row_darkens_one_row_from_its_base_and_leaves_the_rest() -> None:
    rows = np.full((26, tc.HEIGHT, tc.WIDTH, 3), 200, np.uint8)
    out = tc.shade_row(rows, np.random.default_rng(3))
    dark = [i for i in range(26) if not np.array_equal(out[i], rows[i])]
    assert dark in (list(range(12)), list(range(12, 24)))  # one row of points, not the bar
    column = out[dark[0], :, 0, 0].astype(int)
    edge = round(tc.BEFORE / (tc.BEFORE + tc.LENGTH) * tc.HEIGHT)  # the field's edge: row 6
    assert edge == 6
    assert len(set(column[:edge + 1])) == 1  # the frame before the edge as deep as the edge
    assert 200 * (1 - tc.SHADE_DEPTH[1]) - 1 <= column[0] <= 200 * (1 - tc.SHADE_DEPTH[0]) + 1
    assert np.all(np.diff(column) >= 0) and column[-1] == 200  # fading to nothing inward
    assert np.all(out[dark[0]] == out[dark[0]][:, :1])  # across the patch alike


def test_real_photos_with_a_shaded_row_darken_the_moved_cuts_only() -> None:
    plain, plain_counts = tc.real_patches({0}, cuts=2)
    shaded, counts = tc.real_patches({0}, cuts=2, shade=1.0)
    assert np.array_equal(counts, plain_counts)  # fold 0: no uncertain point, 24 a cut
    plain, shaded = (p.reshape(-1, 2, 24, *p.shape[1:]).astype(int) for p in (plain, shaded))
    assert np.array_equal(shaded[:, 0], plain[:, 0])  # the labelled corners' cuts: as they were
    # The first photo's moved cut goes through the same corners either way (the shade's draws
    # come after them; later photos' corners are drawn after it): one row of it darker.
    change = shaded[0, 1, ..., :3] - plain[0, 1, ..., :3]  # the patches (then: references)
    assert (change <= 0).all()
    darker = set(np.flatnonzero((change < 0).any(axis=(1, 2, 3))))
    assert darker in (set(range(12)), set(range(12, 24)))


def test_drawn_frames_each_show_a_board_of_their_own_with_the_drawn_position() -> None:
    from bgboard.vision.synthetic.drawn import drawn_scene

    seed = 580_000
    patches, counts = tc.frame_patches(seed, (tc.DRAWN,))
    assert patches.shape == (26, tc.HEIGHT, tc.WIDTH, 3)
    assert np.array_equal(counts, tc.frame_view(seed, (tc.DRAWN,))[2])
    assert drawn_scene(seed + 1, hand=0.0).look != drawn_scene(seed, hand=0.0).look
    assert sum(c for c in counts if c > 0) <= 15 and -sum(c for c in counts if c < 0) <= 15


def test_drawn_frames_are_never_seen_beside_another_boards_references(tmp_path) -> None:
    """Each drawn frame is a board of its own: adapting it on the next frame (another board)
    would teach the net that references lie, so all are seen beside their own."""
    frames = np.stack([tc.frame_patches(seed, (tc.DRAWN,))[0] for seed in range(8)])
    counts = np.stack([tc.frame_view(seed, (tc.DRAWN,))[2] for seed in range(8)])
    np.savez(tmp_path / "shard_0.npz", patches=frames, counts=counts,
             looks=np.array([tc.DRAWN] * 8))
    patches, signed, looks = tc.load(tmp_path)
    assert np.array_equal(patches, tc.with_references(frames))
    assert np.array_equal(signed, counts.reshape(-1)) and set(looks) == {tc.DRAWN}
    rng = np.random.default_rng(0)  # frames of named looks: some beside another frame's
    assert not np.array_equal(tc.adapted(frames, counts, rng), tc.with_references(frames))
