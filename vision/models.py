"""Every learned model bgboard ships, in one place: its file in vision/models/, loading it
once, and the input the nets were trained on.

Each reader names its nets here and loads them through `load` (or `shipped`), so that a file
missing or unreadable is one clear line (`ModelError`, a ValueError: the CLI prints it and
exits 2), never an OpenCV traceback. A reader that can be given another net (benchmarks
cross-validating their folds pass a path) loads that path the same way.

The nets run with OpenCV's DNN module; benchmarks/train_*.py train them with PyTorch on the
input `net_input` (or, for the any-photo dice nets, `photo_input`) makes.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

FOLDER = Path(__file__).with_name("models")  # the shipped models

CHECKERS = "checkers.onnx"  # vision.column_reader: the checkers in each row of a point
PILES = "piles.onnx"  # vision.piles: tall rows counted again
PILES_FAR = "piles_far.onnx"  # ... and again, seen further along the row
HANDS = "hands.onnx"  # vision.hand: a hand or an arm over the field
FIELD_CORNERS = "field_corners.onnx"  # vision.field_finder: the field's corners in any photo
FIELD_CORNER_REFINE = "field_corner_refine.onnx"  # ... each corner placed again
FIELD_FIND = "field_find.onnx"  # vision.dice: dice on a calibrated field, found
FIELD_READ = "field_read.onnx"  # ... and read
CUBE_FIND = "cube_find.onnx"  # vision.cube: the doubling cube, found
CUBE_READ = "cube_read.onnx"  # ... and read
DICE_FIND = "dice_find.onnx"  # vision.dice_photo: dice in any photo, found
DICE_VALUES = ("dice_value.onnx", "dice_value_2.onnx", "dice_value_3.onnx",
               "dice_value_4.onnx")  # ... and read by this ensemble
SHIPPED = (CHECKERS, PILES, PILES_FAR, HANDS, FIELD_CORNERS, FIELD_CORNER_REFINE, FIELD_FIND,
           FIELD_READ, CUBE_FIND, CUBE_READ, DICE_FIND, *DICE_VALUES)  # every file in FOLDER


class ModelError(ValueError):
    """A model file is missing or unreadable; the text is one line saying which."""


def is_shipped(path: Path | str) -> bool:
    """True when `path` names one of the shipped models (in FOLDER, one of SHIPPED)."""
    path = Path(path)
    return path.name in SHIPPED and path.parent.resolve() == FOLDER.resolve()


def wanted(path: Path | str) -> bool:
    """True when an optional net at `path` is to be loaded: the file is there, or it is one
    of the shipped models (whose absence is a broken install, so `load` says so)."""
    return Path(path).is_file() or is_shipped(path)


def _trouble(path: Path, what: str) -> ModelError:
    fix = ": reinstall bgboard" if is_shipped(path) else ""
    return ModelError(f"model {path} is {what}{fix}")


@cache
def load(path: Path | str, engine: int | None = None) -> cv2.dnn.Net:
    """The net in the ONNX file at `path`, loaded once (later calls give the same net), run by
    OpenCV's DNN `engine` (None: its default); ModelError when the file is missing or is no
    net OpenCV can read."""
    path = Path(path)
    if not path.is_file():
        raise _trouble(path, "missing")
    try:
        if engine is None:
            return cv2.dnn.readNetFromONNX(str(path))
        return cv2.dnn.readNetFromONNX(str(path), engine)
    except cv2.error:
        raise _trouble(path, "unreadable") from None


def shipped(name: str, folder: Path = FOLDER, engine: int | None = None) -> cv2.dnn.Net:
    """The model `name` (one of SHIPPED) from `folder` (the shipped models unless told),
    loaded once (`load`)."""
    return load(folder / name, engine)


def net_input(images: np.ndarray) -> np.ndarray:
    """8-bit BGR images (N x H x W x C, or one H x W x C) as the nets take them: NCHW float
    centred on zero (x / 255 - 0.5, computed as x * float32(1 / 255) - 0.5)."""
    x = images[None] if images.ndim == 3 else images
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) * np.float32(1 / 255) - 0.5


def photo_input(images: np.ndarray) -> np.ndarray:
    """The same for the any-photo dice nets (DICE_FIND, DICE_VALUES), as they were trained:
    computed as x / 255 - 0.5 (which can differ from `net_input` in the last bit)."""
    x = images[None] if images.ndim == 3 else images
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255 - 0.5
