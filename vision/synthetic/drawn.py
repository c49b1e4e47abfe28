"""Boards drawn at random (`drawn_look`): every frame a board of its own, each of the look's
parameters drawn from a wide continuous range instead of a list of looks, with whole families
held out by construction (`DRAWN_HELD_OUT`) so that a reader trained on drawn boards can be
measured on kinds of board it has never seen.

- colours: field, points, frame, table, checkers and dice drawn in HSV boxes, all of them
  under a warm, cold or neutral light (`_cast`); the two checker sets at least
  CHECKERS_APART apart (close pairs too), mostly standing out from the board;
- the board: proportions, bar, points, textures (felt, wood, plain, cork), patterns (inlay,
  outline, worn, leather), ornaments, trays, a box's walls and their shade;
- the camera: any turn, a tilt of 0 to MAX_TILT degrees from any height, any zoom and place
  in the frame, lens distortion; a raised box and standing checkers seen from that camera;
- the light and the picture: shadows, gradients, shade or a pool of lamp light, glare, noise,
  blur, JPEG;
- the parts' shapes (`drawn_shapes`): narrow or wide points with sharp or rounded tips, a
  narrow or wide frame, checkers' rims and grooves, dice's pips; drawn on a stream of their
  own (`SHAPES`), so that a seed's other draws stay what they were before shapes were drawn.

Held out (`held_out_family`): `tournament-felt` (a green to blue-green, saturated felt field:
the classic tournament board), `logo` and `marble` (the printed and veined fields of
`looks.HELD_OUT`). `drawn_look` never returns a look of any of them; `held_out_look` draws
looks inside one.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from ...calibration.geometry import FieldGeometry
from . import scene
from .looks import tilted_view
from .scene import FRAME_SIZE, Look, Scene, Shapes, pick

__all__ = [
    "CHECKERS_APART",
    "DRAWN_HELD_OUT",
    "FELT_HUES",
    "FELT_SATURATION",
    "MAX_TILT",
    "DrawnView",
    "drawn_look",
    "drawn_scene",
    "drawn_shapes",
    "drawn_view",
    "held_out_family",
    "held_out_look",
    "held_out_scene",
]

STREAM = 71  # a seed's second word for drawn scenes (family_scene's are 0-10)
SHAPES = 99  # a drawn scene seed's last word for its shapes (`drawn_shapes`)
MAX_TILT = 35.0  # the camera's largest tilt off vertical, degrees
FELT_HUES = (80.0, 200.0)  # tournament felt: a field hue (degrees) from green to blue-green
FELT_SATURATION = 0.3  # ... at least this saturated (HSV)
CHECKERS_APART = 35.0  # the two checker sets' least colour distance (Lab, OpenCV 8-bit)
STAND_OUT = 45.0  # checkers standing out from the board: this far from every board colour
TEXTURES = ("felt", "wood", "plain", "cork")
PATTERNS = ("none", "none", "none", "inlay", "outline", "worn", "leather")  # as often as this
PILES = ("rows", "rows", "players", "towers")
ORNAMENTS = ("none",) * 6 + ("knob", "disc")


class DrawnView(NamedTuple):
    """A drawn camera: the field's corners and the nadir in the frame (`Look.corners`,
    `Look.nadir`), its tilt off vertical (degrees) and its height (field heights)."""

    corners: tuple
    nadir: tuple[float, float]
    tilt: float
    height: float


# --- families held out ------------------------------------------------------------------------
def _hsv_of(rgb) -> tuple[float, float, float]:
    """Hue (degrees), saturation and value (0-1) of an RGB colour."""
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return 360 * h, s, v


def _tournament_felt(look: Look) -> bool:
    """A felt field from green to blue-green, saturated: the classic tournament board."""
    hue, sat, _ = _hsv_of(look.field)
    return look.texture == "felt" and FELT_HUES[0] <= hue <= FELT_HUES[1] and \
        sat >= FELT_SATURATION


HELD_OUT_TESTS: dict[str, Callable[[Look], bool]] = {
    "tournament-felt": _tournament_felt,
    "logo": lambda look: look.pattern == "logo",
    "marble": lambda look: look.pattern == "marble",
}
DRAWN_HELD_OUT = tuple(HELD_OUT_TESTS)


def held_out_family(look: Look) -> str | None:
    """The held-out family `look` belongs to (the first of DRAWN_HELD_OUT), or None."""
    return next((name for name, test in HELD_OUT_TESTS.items() if test(look)), None)


def _some(rng, share: float, low: float, high: float) -> float:
    """A value drawn from `low`-`high` on `share` of the looks, else 0 (the effect left out)."""
    value = float(rng.uniform(low, high))
    return value if rng.random() < share else 0.0


# --- colours ----------------------------------------------------------------------------------
def _cast(rng) -> np.ndarray:
    """The light's gain per RGB channel: warm, cold or neutral (a third each), a slight green
    or magenta tint, and a dim or a bright room."""
    warmth = rng.choice((-1.0, 0.0, 1.0)) * rng.uniform(0.04, 0.16)
    gains = np.array([1 + warmth, 1 + rng.normal(0, 0.02), 1 - warmth])
    return gains * rng.uniform(0.8, 1.08)


def _colour(rng, gains, hue=(0.0, 360.0), sat=(0.0, 1.0), val=(0.0, 1.0)) -> tuple:
    """An RGB colour drawn uniformly in a box of hue (degrees), saturation and value, seen
    under a light of `gains`."""
    rgb = colorsys.hsv_to_rgb(rng.uniform(*hue) / 360 % 1, rng.uniform(*sat), rng.uniform(*val))
    return tuple(min(255, max(0, round(255 * c * float(g)))) for c, g in zip(rgb, gains,
                                                                             strict=True))


def _any_field(rng, gains) -> tuple:
    """A field of any colour: a third of them greys, creams and blacks."""
    if rng.random() < 0.35:
        return _colour(rng, gains, sat=(0.0, 0.25), val=(0.1, 0.95))
    return _colour(rng, gains, sat=(0.25, 0.9), val=(0.12, 0.9))


def _felt_field(rng, gains) -> tuple:
    """A tournament felt's field: green to blue-green, saturated."""
    return _colour(rng, gains, FELT_HUES, (FELT_SATURATION + 0.05, 0.85), (0.2, 0.65))


