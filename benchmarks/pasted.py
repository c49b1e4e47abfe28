"""Real checkers pasted onto real boards: more real training rows for the checker net than
the labelled photos hold.

The labelled real photos show each board in one or two positions, so the net sees each
board's bare points, and each set of checkers, in few combinations. Here a photo's bare points
are given checkers cut where the dataset's boxes show them, of the same photo or of
another one (another board's checkers on this board's points, under this photo's light), 1
to 7 of them, piled as players pile them (a row of five from the point's base, the sixth and
later ones on top between them). Every cut is a point's upright patch (`vision.columns`), where a
checker of any board stands at the same place: the k-th of a row is centred k + 1/2
diameters from the base. The rows are then seen beside the references of the frame they
make, as the reader sees a real frame (`vision.columns.references`).
"""

from __future__ import annotations

import cv2
import numpy as np

from bgboard.calibration.rectify import FieldView
from bgboard.vision.columns import BEFORE, HEIGHT, LENGTH, SIDE, WIDTH, Columns

RATIO = 1.0  # checker diameter / column width on real boards (their boxes: median 1.04)
ROW = 5  # checkers in a row from the base before the next go on top
SHARE = 0.3  # share of a photo's bare points given checkers
COUNTS = (1, 2, 3, 4, 5, 6, 7)  # checkers pasted on a point, with these odds
ODDS = np.array([3, 3, 2, 2, 3, 1.5, 1]) / 15.5
OWN = 0.5  # odds that a photo's points get its own checkers (else another photo's)
FEATHER = 0.12  # the sprite's edge fades over this share of its radius
SLACK = 1.06  # a sprite is cut this much wider than the checker, its edge faded out


def checker_size(view: FieldView, scale: int = 1, length: float = LENGTH
                 ) -> tuple[float, float]:
    """A checker's (across, along) diameters in pixels of patches `scale` times the checker
    net's reaching `length` field heights (`Columns(view, scale, length)`) through `view`."""
    across = RATIO * WIDTH / (2 * SIDE)
    along = RATIO * view.geo.column_width * view.w / view.h * HEIGHT / (BEFORE + length)
    return across * scale, along * scale


def centre(k: int, along: float, scale: int = 1, length: float = LENGTH
           ) -> tuple[float, float]:
    """Pixel (x, y), in a patch `scale` times the checker net's reaching `length`, of the
    middle of a row's k-th checker (0 at the base): ROW from the base, then on top between
    them."""
    base = BEFORE / (BEFORE + length) * HEIGHT * scale
    step = k if k < ROW else k - ROW + 0.5
    return WIDTH * scale / 2, base + (step + 0.5) * along


def mask(h: int, w: int) -> np.ndarray:
    """An ellipse filling an h x w box, 1 inside, fading to 0 over its outer FEATHER and the
    SLACK beyond the checker."""
    yy, xx = np.mgrid[:h, :w]
    r = np.hypot((xx + 0.5 - w / 2) / (w / 2), (yy + 0.5 - h / 2) / (h / 2)) * SLACK
    return np.clip((1 - r) / FEATHER, 0, 1).astype(np.float32)


def paste(patch: np.ndarray, piece: np.ndarray, n: int, size: tuple[float, float],
          rng, length: float = LENGTH) -> np.ndarray:
    """`patch` (of any `Columns` scale and `length`) with `n` checkers that look like `piece`
    (one of `sprites`) piled on it from its base, each resized to `size` and nudged a pixel or
    two (at the checker net's scale) off the column's middle as real checkers lie."""
    scale = len(patch) // HEIGHT
    out = patch.astype(np.float32)
    w, h = (round(SLACK * s) for s in size)
    picture = cv2.resize(piece, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = mask(h, w)[..., None]
    for k in range(n):
        x, y = centre(k, size[1], scale, length)
        x0 = round(x - w / 2 + rng.normal(0, 1.0) * scale)
        y0 = round(y - h / 2 + rng.normal(0, 0.5) * scale)
        inside = np.s_[max(y0, 0):min(y0 + h, len(patch)), max(x0, 0):min(x0 + w, patch.shape[1])]
        cut = np.s_[inside[0].start - y0:inside[0].stop - y0,
                    inside[1].start - x0:inside[1].stop - x0]
        a = alpha[cut]
        out[inside] = out[inside] * (1 - a) + picture[cut] * a
    return np.clip(out, 0, 255).astype(np.uint8)


def sprites(patches: np.ndarray, columns: Columns, counts, boxes) -> dict[int, list[np.ndarray]]:
    """The checkers of a photo's labelled boxes (`boxes`: (light, x, y), their middles in
    photo pixels), each cut SLACK times a checker's size around its middle in the patch of the
    point it lies on, where that point holds its set (counts: signed, + light); by set (+1
    light, -1 dark). A box whose checker the patch does not show whole gives none. The
    patches are `columns`' (of any scale)."""
    width, height = columns.size
    w, h = (round(SLACK * s) for s in checker_size(columns.view, height // HEIGHT,
                                                   columns.length))
    found: dict[int, list[np.ndarray]] = {1: [], -1: []}
    for light, x, y in boxes:
        s = 1 if light else -1
        for patch, matrix, n in zip(patches, columns.matrices, counts, strict=False):
            if np.sign(n) != s:
                continue
            (u, v), = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64),
                                               np.linalg.inv(matrix))[0]
            if abs(u - width / 2) < w / 4 and h / 2 <= v <= height - h / 2:
                found[s].append(cv2.getRectSubPix(patch, (w, h), (u - 0.5, v - 0.5)))
                break
    return found


def composite(patches: np.ndarray, counts: np.ndarray, bare: np.ndarray, view: FieldView,
              donors: list[dict[int, list[np.ndarray]]], own: dict[int, list[np.ndarray]],
              rng, length: float = LENGTH) -> tuple[np.ndarray, np.ndarray]:
    """A photo's 26 patches (of any `Columns` scale and `length`, the donors' sprites cut at
    the same) with checkers pasted on SHARE of its `bare` points, and the rows' signed counts:
    the checkers of one donor (its `own` with odds OWN, else one of `donors`), each point one
    set, COUNTS checkers with odds ODDS."""
    donor = own if rng.random() < OWN or not donors else donors[rng.integers(len(donors))]
    sets = [s for s in (1, -1) if donor[s]]
    out, signed = patches.copy(), counts.copy()
    if not sets:
        return out, signed
    size = checker_size(view, patches.shape[1] // HEIGHT, length)
    for i in np.flatnonzero(bare):
        if rng.random() >= SHARE:
            continue
        s = sets[rng.integers(len(sets))]
        n = int(rng.choice(COUNTS, p=ODDS))
        piece = donor[s][rng.integers(len(donor[s]))]
        out[i] = paste(out[i], piece, n, size, rng, length)
        signed[i] = s * n
    return out, signed
