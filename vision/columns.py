"""Point columns cut straight from the camera frame, one small upright image per row of
checkers, for the learned checker reader.

Each of the 24 points and the two halves of the bar is looked at through its own homography:
a patch `WIDTH` x `HEIGHT` pixels covering the point's column (with some of its neighbours'
width, for checkers off the middle) from just outside the field's edge to the middle of the
field, the base always at the top (from a little further out where the field reaches the
picture's edge: `near_edge`). Cut from the frame itself, not from a rectified field, so that a
far point seen small keeps all the pixels the camera gave it.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from ..calibration.file import BoardLook, Calibration
from ..calibration.rectify import FieldView, Row

WIDTH, HEIGHT = 32, 112  # patch size in pixels
SIDE = 0.7  # half the patch width, in column widths
BEFORE = 0.03  # field height shown before the base (the field's edge)
LENGTH = 0.5  # field height shown from the base
EDGE = 0.03  # a row whose base lies this near the picture's edge (share of its shorter side)
BASE_ROWS = slice(round(HEIGHT * 0.1), round(HEIGHT * 0.2))  # a first checker's middle
OUTSIDE = 0.2  # is cut from this much further out (column widths), the picture mirrored beyond
ROW_COLOURS = tuple(np.arange(first, first + 12, 2) for first in (0, 1, 12, 13))  # each row's
# two triangle colours: every other point of points 1-12 and of 13-24 (patch indices)
SORT_SIX = ((1, 2), (4, 5), (0, 2), (3, 5), (0, 1), (3, 4), (1, 4), (0, 3), (2, 5), (1, 3),
            (2, 4), (2, 3))  # compare-exchanges that sort six values


def patch_matrix(view: FieldView, row: Row, outside: float = 0.0, scale: int = 1,
                 length: float = LENGTH) -> np.ndarray:
    """Homography from patch pixels to frame pixels for `row`, its base moved `outside` column
    widths further out; the patch `scale` times WIDTH x HEIGHT pixels over the same place
    (each `scale` x `scale` of its pixels cover one of the plain patch's), or over `length`
    field heights from the base instead of LENGTH (squeezed along the row)."""
    column = view.geo.column_width * view.w
    sx = 2 * SIDE * column / (WIDTH * scale)
    sy = (BEFORE + length) * view.h / (HEIGHT * scale)
    half = (1 - scale) / 2  # plain patch pixels' centres lie between the finer ones'
    x0 = row.base[0] - SIDE * column + half * sx
    y0 = row.base[1] - row.direction * (BEFORE * view.h + outside * column - half * sy)
    to_rect = np.array([[sx, 0, x0], [0, row.direction * sy, y0], [0, 0, 1]])
    return view.rect_to_image @ to_rect


class Columns:
    """Cuts the 26 row patches (points 1..24, bar_low, bar_high) of frames seen through one
    calibration, `scale` times WIDTH x HEIGHT pixels each (2: the pile counter's), reaching
    `length` field heights from each row's base (LENGTH: to the field's middle)."""

    def __init__(self, view: FieldView, scale: int = 1, length: float = LENGTH):
        self.view = view
        self.length = length
        self.size = (WIDTH * scale, HEIGHT * scale)
        self.outside = np.array([near_edge(view, row) for row in view.rows])  # cut further out
        self.matrices = [patch_matrix(view, row, OUTSIDE if out else 0.0, scale, length)
                         for row, out in zip(view.rows, self.outside, strict=True)]

    def holding(self, field_xys, margin: float = 6.0) -> np.ndarray:
        """Which of the 26 patches show any of the field points `field_xys` (within `margin`
        patch pixels of their edge: a die's half side): bool array (26,)."""
        out = np.zeros(len(self.matrices), bool)
        if not len(field_xys):
            return out
        px = self.view.cal.field_to_px(field_xys)
        for i, m in enumerate(self.matrices):
            u, v = cv2.perspectiveTransform(px.reshape(-1, 1, 2), np.linalg.inv(m))[:, 0].T
            out[i] = np.any((u > -margin) & (u < self.size[0] + margin) & (v > -margin) &
                            (v < self.size[1] + margin))
        return out

    def cut(self, image: np.ndarray, rows=range(26)) -> np.ndarray:
        """The patches of a BGR frame, of all 26 rows or of `rows`: uint8 array (rows, H, W,
        3), `size` pixels each."""
        return np.stack([cv2.warpPerspective(image, self.matrices[i], self.size,
                                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                             borderMode=cv2.BORDER_REFLECT)
                         for i in rows])


def near_edge(view: FieldView, row: Row) -> bool:
    """Whether `row`'s base lies within `EDGE` of the picture's edge. A photo framed tight on
    the field is often taken at a slant, and there the near frame's lip (or the picture's
    edge) hides part of each pile's first checker: the net, which knows a pile by where it
    starts, then reads it one short or bare unless the patch starts further out."""
    width, height = view.cal.image_size
    x, y = cv2.perspectiveTransform(np.array([[row.base]], np.float64), view.rect_to_image)[0, 0]
    return min(x, y, width - 1 - x, height - 1 - y) < EDGE * min(width, height)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Each row of the column nets' logits (the checker net's, the pile counter's) as
    probabilities."""
    e = np.exp(logits - logits.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def references(patches: np.ndarray) -> np.ndarray:
    """What each row's place looks like bare, for the net to compare with: per pixel, the
    median of the 12 points of its triangle colour (most of them are bare in most positions),
    and for each half of the bar the other half. Points alternate colours along a row; whether
    the two rows' odd points share a colour depends on the board, so the pairing that makes the
    rows' medians alike is taken. Medians are taken at half resolution (a bare point is
    smooth; a fifth of the time). uint8 array shaped like `patches`."""
    small = patches[:24, ::2, ::2]
    pixels = small.reshape(24, -1)
    rows = middle_of_six(pixels.reshape(2, 6, 2, -1))  # (row, parity, pixels)
    same = np.abs(rows[0] - rows[1]).mean()
    crossed = np.abs(rows[0] - rows[1, ::-1]).mean()
    parity = np.arange(24) % 2
    colour = np.where((np.arange(24) >= 12) & (crossed < same), 1 - parity, parity)
    out = np.empty_like(patches)
    for c in (0, 1):
        bare = np.partition(pixels[colour == c].T, (5, 6), axis=-1)[:, 5:7].mean(-1)
        out[:24][colour == c] = bare.astype(np.uint8).reshape(small.shape[1:]).repeat(2, 0)\
            .repeat(2, 1)
    out[24], out[25] = patches[25], patches[24]
    return out


def middle_of_six(values: np.ndarray) -> np.ndarray:
    """The mean of the 3rd and 4th smallest of six along axis 1 (a median of six), by a sorting
    network (SORT_SIX): on many short columns far faster than sorting each."""
    v = list(np.moveaxis(values, 1, 0))
    for i, j in SORT_SIX:
        v[i], v[j] = np.minimum(v[i], v[j]), np.maximum(v[i], v[j])
    return (v[2].astype(np.float32) + v[3]) / 2


def row_references(patches: np.ndarray, bare, refs: np.ndarray,
                   colours=ROW_COLOURS) -> np.ndarray:
    """`refs` with each point's reference taken from its own row: the per-pixel median of the
    row's points of its triangle colour that a first reading found `bare` (bool per row), for
    the `colours` (groups of rows) asked. Light falls unevenly across a board: a box's far wall
    shades the far row's bases, a lamp lights one side, and medians pooled over both rows show
    neither row as it is, so a bare point whose row is darker than the pool reads as a checker
    (real photos: docs/vision-log.md). A colour of a row with no bare point keeps `refs`, and so do
    the bar halves."""
    out = refs.copy()
    for group in colours:
        seen = group[np.asarray(bare)[group]]
        if len(seen):
            out[group] = np.median(patches[seen], axis=0).astype(np.uint8)
    return out


def board_references(patches: np.ndarray, counts) -> np.ndarray:
    """What each row's place looks like bare on this very board, from a frame whose 26 signed
    counts are known (the start position at calibration): a bare row is its own reference, an
    occupied one takes `references` of that frame. Kept with the calibration, they show the
    net the user's own board where the frame's medians only guess it."""
    out = references(patches)
    bare = np.asarray(counts) == 0
    out[bare] = patches[bare]
    return out


def beside_references(patches: np.ndarray, stored: np.ndarray | None = None) -> np.ndarray:
    """The checker net's input: each patch beside its bare reference, (26, H, W, 6): the
    `stored` ones (`board_references`) when given, else this frame's `references`."""
    return np.concatenate([patches, references(patches) if stored is None else stored], axis=-1)


def base_colours(patches: np.ndarray) -> np.ndarray:
    """Lab colour (OpenCV 8-bit scale) of the middle of the first checker's place in each
    patch: where a row's first checker lies when there is one."""
    middle = patches[:, BASE_ROWS, WIDTH // 2 - 4:WIDTH // 2 + 4]
    lab = cv2.cvtColor(middle.reshape(-1, 8, 3), cv2.COLOR_BGR2LAB).reshape(len(patches), -1, 3)
    return np.median(lab, axis=1).astype(np.float32)


def set_colours(patches: np.ndarray, counts) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """White's and Black's checker colours (Lab, as `base_colours`) in a frame whose 26 signed
    counts are known: the median first checker of each set's rows."""
    lab, counts = base_colours(patches), np.asarray(counts)
    return tuple(tuple(round(float(v), 1) for v in np.median(lab[rows], axis=0))
                 for rows in (counts > 0, counts < 0))


def adapted(image: np.ndarray, cal: Calibration, counts) -> Calibration:
    """`cal` with the look of the user's board (`board_references`) and its two sets' colours
    (`set_colours`) cut from `image`, a frame whose 26 rows' signed counts are known (the
    start position at calibration)."""
    patches = Columns(FieldView(cal)).cut(image)
    return replace(cal, board=BoardLook(dict(cal.corners_px), board_references(patches, counts),
                                        set_colours(patches, counts)))