def _board(rng, gains, field: Callable) -> tuple[tuple, tuple, tuple]:
    """Field, points (apart from each other and from the field) and frame (mostly wood)."""
    while True:
        field_rgb = field(rng, gains)
        points = tuple(_colour(rng, gains, sat=(0.0, 0.9), val=(0.08, 0.97)) for _ in "ab")
        if _apart(points[:1], points[1:]) >= 25 and _apart(points, (field_rgb,)) >= 25:
            break
    if rng.random() < 0.7:
        frame = _colour(rng, gains, (15.0, 45.0), (0.3, 0.8), (0.12, 0.7))
    else:
        frame = _colour(rng, gains, sat=(0.0, 0.8), val=(0.05, 0.9))
    return field_rgb, points, frame


def _lab(colours) -> np.ndarray:
    """RGB colours in Lab (OpenCV's 8-bit scale, as `scene.contrasted` measures)."""
    return cv2.cvtColor(np.uint8([colours]), cv2.COLOR_RGB2LAB)[0].astype(float)


def _apart(these, those) -> float:
    """The least Lab distance between any of `these` colours and any of `those`."""
    return float(np.linalg.norm(_lab(these)[:, None] - _lab(those)[None], axis=-1).min())


def _checkers(rng, gains, board) -> tuple:
    """The two checker sets, the lighter first: mostly a light and a dark set, else any two;
    always CHECKERS_APART apart; four in five standing out from every `board` colour."""
    stand_out = rng.random() < 0.8
    while True:
        if rng.random() < 0.7:
            sets = (_colour(rng, gains, sat=(0.0, 0.45), val=(0.7, 1.0)),
                    _colour(rng, gains, sat=(0.0, 0.9), val=(0.05, 0.55)))
        else:
            sets = tuple(_colour(rng, gains, sat=(0.0, 0.9), val=(0.15, 1.0)) for _ in "ab")
        if _apart(sets[:1], sets[1:]) >= CHECKERS_APART and (
                not stand_out or _apart(sets, board) >= STAND_OUT):
            lightness = _lab(sets)[:, 0]
            return sets if lightness[0] >= lightness[1] else sets[::-1]


def _dice(rng, gains, board) -> tuple:
    """Dice of any colour apart from the field and points, their pips far from the body."""
    while True:
        body = _colour(rng, gains, sat=(0.0, 0.9), val=(0.05, 1.0))
        pips = _colour(rng, gains, sat=(0.0, 0.9), val=(0.0, 1.0))
        if _apart((body,), board) >= 35 and _apart((body,), (pips,)) >= 70:
            return body, pips


def _tray(rng, gains, field_rgb, frame) -> tuple | None:
    """The trays' colour: the field's a shade darker (None), the field's, the frame's lighter,
    or any."""
    kind = rng.random()
    if kind < 0.4:
        return None
    if kind < 0.6:
        return field_rgb
    if kind < 0.8:
        return tuple(min(255, round(1.15 * c)) for c in frame)
    return _colour(rng, gains, sat=(0.0, 0.8), val=(0.1, 0.9))


