"""The learned checker reader: each point column (and half of the bar) read by a small net
that counts the checkers by their shape and says which set they belong to.

It needs nothing learned at calibration: only the field corners and geometry. It is trained
by benchmarks/train_checkers.py on the named looks of `vision.looks` and runs with OpenCV's
DNN module (`vision/models/checkers.onnx`). Besides the board it gives each point's likely
readings with their probabilities (the Observation's `point_options`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from ..calibration.rectify import FieldView
from .columns import Columns
from .dice import MODELS, net_input

MODEL = MODELS / "checkers.onnx"
OPTIONS = 3  # readings kept per point


@cache
def net(model: Path = MODEL) -> cv2.dnn.Net:
    if not model.is_file():
        raise ValueError(f"the learned checker reader is not installed ({model} is missing)")
    return cv2.dnn.readNetFromONNX(str(model))


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


@dataclass(frozen=True)
class Reading:
    """The board as the columns read it."""

    points: list[int]
    bar: dict
    options: list[list[list]]  # per point: [signed count, probability], likeliest first
    margin: float  # the least sure row's probability of its reading


class ColumnReader:
    """Reads the checkers of frames seen through one calibration."""

    def __init__(self, view: FieldView, model: Path = MODEL):
        self.columns = Columns(view)
        self.net = net(model)

    def read(self, image: np.ndarray) -> Reading:
        self.net.setInput(net_input(self.columns.cut(image)))
        count_logits, colour_logits = self.net.forward(["count", "colour"])
        counts, dark = softmax(count_logits), softmax(colour_logits)[:, 1]
        signed = [int(c.argmax()) * (-1 if d > 0.5 else 1) for c, d in zip(counts, dark,
                                                                            strict=True)]
        bar = {"white": 0, "black": 0}
        for n in signed[24:]:
            bar["white" if n > 0 else "black"] += abs(n)
        options = [row_options(c, float(d)) for c, d in zip(counts[:24], dark[:24], strict=True)]
        sure = [c.max() * (max(d, 1 - d) if c.argmax() else 1.0) for c, d in zip(counts, dark,
                                                                                   strict=True)]
        return Reading(signed[:24], bar, options, float(min(sure)))


def row_options(counts: np.ndarray, dark: float) -> list[list]:
    """The likeliest signed counts of one row with their probabilities."""
    table = [(0, float(counts[0]))]
    for n in range(1, len(counts)):
        table += [(n, float(counts[n]) * (1 - dark)), (-n, float(counts[n]) * dark)]
    table.sort(key=lambda item: -item[1])
    return [[n, round(p, 3)] for n, p in table[:OPTIONS]]
