"""Tall piles counted again with more pixels: the checker net reads each column at 32 pixels
across a point, where a checker stacked on another a tenth of a diameter off shows only by a
rim two or three pixels wide, and it reads most towers of six to nine as five
(docs/vision-log.md), most of them unsure. A row it reads as a pile of TALL or more, less than
UNSURE sure of its count, is cut again from the frame at SCALE times the pixels each way and
counted by a second small net (`vision/models/piles.onnx`, trained by
benchmarks/train_piles.py), beside the same bare reference enlarged;
its count shares out the checker net's probability of a pile that tall among the counts from
TALL up. A second counter beside it (`piles_far.onnx`) sees each row further, to FAR field
heights from its base, past the field's middle, where the last of a long row of seven lies
and neither the checker net's patch nor the first counter's reaches: the two counters' readings
are averaged. Without the files, rows keep the checker net's count. On real boards it never
saw, the counter misreads more piles of five than the checker net does, so a row the checker
net is UNSURE sure of or more keeps the checker net's count (docs/vision-log.md).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from ..calibration.rectify import FieldView
from . import models
from .columns import HEIGHT, LENGTH, WIDTH, Columns, softmax
from .models import net_input

MODEL = models.FOLDER / models.PILES
SCALE = 2  # the counter's patch, times the checker net's pixels each way
REACH = LENGTH  # field heights its patch shows from the row's base
FAR = 0.75  # ... the far counter's: past the middle (squeezed along the row to the same size)
TALL = 4  # rows read as holding this many or more with TALL_SURE are counted again
TALL_SURE = 0.5
UNSURE = 0.99  # ... and less sure than this of their count (the checker net, sure, is right)


def far_model(model: Path) -> Path:
    """Where the far counter of the counter at `model` lies: NAME_far.onnx beside it."""
    return model.with_name(f"{model.stem}_far{model.suffix}")


@cache
def counter(model: Path = MODEL) -> tuple[tuple[cv2.dnn.Net, float], ...]:
    """The pile counters installed, each with how far its patch reaches: the one at `model`
    and the far one beside it (`far_model`); none (an empty tuple) when neither is there (the
    shipped ones must be: `models.wanted`)."""
    pairs = ((model, REACH), (far_model(model), FAR))
    return tuple((models.load(path), reach) for path, reach in pairs if models.wanted(path))


def enlarge(refs: np.ndarray) -> np.ndarray:
    """Bare references at the checker net's size (N, HEIGHT, WIDTH, 3) at the counter's."""
    size = (WIDTH * SCALE, HEIGHT * SCALE)
    return np.stack([cv2.resize(r, size, interpolation=cv2.INTER_LINEAR) for r in refs])


def pile_input(patches: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """The counter's input (NCHW float centred on zero): each patch at SCALE beside its
    reference enlarged."""
    return net_input(np.concatenate([patches, enlarge(refs)], axis=-1))


class PileCounter:
    """Counts the tall rows of frames seen through one calibration again."""

    def __init__(self, view: FieldView, counters: tuple[tuple[cv2.dnn.Net, float], ...]):
        self.counters = [(net, Columns(view, SCALE, reach)) for net, reach in counters]
        # per row counted last: the checker net's reading then, and the counters' share of it
        self.kept: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def recount(self, image: np.ndarray, counts: np.ndarray, refs: np.ndarray) -> np.ndarray:
        """`counts` (rows x 16 probabilities) with each row the checker net reads as TALL or
        more TALL_SURE, and its count less than UNSURE, counted again: its probability of TALL
        or more shared out as the counters read the row, their readings averaged (`refs`:
        each row's bare reference, as the checker net saw it). A row whose checker-net reading
        is what it was when last counted keeps that count: the checker net keeps its reading
        while a row stays still (`column_reader.Judgements`), so a still board costs the
        counters nothing."""
        rows = np.flatnonzero((counts[:, TALL:].sum(1) >= TALL_SURE) & (counts.max(1) < UNSURE))
        self.kept = {r: self.kept[r] for r in rows if r in self.kept}
        new = [r for r in rows if r not in self.kept or not np.array_equal(self.kept[r][0],
                                                                           counts[r])]
        if new:
            shares = [self._share(net, columns.cut(image, new), refs[new])
                      for net, columns in self.counters]
            for r, share in zip(new, np.mean(shares, axis=0), strict=True):
                self.kept[r] = counts[r].copy(), share
        out = counts.copy()
        for r in rows:
            out[r, TALL:] = counts[r, TALL:].sum() * self.kept[r][1]
        return out

    @staticmethod
    def _share(net: cv2.dnn.Net, patches: np.ndarray, refs: np.ndarray) -> np.ndarray:
        """One counter's probabilities of TALL checkers and more for each row of `patches`."""
        net.setInput(pile_input(patches, refs))
        return softmax(net.forward()[:, TALL:])