# --- the camera -------------------------------------------------------------------------------
def drawn_view(rng, aspect: float) -> DrawnView:
    """A camera over a field of `aspect`: a tilt of 0-MAX_TILT degrees, 1.1-3 field heights
    from the field's centre, the field turned any way (85 in 100 near one of its sides),
    then zoomed out to 80-100 percent and placed anywhere the field and a band of frame
    around it stay in the picture: a camera set up to read the board has it fill most of the
    picture (dice of 10 px and less, on a field a third of the picture high, are not read)."""
    tilt = float(rng.uniform(0, MAX_TILT))
    distance = float(rng.uniform(1.1, 3.0))
    turn = rng.choice((0, 90, 180, 270)) + rng.normal(0, 10) if rng.random() < 0.85 else \
        rng.uniform(0, 360)
    corners, nadir = tilted_view(rng, aspect, tilt, turn=float(turn), distance=distance)
    size, middle = np.array(FRAME_SIZE, float), np.array(FRAME_SIZE, float) / 2
    pts = (np.array([*corners, nadir]) - middle) * rng.uniform(0.8, 1.0) + middle
    room = np.maximum(size - 20 - np.ptp(pts[:4], 0) * 1.12, 0)
    pts += rng.uniform(-0.5, 0.5, 2) * room
    return DrawnView(tuple((round(float(x), 1), round(float(y), 1)) for x, y in pts[:4]),
                     (round(float(pts[4, 0]), 1), round(float(pts[4, 1]), 1)), tilt,
                     distance * float(np.cos(np.radians(tilt))))


def _towards_nadir(view: DrawnView, aspect: float, rng) -> tuple[float, float]:
    """The canvas direction from the field's centre towards the camera (where a checker's
    side shows, `Look.view`), 0.4-1.2 long; any direction under a camera straight above."""
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    to_frame = cv2.getPerspectiveTransform(square, np.float32(view.corners))
    fx, fy = cv2.perspectiveTransform(np.float32([[view.nadir]]), np.linalg.inv(to_frame))[0, 0]
    way = np.array([(fx - 0.5) * aspect, fy - 0.5])
    if np.linalg.norm(way) < 0.05:
        way = rng.normal(0, 1, 2)
    way = way / np.linalg.norm(way) * rng.uniform(0.4, 1.2)
    return float(way[0]), float(way[1])


def _box(rng, view: DrawnView) -> dict:
    """A box's walls (half the looks): 0.02-0.09 field heights tall, seen from the camera's
    height (`Look.raised`), half of them with checkers standing 0.2-0.6 of the walls' height;
    and, on half the looks, the shade walls cast (`Look.wall`)."""
    wall = _some(rng, 0.5, 0.02, 0.09)
    standing = _some(rng, 0.5 * (wall > 0), 0.2, 0.6)
    shade = _some(rng, 0.5, 0.02, 0.08)
    return {"raised": wall / (view.height - wall), "standing": standing, "wall": shade}


def _side_shade(rng) -> dict:
    """One long wall's shade on its row (a third of the looks)."""
    if rng.random() < 2 / 3:
        return {}
    return {"shade_side": pick(rng, ("low", "high")), "shade_reach": float(rng.uniform(0.1, 0.45)),
            "shade_depth": float(rng.uniform(0.2, 0.65))}


def _light(rng) -> dict:
    """The room's light and the picture: a shadow direction and depth, a gradient, a broad
    shadow (3 in 10) or a pool of lamp light (3 in 20), glare, noise, blur and JPEG."""
    kind = rng.random()
    if kind < 0.3:
        blob = rng.uniform(0.1, 0.45)
    elif kind < 0.45:
        blob = -rng.uniform(0.15, 0.45)
    else:
        blob = 0.0
    return {"light": (float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))),
            "shadow": float(rng.uniform(0.1, 0.55)), "gradient": float(rng.uniform(0, 0.5)),
            "blob_shadow": float(blob), "glare": _some(rng, 0.35, 0.1, 0.8),
            "noise": float(rng.uniform(0, 8)), "blur": _some(rng, 0.55, 0.3, 1.8),
            "jpeg": round(_some(rng, 0.6, 30, 95))}


