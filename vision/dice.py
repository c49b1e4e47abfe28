"""Dice on a calibrated board's field, found and read by two small nets run with OpenCV DNN.

A fully convolutional finder marks each die's centre on the half-size top-down field (which
`read` warps anyway); a reader then looks at a top-down patch of the original frame around
each centre (the field is warped below the frame's resolution, too coarse for pips) and says
"no die" or 1-6, and whether the die leans (`cocked`). Both were trained on frames rendered by
`vision.synthetic` from seeds the benchmark never reads (benchmarks/train_field_dice.py).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from . import dice_photo, models
from .models import net_input

DIE_SIZE = 0.041  # die side / field height, unless the calibration says otherwise
STRIDE = 4  # finder output cells per half-size field pixel
PATCH = 36  # reader input, pixels a side
PATCH_DICE = 2.0  # reader patch, in die sides
FOUND = 0.2  # finder score for a die
NO_DIE = 0.5  # reader probability of no die above which a place the finder marks is dropped
LEANS = 0.5  # reader probability that a die leans above which it is reported cocked
SIZES = (0.75, 1.0, 1.5)  # die sizes read, times the expected one (real dice vary; at
# twice it a patch holds a whole checker, and a glossy one's highlight reads as a 1)
EXPECTED = SIZES.index(1.0)
SURE = 0.8  # a die is reported when P(a die) x P(its value) reaches this at its best size
PLAUSIBLE = 0.5  # a place this sure in one view, and less than ONE_SIZE, is read in eight
ONE_SIZE = 0.99  # a die read this sure is read no more: not at other sizes, not in 8 views
APART = 0.7  # two dice read closer than this many die sides (the size read at) are one
PHOTO_SHARE = 0.3  # the any-photo value readers' share (geometric) of an unsure die's value
NETS = (models.FIELD_FIND, models.FIELD_READ)  # the finder and the reader
FOLDER = models.FOLDER  # where `nets` loads them from (benchmarks/vision.py --dice-nets: another)


def nets() -> tuple:
    """The finder and reader (the shipped ones unless FOLDER says otherwise)."""
    return tuple(models.shipped(name, FOLDER) for name in NETS)


def use_nets(folder: Path) -> None:
    """Read the field's dice with the finder and reader in `folder` from now on (benchmarks
    judging trial nets on the read path as shipped); ValueError if it lacks one."""
    global FOLDER
    lacking = [name for name in NETS if not (folder / name).is_file()]
    if lacking:
        raise ValueError(f"{folder} lacks {' and '.join(lacking)}")
    FOLDER = folder


def find_centres(half: np.ndarray, finder) -> np.ndarray:
    """Die centres (x, y) in half-size field pixels: peaks of the finder's score map, each
    placed within its cell by the finder's offset."""
    h, w = half.shape[:2]
    fh, fw = (-(-n // STRIDE) * STRIDE for n in (h, w))
    finder.setInput(net_input(cv2.copyMakeBorder(half, 0, fh - h, 0, fw - w,
                                                 cv2.BORDER_REPLICATE)))
    heat, dx, dy = finder.forward()[0]
    peaks = (heat >= FOUND) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    r, c = np.nonzero(peaks)
    return np.c_[c + dx[r, c], r + dy[r, c]] * STRIDE


def die_patch(image: np.ndarray, view, centre, die_rect: float, patch: int = PATCH,
              span: float = PATCH_DICE) -> np.ndarray:
    """The reader's top-down patch of the frame around `centre` (rectified pixels): `patch`
    pixels a side, `span` dice of `die_rect` rectified pixels across."""
    r = span / 2 * die_rect
    k = 2 * r / patch
    a = np.array([[k, 0, centre[0] - r], [0, k, centre[1] - r], [0, 0, 1]])
    return cv2.warpPerspective(image, view.rect_to_image @ a, (patch, patch),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)


def read_patches(patches: np.ndarray, reader) -> tuple[np.ndarray, np.ndarray]:
    """Per patch, the probabilities of no die and of 1-6, and the probability it leans."""
    reader.setInput(net_input(patches))
    out = reader.forward()
    return out[:, :7], out[:, 7]


def read_views(patches: np.ndarray, reader) -> tuple[np.ndarray, np.ndarray]:
    """`read_patches`, each patch's reading the mean over its eight views (four quarter
    turns, each also mirrored): a die's value and lean survive them, the reader's slips on a
    checker or a printed pattern mostly do not (real board photos: docs/vision-log.md)."""
    turns = [np.rot90(patches, k, axes=(1, 2)) for k in range(4)]
    probs, lean = read_patches(np.concatenate(turns + [t[:, :, ::-1] for t in turns]), reader)
    return probs.reshape(8, len(patches), -1).mean(0), lean.reshape(8, -1).mean(0)


def best_reading(image: np.ndarray, view, centres: np.ndarray, die_rect: float, reader
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per centre, the reading at the die size (of SIZES times `die_rect`) it is surest of
    (`surety`): the probabilities of no die and 1-6, that it leans, and that size in
    rectified pixels. Every centre is read at the expected size (EXPECTED) first; only those
    read less than ONE_SIZE sure there are read at the other sizes (a die of the expected
    size, most dice on most boards, costs one patch, not three). The centres then read
    PLAUSIBLE to ONE_SIZE sure are read again at that size in eight views (`read_views`),
    which their reading becomes. A die leans when the reader says so at its best size or at
    the expected one: a leaning die shows a side too, so it is often read surest at a larger
    size than the renders the lean was learnt on."""
    sizes = np.array(SIZES) * die_rect
    probs = np.zeros((len(sizes), len(centres), 7), np.float32)
    lean = np.zeros((len(sizes), len(centres)), np.float32)
    probs[EXPECTED], lean[EXPECTED] = read_patches(
        np.stack([die_patch(image, view, c, sizes[EXPECTED]) for c in centres]), reader)
    unsure = np.flatnonzero(surety(probs[EXPECTED]) < ONE_SIZE)
    others = [i for i in range(len(sizes)) if i != EXPECTED]
    if len(unsure):
        more, more_lean = read_patches(np.stack([die_patch(image, view, centres[c], sizes[i])
                                                 for i in others for c in unsure]), reader)
        probs[np.ix_(others, unsure)] = more.reshape(len(others), len(unsure), -1)
        lean[np.ix_(others, unsure)] = more_lean.reshape(len(others), len(unsure))
    best = surety(probs).argmax(0)
    each = np.arange(len(centres))
    read, leans = probs[best, each], lean[best, each]
    sure = surety(read)
    again = np.flatnonzero((sure >= PLAUSIBLE) & (sure < ONE_SIZE))
    if len(again):
        read[again], leans[again] = read_views(np.stack(
            [die_patch(image, view, centres[c], sizes[best[c]]) for c in again]), reader)
    return read, np.maximum(leans, lean[EXPECTED]), sizes[best]


def with_photo_readers(image: np.ndarray, view, centres: np.ndarray, sizes: np.ndarray,
                       read: np.ndarray) -> np.ndarray:
    """`read` (per centre, the probabilities of no die and 1-6) with the value of each place
    read as a die (less than NO_DIE nothing) but less than SURE sure, too unsure to report,
    weighed with the any-photo value readers' (vision.dice_photo: trained on real photos of
    dice, where this reader learnt mostly from renders) on a top-down crop of it, their value
    probabilities taking PHOTO_SHARE of the geometric mean: where they agree, a real die
    this reader was unsure of is reported. Whether a die lies there stays this reader's
    word: the any-photo readers never saw a board, and their "no die" on a checker or a
    point's tip is no guide (real board photos: docs/vision-log.md)."""
    unsure = np.flatnonzero((surety(read) < SURE) & (read[:, 0] < NO_DIE))
    if not len(unsure):
        return read
    crops = np.stack([die_patch(image, view, centres[c], sizes[c], dice_photo.CROP,
                                dice_photo.CROP_DICE) for c in unsure])
    photo = dice_photo.read_values(crops, dice_photo.readers())[:, 1:]
    photo /= photo.sum(1, keepdims=True)
    value = read[unsure, 1:] ** (1 - PHOTO_SHARE) * photo ** PHOTO_SHARE
    out = read.copy()
    out[unsure, 1:] = value / value.sum(1, keepdims=True) * (1 - read[unsure, :1])
    return out


def surety(probs: np.ndarray) -> np.ndarray:
    """How sure a reading (the probabilities of nothing and of each value, last axis: no die
    and 1-6 here, no cube and its numbers in vision.cube) is of a die and its value: P(a die)
    x P(its value)."""
    return probs[..., 1:].max(-1) * (1 - probs[..., 0])


def find_field_dice(image: np.ndarray, half: np.ndarray, view, models: tuple | None = None
                    ) -> list[dict]:
    """Dice on the field of a frame: value, field_xy, cocked and confidence each, given the
    half-size top-down field (`view.warp_half(image)`). Real dice come in many sizes, so each
    place the finder marks is read at SIZES times the expected size and kept at the one the
    reader is surest of; a die read less than SURE sure has its value weighed with the
    any-photo readers' (`with_photo_readers`); what is then SURE is reported."""
    finder, reader = models or nets()
    die_rect = view.cal.extra.get("die_size", DIE_SIZE) * view.h
    centres = 2 * find_centres(half, finder)
    if not len(centres):
        return []
    probs, lean, sizes = best_reading(image, view, centres, die_rect, reader)
    probs = with_photo_readers(image, view, centres, sizes, probs)
    sure = surety(probs)
    found: list[dict] = []
    for centre, p, cocked, certain, size in sorted(
            zip(centres, probs, lean, sure, sizes, strict=True), key=lambda f: f[1][0]):
        if p[0] >= NO_DIE or certain < SURE \
                or any(np.hypot(*(centre - d["at"])) < APART * size for d in found):
            continue
        fx, fy = view.to_field(centre)
        found.append({"value": int(p[1:].argmax()) + 1, "at": centre,
                      "field_xy": [round(float(fx), 3), round(float(fy), 3)],
                      "cocked": bool(cocked >= LEANS), "confidence": round(float(p[1:].max()), 3)})
    return found
