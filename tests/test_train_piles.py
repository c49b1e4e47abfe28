"""The pile counter's training rows: only tall rows, each at twice the pixels beside its
reference at the checker net's size."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import train_piles as tp  # noqa: E402

from bgboard.vision.columns import HEIGHT, WIDTH  # noqa: E402
from bgboard.vision.piles import SCALE  # noqa: E402


def test_a_shard_keeps_the_tall_rows_of_its_frames_with_their_counts() -> None:
    seeds = range(tp.FIRST, tp.FIRST + 8)  # two looks: tall stacks, then random positions
    assert [tp.kind(s) for s in seeds[::4]] == [{"tall": True}, {}]
    rows = tp.shard_rows(seeds)
    expected = np.concatenate([c[np.abs(c) >= tp.LEAST] for c in
                               (tp.frame_view(s, tp.TRAINED, **tp.kind(s))[2] for s in seeds)])
    assert np.array_equal(rows["counts"], expected)
    assert np.abs(expected).max() >= 8  # the first look's tall stacks
    n = len(expected)
    assert rows["patches"].shape == (n, HEIGHT * SCALE, WIDTH * SCALE, 3)
    assert rows["refs"].shape == (n, HEIGHT, WIDTH, 3)
