"""A synthetic camera view of a backgammon board, with its ground truth: the renderer the
tests, the benchmarks, the training scripts and `bgboard demo` / `bgboard render` draw their
boards with. The live reader (vision.read, steady, dice, cube) never imports it.

- `scene`: what a picture shows (`Look`, `Scene`, `Die`, `Cube`), random looks and scenes, and
  where each checker lies (`strips`: the reader's conventions, `vision.checkers.pyramid`).
- `drawing`: `render(scene, seed)`, the picture itself (deterministic from the seed), and
  `dice_photo`, loose dice on a plain surface.
- `looks`: the named board looks (families), far wider than `random_look`.
- `drawn`: boards drawn at random over every parameter of a `Look` (`drawn_look`), every
  frame a board of its own, with whole families held out by construction.

The names of `scene` and `drawing` are given here too: `from bgboard.vision.synthetic import
Scene, render`.
"""

from . import drawing, scene
from .drawing import *  # noqa: F403
from .scene import *  # noqa: F403

__all__ = [*drawing.__all__, *scene.__all__]
