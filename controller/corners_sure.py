"""Whether `bgboard read` stands behind the field corners it found in a photo by itself
(`corners_sure`, DESIGN.md: every corner within a third of a point of the field's own).

The doubt is measured in the photo, not assumed. The corners are sure only where the reading
through them is a possible position (at most 15 checkers a side on the field and the bar)
and one of two things vouches for them:

- the checkers read through them are the start position, every checker on its point (on
  the labelled real photos, corners more than a third of a point off never read so: the
  columns land on the wrong points); or
- a second look agrees: the learned finder and refiner, run on the photo's mirror image, put
  the corners within `AGREE` point widths of these (`field_finder.second_look`).

`AGREE` is half the least second look of any labelled real photo whose corners were found
more than a third of a point off with nothing else vouching for them (IMG_D733's 0.12 point
widths); chosen so on each four folds and tried on the fifth by
`benchmarks/real_fields.py --sure` (docs/vision.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..vision.field_finder import second_look
from .photo import PhotoReading, shows_start

AGREE = 0.058  # the most a second look may move a corner, in point widths, for it to vouch
SHARE = 0.5  # AGREE's share of the least second look of a photo found wrong


@dataclass(frozen=True)
class Evidence:
    """What the photo says of the corners a reading was read through: how far the second look
    moved them (point widths), whether the reading is the start position, and whether it is a
    possible position."""

    second_look: float
    start: bool
    possible: bool

    def sure(self, agree: float = AGREE) -> bool:
        """Whether the corners are stood behind, with `agree` as the second look's bound."""
        return self.possible and (self.start or self.second_look <= agree)


def evidence(image: np.ndarray, found: PhotoReading) -> Evidence:
    """The evidence in a BGR photo for the corners its likeliest reading was read through."""
    best = found.readings[0]
    return Evidence(second_look(image, best["corners_px"]), shows_start(best), possible(best))


def possible(obs: dict) -> bool:
    """Whether a reading can stand on a board: at most 15 checkers a side on field and bar."""
    white = sum(n for n in obs["points"] if n > 0) + obs["bar"]["white"]
    black = -sum(n for n in obs["points"] if n < 0) + obs["bar"]["black"]
    return max(white, black) <= 15
