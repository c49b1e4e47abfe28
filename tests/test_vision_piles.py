"""Tall piles counted again at twice the pixels (`vision.piles`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision import piles
from bgboard.vision.columns import HEIGHT, WIDTH, Columns, references
from bgboard.vision.synthetic import START_POINTS, Scene, random_look, render


def start_frame(seed: int = 3):
    rendered = render(Scene(START_POINTS, look=random_look(np.random.default_rng(seed))), seed)
    return rendered.image, FieldView(from_dict(rendered.calibration))


def test_a_pile_patch_shows_the_same_place_as_the_checker_nets_with_twice_the_pixels() -> None:
    image, view = start_frame()
    small = Columns(view).cut(image)
    large = Columns(view, piles.SCALE).cut(image, [0, 5, 11])
    assert large.shape == (3, HEIGHT * piles.SCALE, WIDTH * piles.SCALE, 3)
    shrunk = np.stack([cv2.resize(p, (WIDTH, HEIGHT), interpolation=cv2.INTER_AREA)
                       for p in large])
    difference = np.abs(shrunk.astype(int) - small[[0, 5, 11]]).mean()
    assert difference < 4  # the same pixels but for resampling (a checker row's edge: ~100)


def test_the_counters_input_is_each_patch_beside_its_reference_enlarged() -> None:
    patches = np.full((2, HEIGHT * piles.SCALE, WIDTH * piles.SCALE, 3), 255, np.uint8)
    refs = np.zeros((2, HEIGHT, WIDTH, 3), np.uint8)
    refs[1] = 51
    x = piles.pile_input(patches, refs)
    assert x.shape == (2, 6, HEIGHT * piles.SCALE, WIDTH * piles.SCALE)
    assert np.allclose(x[:, :3], 0.5) and np.allclose(x[0, 3:], -0.5)
    assert np.allclose(x[1, 3:], 51 / 255 - 0.5)


class SevenCounter:
    """A stand-in for the pile counter that reads every row it is given as seven checkers
    and keeps the input it was given: what the recount does with a reading, apart from how
    well the shipped counter reads."""

    def setInput(self, x: np.ndarray) -> None:  # noqa: N802 (OpenCV's name)
        self.x = x

    def forward(self) -> np.ndarray:
        logits = np.zeros((len(self.x), 16), np.float32)
        logits[:, 7] = 5.0
        return logits


def test_only_tall_rows_the_checker_net_is_unsure_of_are_counted_again() -> None:
    image, view = start_frame()
    counts = np.zeros((26, 16), np.float32)
    counts[:, 0] = 1.0
    for row, reading in ((5, {3: 0.2, 5: 0.8}),  # White's 6-point: a tall pile, unsure
                         (11, {3: 0.6, 4: 0.4}),  # the mid-point read short of TALL
                         (18, {5: 0.995, 6: 0.005})):  # Black's 6-point read sure
        counts[row] = 0.0
        for n, p in reading.items():
            counts[row, n] = p
    refs = references(Columns(view).cut(image))
    seven = SevenCounter()
    out = piles.PileCounter(view, ((seven, piles.REACH),)).recount(image, counts, refs)
    assert seven.x.shape == (1, 6, HEIGHT * piles.SCALE, WIDTH * piles.SCALE)
    untouched = [i for i in range(26) if i != 5]
    assert np.array_equal(out[untouched], counts[untouched])
    assert out[5, 3] == pytest.approx(0.2) and out[5, :piles.TALL].sum() == pytest.approx(0.2)
    assert out[5, piles.TALL:].sum() == pytest.approx(0.8)
    assert out[5].argmax() == 7 and out[5, 7] == pytest.approx(0.8 / (1 + 11 * np.exp(-5)))


def test_a_row_read_as_when_it_was_counted_keeps_its_count_and_a_changed_one_is_counted_again(
        ) -> None:
    image, view = start_frame()
    counts = np.zeros((26, 16), np.float32)
    counts[:, 0] = 1.0
    counts[5, 0], counts[5, 3], counts[5, 5] = 0.0, 0.2, 0.8  # a tall pile, unsure
    refs = references(Columns(view).cut(image))
    seven = SevenCounter()
    counter = piles.PileCounter(view, ((seven, piles.REACH),))
    first = counter.recount(image, counts, refs)
    del seven.x
    assert np.array_equal(counter.recount(image, counts, refs), first)  # a still board
    assert not hasattr(seven, "x")
    counts[5, 3], counts[5, 5] = 0.3, 0.7  # the checker net reads the row otherwise
    out = counter.recount(image, counts, refs)
    assert seven.x.shape[0] == 1 and out[5, piles.TALL:].sum() == pytest.approx(0.7)


class FixedCounter(SevenCounter):
    """A stand-in counter that reads every row as `n` checkers, surely."""

    def __init__(self, n: int) -> None:
        self.n = n

    def forward(self) -> np.ndarray:
        logits = np.full((len(self.x), 16), -50.0, np.float32)
        logits[:, self.n] = 50.0
        return logits


def test_two_counters_are_averaged_the_far_one_seeing_the_row_past_the_middle() -> None:
    """A long row of seven ends past the field's middle, where only the far counter sees: a
    row one counter reads as 6 and the other as 7 shares its tall probability half and half,
    and the far counter is given the same row squeezed to reach FAR field heights."""
    image, view = start_frame()
    counts = np.zeros((26, 16), np.float32)
    counts[:, 0] = 1.0
    counts[5, 0], counts[5, 5], counts[5, 6] = 0.0, 0.5, 0.5  # a tall pile, unsure
    refs = references(Columns(view).cut(image))
    near, far = FixedCounter(6), FixedCounter(7)
    out = piles.PileCounter(view, ((near, piles.REACH), (far, piles.FAR))).recount(
        image, counts, refs)
    assert out[5, 6] == pytest.approx(0.5) and out[5, 7] == pytest.approx(0.5)
    assert out[5, :6].sum() == pytest.approx(0.0, abs=1e-6)
    squeezed = piles.pile_input(Columns(view, piles.SCALE, piles.FAR).cut(image, [5]), refs[[5]])
    assert np.array_equal(far.x, squeezed) and not np.array_equal(near.x, squeezed)


def test_the_far_counter_lies_beside_the_first_and_missing_files_give_none() -> None:
    assert piles.far_model(piles.MODEL) == piles.MODEL.with_name("piles_far.onnx")
    assert piles.counter(piles.MODEL.with_name("no_such_counter.onnx")) == ()
    assert [reach for _, reach in piles.counter()] == [piles.REACH, piles.FAR]


def test_the_shipped_counter_reads_towers_the_checker_net_alone_reads_as_five() -> None:
    """A frame of a look no net was trained on (held out), its tall stacks piled as towers
    (benchmarks/train_piles.py draws such frames), read with and without the counter."""
    from bgboard.benchmarks.train_checkers import frame_view
    from bgboard.benchmarks.train_piles import kind
    from bgboard.vision.column_reader import ColumnReader
    from bgboard.vision.synthetic.looks import HELD_OUT

    seed = 900003
    assert kind(seed) == {"towers": True}
    image, cal, signed = frame_view(seed, HELD_OUT, **kind(seed))
    truth = [int(n) for n in signed[:24]]
    assert (truth[6], truth[16]) == (7, -8)
    view = FieldView(cal)
    alone = ColumnReader(view, pile_net=piles.MODEL.with_name("no_such_counter.onnx"))
    assert alone.piles is None
    assert alone.read(image).points == [*truth[:6], 5, *truth[7:16], -5, *truth[17:]]
    assert ColumnReader(view).read(image).points == truth
