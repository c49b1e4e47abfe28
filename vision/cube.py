"""The doubling cube in a photo of a board: where it lies and the number on its top face.

Players leave the cube on the bar or beside the field (on the frame, in a tray), half-way
between them while nobody owns it (64 up) and on the owner's side once it is turned. A fully
convolutional finder marks cube centres on a half-size top-down view of the field and a band
around it (`wide_half`); a reader then looks at a top-down patch of the frame around each
mark and says "no cube" (a die, a checker, anything else) or the number on top: 2, 4, 8, 16,
32 or 64, in any of the four turns a face can show. Both were trained on frames rendered by
`vision.synthetic` with a cube, the reader also on real dice and real board photos as "no cube"
(benchmarks/train_cube.py); docs/vision.md has their figures on renders and on the real
board photos that show a cube. `bgboard read --find-cube` uses them.
"""

from __future__ import annotations

import cv2
import numpy as np

from . import dice, models

FACES = (2, 4, 8, 16, 32, 64)  # the reader's classes 1-6 (0: no cube)
BESIDE = (0.22, 0.12)  # searched beyond the field: share of its width past each end, of its
# height past each edge
CUBE_SIZE = 0.06  # cube side / field height
PATCH = 48  # reader input, pixels a side
PATCH_CUBES = 2.0  # reader patch, in cube sides
SIZES = (0.75, 1.0, 1.35)  # cube sizes read, times CUBE_SIZE
PLAUSIBLE = 0.5  # a mark read this sure at its best size is read again in four turns
SURE = 0.8  # a cube is reported when P(a cube) x P(its number), over four turns, reaches this
MIDDLE = 1 / 6  # a cube this near the field's middle line (share of its height) is in the middle
NETS = (models.CUBE_FIND, models.CUBE_READ)  # the finder and the reader


def nets() -> tuple:
    """The shipped finder and reader."""
    return tuple(models.shipped(name) for name in NETS)


def wide_box(view) -> tuple[int, int, int, int]:
    """The rectified box (x, y, w, h; full size, even) searched for the cube: the field and
    BESIDE around it."""
    bx, by = round(BESIDE[0] * view.w), round(BESIDE[1] * view.h)
    return (view.m - bx, view.m - by, 2 * round(view.w / 2 + bx), 2 * round(view.h / 2 + by))


def wide_half(image: np.ndarray, view) -> np.ndarray:
    """The field and the band around it seen from above at half size (the finder's input)."""
    return cv2.pyrDown(view.warp_box(image, *wide_box(view)))


def cube_patch(image: np.ndarray, view, centre, side: float) -> np.ndarray:
    """The reader's top-down patch of the frame around `centre` (rectified pixels), for a
    cube of `side` rectified pixels."""
    return dice.die_patch(image, view, centre, side, PATCH, PATCH_CUBES)


def read_patches(patches: np.ndarray, reader) -> np.ndarray:
    """Per patch, the probabilities of no cube and of each of FACES on top."""
    reader.setInput(dice.net_input(patches))
    return reader.forward()


def find_cube(image: np.ndarray, view, models: tuple | None = None) -> dict | None:
    """The cube in a frame, or None where none is seen SURE: its top `face`, `field_xy`
    (beyond 0-1 where it lies beside the field), `px` (frame pixels), `confidence`, and
    what it tells the position: `value` and `owner` (`ownership`)."""
    finder, reader = models or nets()
    x0, y0, _, _ = wide_box(view)
    centres = 2 * dice.find_centres(wide_half(image, view), finder) + (x0, y0)
    if not len(centres):
        return None
    sides = np.array(SIZES) * CUBE_SIZE * view.h
    patches = np.stack([cube_patch(image, view, c, s) for s in sides for c in centres])
    sure = dice.surety(read_patches(patches, reader)).reshape(len(sides), len(centres))
    plausible = np.flatnonzero(sure.max(0) >= PLAUSIBLE)  # read again at their best size
    if not len(plausible):
        return None
    at_best = patches.reshape(len(sides), len(centres), *patches.shape[1:])
    turned = read_turns(at_best[sure.argmax(0)[plausible], plausible], reader)
    turned_sure = dice.surety(turned)
    pick = int(turned_sure.argmax())
    if turned_sure[pick] < SURE:
        return None
    px = view.rect_to_image @ (*centres[plausible[pick]], 1.0)
    return seen_through({"face": FACES[int(turned[pick, 1:].argmax())],
                         "px": [round(float(px[0] / px[2]), 1), round(float(px[1] / px[2]), 1)],
                         "confidence": round(float(turned_sure[pick]), 3)}, view)


def read_turns(patches: np.ndarray, reader) -> np.ndarray:
    """`read_patches`, each patch's reading the mean over its four quarter turns: a cube's
    number reads in any turn, the reader's slips on a die, a checker or a printed mark
    mostly do not survive them (never mirrored: a mirrored number is no number)."""
    turns = np.concatenate([np.rot90(patches, k, axes=(1, 2)) for k in range(4)])
    return read_patches(np.ascontiguousarray(turns), reader).reshape(4, len(patches), -1).mean(0)


def seen_through(cube: dict, view) -> dict:
    """The cube (its `face` and `px` at least) with its `field_xy` through `view` and what
    it tells there (`ownership`): a photo's field can be named four ways, and the cube's
    owner turns with the naming."""
    (fx, fy), = view.cal.px_to_field([cube["px"]])
    return {**cube, "field_xy": [round(float(fx), 3), round(float(fy), 3)],
            **ownership(cube["face"], fy)}


def ownership(face: int, y: float) -> dict:
    """What a cube showing `face` at field height `y` (0 White's edge, 1 Black's) tells:
    64 up is the cube in the middle (value 1, no owner); another number on one player's side
    is that player's cube at that value; another number in the middle band (MIDDLE) tells
    the value but not the owner (owner None: ask, never guess)."""
    if face == 64:
        return {"value": 1, "owner": None}
    owner = None if abs(y - 0.5) < MIDDLE else ("white" if y < 0.5 else "black")
    return {"value": face, "owner": owner}
