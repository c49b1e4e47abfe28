"""Named board looks, far wider than `scene.random_look`: the boards people own.

Each family stresses one thing real boards do to a reader, on top of a random look (and, in
every family but `classic`, a random mix of 3D checkers, players' piles, glare and lens
distortion):

- `classic`: `scene.random_look` as it is (checkers that stand out from every board colour).
- `same-colour`: checkers the colours of the points (cream on cream, red on red).
- `cream-gold`: cream points with white checkers, gold points with gold checkers.
- `inlaid`: inlaid lines around the points and the field, a diamond in each half.
- `logo`: a printed logo in one half of the field.
- `marble`: a veined marble field.
- `leather`: a leather field with stitching.
- `glossy`: thick glossy checkers under a lamp (strong glare).
- `tilted`: the camera 20-35 degrees off vertical, with lens distortion.
- `piled`: checkers piled as players pile them (long rows, towers, off the point's middle).
- `studded`: a round knob at every point's tip or an inlaid disc at every base, the points
  often the colours of the checkers (round shapes on bare points, as on many real boards).

`HELD_OUT` families are never trained on (the training scripts draw from `TRAINED`): figures
on them say how the reader does on a kind of board it has never seen.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import scene
from .scene import FRAME_SIZE, Look, Scene

FAMILIES = ("classic", "same-colour", "cream-gold", "inlaid", "logo", "marble", "leather",
            "glossy", "tilted", "piled", "studded")
HELD_OUT = ("logo", "marble")
TRAINED = tuple(f for f in FAMILIES if f not in HELD_OUT)
CREAM, GOLD = (232, 220, 190), (196, 156, 72)


def family_look(rng, family: str) -> Look:
    """A random look of the named family."""
    if family not in FAMILIES:
        raise ValueError(f"unknown look {family!r}: choose one of {', '.join(FAMILIES)}")
    look = scene.random_look(rng)
    if family == "classic":
        return look
    look = _extras(rng, look)
    if family == "same-colour":
        light, dark = sorted(look.points, key=sum, reverse=True)
        look = replace(look, checkers=(scene.jitter(rng, light, 8), scene.jitter(rng, dark, 8)))
    elif family == "cream-gold":
        points = (scene.jitter(rng, CREAM, 6), scene.jitter(rng, GOLD, 8))
        look = replace(look, points=points if rng.random() < 0.5 else points[::-1],
                       checkers=(scene.jitter(rng, (245, 240, 228), 5),
                                 scene.jitter(rng, GOLD, 8)))
    elif family in ("inlaid", "logo", "marble", "leather"):
        texture = {"inlaid": "wood", "leather": "felt"}.get(family, look.texture)
        look = replace(look, pattern={"inlaid": "inlay"}.get(family, family), texture=texture)
    elif family == "glossy":
        look = replace(look, style="3d", glare=float(rng.uniform(0.5, 0.9)))
    elif family == "tilted":
        look = replace(look, corners=tilted_corners(rng, look.aspect, rng.uniform(20, 35)),
                       distortion=float(rng.uniform(0.03, 0.1)))
    elif family == "piled":
        look = replace(look, pile="players")
    else:
        look = replace(look, ornament=scene.pick(rng, ("knob", "disc")))
        if rng.random() < 0.5:
            light, dark = sorted(look.points, key=sum, reverse=True)
            look = replace(look, checkers=(scene.jitter(rng, light, 8),
                                           scene.jitter(rng, dark, 8)))
    return look


def _extras(rng, look: Look) -> Look:
    """The mix every wide family gets: 3D checkers, players' piles, glare, a wider lens, and
    on most a deep box whose walls shade the field's edges (drawn from a child generator, so
    the rest of the look and the position are what they were before walls were drawn)."""
    walls = rng.spawn(1)[0]
    return replace(
        look,
        style="3d" if rng.random() < 0.5 else "flat",
        view=tuple(float(v) for v in rng.normal(0, 1, 2) / 3 + (0, 1)),
        pile="players" if rng.random() < 0.5 else "rows",
        glare=float(rng.uniform(0.2, 0.6)) * (rng.random() < 0.3),
        distortion=float(rng.uniform(0.0, 0.06)) * (rng.random() < 0.3),
        wall=float(walls.uniform(0.02, 0.08)) * (walls.random() < 0.7))


def tilted_corners(rng, aspect: float, tilt: float) -> tuple:
    """Field corners p1, p12, p13, p24 seen by a pinhole camera `tilt` degrees off vertical,
    looking at the field's centre from any side, the field filling most of the frame."""
    return tilted_view(rng, aspect, tilt)[0]


def tilted_view(rng, aspect: float, tilt: float, *, turn: float | None = None,
                distance: float = 1.6) -> tuple[tuple, tuple[float, float]]:
    """`tilted_corners` and the frame pixel straight below the camera (`Look.nadir`): the
    camera `distance` field heights from the field's centre (its height: distance times the
    tilt's cosine), the field turned by `turn` degrees (None: near one of the four sides)."""
    w, h = FRAME_SIZE
    field = np.array([[aspect, 1], [-aspect, 1], [-aspect, -1], [aspect, -1]]) / 2
    if rng.random() < 0.5:
        field[:, 0] *= -1
    if turn is None:
        turn = rng.choice([0, 90, 180, 270]) + rng.normal(0, 8)
    turn = np.radians(turn)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    t = np.radians(tilt)
    ground = np.vstack([field @ rot.T, [0.0, -distance * np.sin(t)]])  # the corners, the nadir
    # camera above the centre, tilted about the x axis: depth grows with the ground's y
    depth = distance + ground[:, 1] * np.sin(t)
    image = np.stack([ground[:, 0], ground[:, 1] * np.cos(t)], 1) / depth[:, None] * distance
    corners = image[:4]
    span = np.ptp(corners, 0) * 1.12
    scale = rng.uniform(0.85, 1.0) * min((w - 20) / span[0], (h - 20) / span[1])
    image = image * scale + np.array([w, h]) / 2 - (corners.max(0) + corners.min(0)) / 2 * scale
    nadir = (float(image[4, 0]), float(image[4, 1]))
    return tuple((round(float(x), 1), round(float(y), 1)) for x, y in image[:4]), nadir


def family_scene(seed: int, family: str, *, hand: float = 0.1, cocked: float = 0.1) -> Scene:
    """A random scene (position, dice, maybe a hand) on a random look of the family."""
    rng = np.random.default_rng([seed, FAMILIES.index(family)])
    look = family_look(rng, family)
    points, bar = scene.random_position(rng)
    dice = scene.random_dice(rng, look, points, bar, cocked)
    return Scene(points, bar, dice, bool(rng.random() < hand), look)