# --- looks and scenes -------------------------------------------------------------------------
def _look(rng, field: Callable = _any_field, texture: str | None = None) -> Look:
    """A look with every parameter drawn (the field's colour by `field`, the texture unless
    given); it may fall in a held-out family."""
    gains = _cast(rng)
    field_rgb, points, frame = _board(rng, gains, field)
    geometry = FieldGeometry(rng.uniform(0.05, 0.13), rng.uniform(0.33, 0.47))
    aspect = float(rng.uniform(1.15, 1.6))
    column = geometry.column_width * aspect
    texture = texture or pick(rng, TEXTURES)
    view = drawn_view(rng, aspect)
    return Look(
        geometry=geometry, aspect=aspect,
        checker_ratio=min(float(rng.uniform(0.82, 0.97)), 0.485 / (5 * column)),
        checkers=_checkers(rng, gains, (*points, field_rgb, frame)), points=points,
        field=field_rgb, frame=frame, table=_colour(rng, gains, sat=(0.0, 0.5), val=(0.1, 0.85)),
        dice=_dice(rng, gains, (*points, field_rgb)), texture=texture,
        grain=float(rng.uniform(0.08, 0.2) if texture == "cork" else rng.uniform(0.02, 0.12)),
        corners=view.corners, nadir=view.nadir, view=_towards_nadir(view, aspect, rng),
        die_size=float(rng.uniform(0.032, 0.05)), pattern=pick(rng, PATTERNS),
        style=pick(rng, ("flat", "3d")), distortion=_some(rng, 0.35, 0.01, 0.1),
        pile=pick(rng, PILES), ornament=pick(rng, ORNAMENTS),
        trays=pick(rng, ("low", "high", "both", "none")),
        tray=_tray(rng, gains, field_rgb, frame), tray_gap=float(rng.uniform(0.01, 0.09)),
        **_box(rng, view), **_side_shade(rng), **_light(rng))


def drawn_shapes(rng) -> Shapes:
    """Shapes drawn at random: points' bases 0.7-1 of a column, their tips sharp (half) or
    rounded over 0.05-0.3 of their length; a frame 0.02-0.14 field heights wide; checkers'
    rims 0.03-0.2 of their radius at 0.45-0.95 of their brightness, a groove at 0.35-0.8 of
    it or none (a quarter); pips spread 0.22-0.3 of a die's side, never touching."""
    spread = float(rng.uniform(0.22, 0.3))
    return Shapes(point_base=float(rng.uniform(0.7, 1.0)), point_tip=_some(rng, 0.5, 0.05, 0.3),
                  frame=float(rng.uniform(0.02, 0.14)), rim=float(rng.uniform(0.03, 0.2)),
                  rim_shade=float(rng.uniform(0.45, 0.95)), groove=_some(rng, 0.75, 0.35, 0.8),
                  pip=float(rng.uniform(0.06, 0.45 * spread)), pip_spread=spread)


def _shaped(look: Look, *words: int) -> Look:
    """`look` with shapes drawn on the stream of the scene's seed `words` and `SHAPES`."""
    return replace(look, shapes=drawn_shapes(np.random.default_rng([*words, SHAPES])))


def drawn_look(rng) -> Look:
    """A board of its own, every parameter drawn from a wide range, never one of a held-out
    family (those are drawn again)."""
    while True:
        look = _look(rng)
        if held_out_family(look) is None:
            return look


def held_out_look(rng, family: str) -> Look:
    """A look of the held-out `family`: a drawn look with a tournament felt field, or with
    the family's pattern."""
    _known(family)
    if family != "tournament-felt":
        return replace(drawn_look(rng), pattern=family)
    while True:  # the light's cast may carry a field out of the family: drawn again
        look = _look(rng, _felt_field, "felt")
        if held_out_family(look) == family:
            return look


def _known(family: str) -> None:
    """Refuse a family that is not held out."""
    if family not in DRAWN_HELD_OUT:
        raise ValueError(f"unknown held-out family {family!r}: choose one of "
                         f"{', '.join(DRAWN_HELD_OUT)}")


def _scene(rng, look: Look, hand: float, cocked: float, cube: float) -> Scene:
    """A random position, dice, maybe a hand and a doubling cube on `look`."""
    points, bar = scene.random_position(rng)
    dice = scene.random_dice(rng, look, points, bar, cocked)
    shown = bool(rng.random() < hand)
    doubling = scene.random_cube(rng, look) if rng.random() < cube else None
    return Scene(points, bar, dice, shown, look, doubling)


def drawn_scene(seed: int, *, hand: float = 0.1, cocked: float = 0.1,
                cube: float = 0.0) -> Scene:
    """A random scene on a drawn look (`drawn_look`), the same for a seed; `cube`: how often
    a doubling cube shows (`scene.random_cube`, which may lie over checkers)."""
    rng = np.random.default_rng([seed, STREAM])
    return _scene(rng, _shaped(drawn_look(rng), seed, STREAM), hand, cocked, cube)


def held_out_scene(seed: int, family: str, *, hand: float = 0.1, cocked: float = 0.1,
                   cube: float = 0.0) -> Scene:
    """A random scene on a look of the held-out `family` (`held_out_look`), the same for a
    seed and a family."""
    _known(family)
    words = (seed, STREAM, 1 + DRAWN_HELD_OUT.index(family))
    rng = np.random.default_rng(words)
    return _scene(rng, _shaped(held_out_look(rng, family), *words), hand, cocked, cube)
