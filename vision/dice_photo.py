"""Dice in any photo, found and read by small nets run with OpenCV's DNN module.

A fully convolutional finder marks each die's centre and side on the photo shrunk to 256 px;
value readers (an ensemble of nets trained alike from different seeds, their probabilities
averaged) then read a full-resolution crop around each centre, and the crops they are unsure of
again in their four quarter turns. Both were trained on real top-down photos of
dice (benchmarks/train_dice_photo.py says how, and how well they do on photos they never saw).
"""

from __future__ import annotations

import cv2
import numpy as np

from . import models
from .models import photo_input

FIND_PX = 256  # the finder sees the photo's longer side at this many pixels
STRIDE = 4  # finder output cells per input pixel
CROP = 48  # value reader input, pixels a side
CROP_DICE = 1.5  # value reader crop, in die sides
THRESHOLD = 0.5  # finder score for a die
NO_DIE = 0.5  # reader probability of no die above which a place the finder marks is dropped
SURE = 0.9  # reader confidence below which a crop is read again in its other quarter turns


def readers() -> tuple:
    """The shipped value readers (models.DICE_VALUES), in that order."""
    return tuple(models.shipped(name) for name in models.DICE_VALUES)


def nets() -> tuple:
    """The shipped finder (models.DICE_FIND, loaded once it is first wanted) and the tuple
    of value readers (`readers`)."""
    return models.shipped(models.DICE_FIND), readers()


def find_centres(image: np.ndarray, finder) -> list[tuple[float, float, float]]:
    """(x, y, side) in photo pixels of each die the finder marks: peaks of its score map,
    placed to a fraction of a cell by the score-weighted mean around each peak."""
    h, w = image.shape[:2]
    scale = FIND_PX / max(h, w)
    fh, fw = (-(-round(n * scale) // STRIDE) * STRIDE for n in (h, w))
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    small = cv2.copyMakeBorder(small, 0, fh - small.shape[0], 0, fw - small.shape[1],
                               cv2.BORDER_REPLICATE)
    finder.setInput(photo_input(small))
    heat, side = finder.forward()[0]
    peaks = (heat >= THRESHOLD) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    padded = np.pad(heat, 1)
    found = []
    for r, c in zip(*np.nonzero(peaks), strict=True):
        win = padded[r:r + 3, c:c + 3]
        dy, dx = (win.sum(axis=1) @ [-1, 0, 1], win.sum(axis=0) @ [-1, 0, 1]) / win.sum()
        k = STRIDE / scale
        found.append(((c + 0.5 + dx) * k, (r + 0.5 + dy) * k, float(side[r, c]) * k))
    return found


def crop(image: np.ndarray, x: float, y: float, side: float, dice: float = CROP_DICE,
         size: int = CROP) -> np.ndarray:
    """The value reader's view of a die centred at (x, y) (pixel edges at integers): `dice`
    die sides around it, `size` pixels square."""
    n = max(4, round(dice * side))
    patch = cv2.getRectSubPix(image, (n, n), (x - 0.5, y - 0.5))
    return cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)


def read_values(crops: np.ndarray, readers, sure: float = SURE) -> np.ndarray:
    """The readers' mean class probabilities for each of N crops (N x CROP x CROP x 3). Where
    they are less than `sure` of a crop, they are averaged over the crop's four quarter turns:
    a die's value survives them, the readers' slips mostly do not."""
    probs = run(readers, crops)
    unsure = probs.max(axis=1) < sure
    if unsure.any():
        turns = np.concatenate([np.rot90(crops[unsure], k, axes=(1, 2)) for k in (1, 2, 3)])
        more = run(readers, turns).reshape(3, unsure.sum(), -1)
        probs[unsure] = (probs[unsure] + more.sum(axis=0)) / 4
    return probs


def run(readers, crops: np.ndarray) -> np.ndarray:
    """The readers' mean output for a stack of 8-bit BGR crops."""
    x = photo_input(crops)
    total = 0
    for reader in readers:
        reader.setInput(x)
        total = total + reader.forward()
    return total / len(readers)


def find_dice(image: np.ndarray, models: tuple | None = None) -> list[dict]:
    """Every die in a photo: value, box_px [x, y, w, h] and confidence (the readers' mean);
    places the readers are at least NO_DIE sure hold no die (their class 0) are dropped.
    `models` is (finder, readers), as `nets` gives them."""
    finder, readers = models or nets()
    found = find_centres(image, finder)
    if not found:
        return []
    probs = read_values(np.stack([crop(image, *f) for f in found]), readers)
    return [{"value": int(p[1:].argmax()) + 1,
             "box_px": [round(x - s / 2), round(y - s / 2), round(s), round(s)],
             "confidence": round(float(p[1:].max()), 3)}
            for (x, y, s), p in zip(found, probs, strict=True) if p[0] < NO_DIE]
