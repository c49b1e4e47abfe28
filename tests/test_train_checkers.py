"""The checker reader's training frames: the tall stacks of `--tall` and `--towers`."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import train_checkers as tc  # noqa: E402


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
