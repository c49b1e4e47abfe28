"""One camera frame -> an Observation (DESIGN.md): checkers, bar, off, dice, hand, confidence."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from ..calibration.file import BoardLook, Calibration
from ..calibration.intrinsics import Undistorter
from ..calibration.rectify import FieldView
from . import checkers, column_reader, dice, hand, piles
from .cube import find_cube
from .learn import guess_colours

CHECKER_READERS = ("net", "colour")


class Reader:
    """Reads frames seen through one calibration, in the order a camera gives them: a hand is
    judged against the last frame this Reader saw clear (`hand.HandFinder`), so a stream wants
    one Reader and a photo read on its own a new one.

    `checker_reader` chooses how checkers are read: "net" (the default: the learned column
    reader, which reads checkers by their shape, needs no learned colours and also gives
    `point_options`; its ONNX file is `checker_net`) or "colour" (pixels classed by the colours
    learned at calibration: the older reader, right on the project's renders, wrong on most
    real boards; see docs/vision.md); `pile_net` is the net reader's pile counter
    (`vision.piles`)."""

    def __init__(self, cal: Calibration, checker_reader: str = "net",
                 checker_net: Path = column_reader.MODEL,
                 hand_net: Path | None = hand.NET_MODEL, pile_net: Path = piles.MODEL):
        if checker_reader not in CHECKER_READERS:
            raise ValueError(f"unknown checker reader {checker_reader!r}: choose colour or net")
        self.cal = cal
        self.view = FieldView(cal)
        colours = cal.extra.get("colours")
        sets = (colours["light"], colours["dark"]) if colours else cal.board_sets()
        self.columns = (column_reader.ColumnReader(self.view, checker_net, sets,
                                                   cal.board_patches(), pile_net)
                        if checker_reader == "net" else None)
        intrinsics = cal.extra.get("intrinsics")
        self.undistort = Undistorter(intrinsics, cal.image_size) if intrinsics else None
        self.classify = checkers.Classifier(colours) if colours else None
        self.hands = hand.HandFinder(self.view, colours, net=hand_net)

    def read(self, image: np.ndarray) -> dict:
        """The Observation of one BGR frame."""
        check_image(image, self.cal)
        view = self.view
        if self.undistort:
            image = self.undistort(image)
        classify = self.classify or checkers.Classifier(guess_colours(view.warp(image), view))
        if self.columns:  # colours serve only hands and light here: guessed once, not per frame
            self.classify = classify
        half = view.warp_half(image)
        even = checkers.even_lab(half, view, classify.colours)
        cls = checkers.classify_small(even, classify)
        extra = {}
        if self.columns:
            reading = self.columns.read(image)
            points, bar, margins = reading.points, reading.bar, [reading.margin]
            extra["point_options"] = reading.options
        else:
            readings = checkers.read_rows(image, view, cls)
            points, bar = board(readings)
            margins = [r.margin for r in readings]
        seen = {"white": sum(n for n in points if n > 0) + bar["white"],
                "black": -sum(n for n in points if n < 0) + bar["black"]}
        off = {k: max(0, 15 - v) for k, v in seen.items()}
        found = dice.find_field_dice(image, half, view)
        has_hand = self.hands(half, even, cls)
        confidence = min(margins + [d["confidence"] for d in found] + [1.0])
        if has_hand or max(seen.values()) > 15:
            confidence *= 0.3
        return {"points": points, "bar": bar, "off": off,
                "dice": [{k: d[k] for k in ("value", "field_xy", "cocked")} for d in found],
                "hand": has_hand, "confidence": round(float(confidence), 3), **extra}

    def cube(self, image: np.ndarray) -> dict | None:
        """The doubling cube in a BGR frame (`vision.cube.find_cube`), or None where none is
        seen: for photos read one at a time (`bgboard read`), not every frame of a film."""
        check_image(image, self.cal)
        return find_cube(self.undistort(image) if self.undistort else image, self.view)

    def learn(self, image: np.ndarray, points, on_bar: int) -> Calibration | None:
        """A frame whose position the player confirmed (`points` as in an Observation, `on_bar`
        checkers on the bar): the checker net's reader takes its bare rows, where no die lies,
        as this board's look (`ColumnReader.learn`). Returns the calibration with that look, to
        keep beside the calibration file; None when the frame cannot teach it (the colour
        reader, a hand over the field)."""
        if self.columns is None:
            return None
        obs = self.read(image)
        if obs["hand"]:
            return None
        if self.undistort:
            image = self.undistort(image)
        board = self.columns.learn(image, [*points, on_bar, on_bar],
                                   [d["field_xy"] for d in obs["dice"]])
        self.cal = replace(self.cal, board=BoardLook(dict(self.cal.corners_px), board,
                                                     self.cal.board_sets()))
        return self.cal


def board(readings) -> tuple[list[int], dict]:
    """The board array and the bar from the row readings (light = White, positive)."""
    points = [0] * 24
    bar = {"white": 0, "black": 0}
    for r in readings:
        if r.name.startswith("bar"):
            bar["white" if r.light else "black"] += r.count
        else:
            points[int(r.name) - 1] = r.count if r.light else -r.count
    return points, bar


def check_image(image, cal: Calibration | None = None) -> None:
    """ValueError when the frame is empty or not the calibrated size."""
    if image is None or image.size == 0:
        raise ValueError("empty image")
    if cal is not None and (image.shape[1], image.shape[0]) != tuple(cal.image_size):
        raise ValueError(f"image is {image.shape[1]}x{image.shape[0]}, the calibration is for "
                         f"{cal.image_size[0]}x{cal.image_size[1]}")
