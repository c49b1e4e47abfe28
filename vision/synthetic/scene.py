"""What a synthetic picture shows: the board's look and what lies on it (`Look`, `Scene`),
random ones (`random_look`, `random_scene` ...), where each checker lies (`strips`, `piled`)
and where the field lies on the drawing canvas (`canvas_layout`), as `drawing.render` draws
them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from ...calibration.geometry import FieldGeometry
from ..checkers import pyramid

__all__ = [
    "CANVAS_H",
    "CHECKER_PAIRS",
    "COVERED",
    "CUBE_COLOURS",
    "CUBE_FACES",
    "CUBE_FONTS",
    "DICE",
    "FIELDS",
    "FRAMES",
    "FRAME_SIZE",
    "POINT_PAIRS",
    "START_POINTS",
    "TABLES",
    "TRAY_WIDTH",
    "Cube",
    "Die",
    "Look",
    "Rendered",
    "Scene",
    "Shapes",
    "canvas_layout",
    "contrasted",
    "covered",
    "free",
    "jitter",
    "pick",
    "piled",
    "random_corners",
    "random_cube",
    "random_dice",
    "random_look",
    "random_position",
    "random_scene",
    "strips",
    "tray_ends",
    "with_look",
]

FRAME_SIZE = (1280, 720)
START_POINTS = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)
CANVAS_H = 560  # canvas pixels per field height
TRAY_WIDTH = 0.1  # a bear-off tray's width, in field widths
COVERED = 0.05  # a checker this near (diameters) the middle of one below it cannot be counted
CHECKER_PAIRS = (  # (light, dark) checker colours, RGB
    ((242, 240, 232), (30, 30, 32)), ((236, 226, 200), (200, 160, 60)),
    ((245, 245, 245), (170, 30, 35)), ((238, 228, 200), (95, 60, 35)),
    ((230, 230, 220), (30, 80, 50)), ((250, 250, 250), (40, 60, 140)),
    ((225, 215, 190), (110, 25, 40)), ((205, 205, 205), (70, 70, 72)),
    ((240, 215, 120), (25, 25, 25)), ((250, 245, 235), (120, 85, 60)),
)
POINT_PAIRS = (
    ((170, 40, 40), (35, 35, 35)), ((235, 220, 185), (110, 70, 40)),
    ((40, 110, 60), (230, 225, 210)), ((40, 70, 140), (225, 215, 190)),
    ((120, 30, 40), (215, 200, 165)), ((200, 150, 70), (60, 40, 30)),
    ((30, 30, 30), (200, 40, 40)), ((90, 130, 150), (240, 235, 220)),
)
FIELDS = ((40, 95, 55), (215, 195, 155), (175, 130, 80), (30, 60, 45), (200, 180, 140),
          (120, 30, 35), (35, 50, 90), (225, 215, 195))
FRAMES = ((95, 60, 35), (60, 38, 25), (140, 95, 55), (180, 140, 90), (40, 30, 25))
TABLES = ((120, 110, 100), (60, 50, 45), (170, 160, 150), (90, 70, 50))
CUBE_FACES = (2, 4, 8, 16, 32, 64)  # the doubling cube's faces; 64 stands for 1 in the middle
CUBE_COLOURS = (((245, 240, 225), (20, 20, 20)), ((30, 30, 30), (240, 240, 240)),
                ((235, 225, 190), (120, 25, 30)), ((110, 70, 40), (240, 230, 200)),
                ((180, 30, 35), (250, 250, 250)), ((250, 250, 250), (40, 60, 140)))
CUBE_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
              cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX | cv2.FONT_ITALIC)
DICE = (((250, 250, 245), (20, 20, 20)), ((200, 30, 30), (250, 250, 250)),
        ((20, 20, 20), (250, 250, 250)), ((30, 120, 60), (250, 250, 250)),
        ((245, 235, 200), (30, 30, 30)), ((30, 60, 170), (250, 250, 250)))


@dataclass(frozen=True)
class Die:
    """A die on the field: its value, where it lies (field_xy), its turn and whether it leans."""

    value: int
    field_xy: tuple[float, float]
    angle: float = 0.0
    cocked: bool = False


@dataclass(frozen=True)
class Cube:
    """The doubling cube: the number on its top face, where it lies (field_xy; beyond 0-1 on
    the frame or in a tray), its turn, its side (a share of the field's height), its body and
    ink colours (RGB), its numerals' font (an OpenCV Hershey font) and their stroke (pixels
    of a 64-pixel face)."""

    face: int
    field_xy: tuple[float, float]
    angle: float = 0.0
    size: float = 0.055
    colours: tuple = CUBE_COLOURS[0]
    font: int = cv2.FONT_HERSHEY_DUPLEX
    stroke: int = 3


@dataclass(frozen=True)
class Shapes:
    """How a board's parts are shaped, apart from their colours (the defaults: every look's
    but the drawn ones'). The points' bases span `point_base` of a column and their tips are
    rounded over `point_tip` of their length (0: sharp); the frame is `frame` field heights
    wide around the field; a checker's rim is `rim` of its radius wide and `rim_shade` as
    bright as its face, its groove a ring at `groove` of its radius (0: none); a die's pips
    are `pip` of its side in radius, `pip_spread` of it from the middle."""

    point_base: float = 1.0
    point_tip: float = 0.0
    frame: float = 0.07
    rim: float = 0.12
    rim_shade: float = 0.62
    groove: float = 0.62
    pip: float = 0.085
    pip_spread: float = 0.27


@dataclass(frozen=True)
class Look:
    """Everything about how a board and its picture look, apart from what is on it."""

    geometry: FieldGeometry = FieldGeometry()
    aspect: float = 1.35  # field width / height
    checker_ratio: float = 0.9  # checker diameter / column width
    checkers: tuple = CHECKER_PAIRS[0]
    points: tuple = POINT_PAIRS[0]
    field: tuple = FIELDS[0]
    frame: tuple = FRAMES[0]
    table: tuple = TABLES[0]
    dice: tuple = DICE[0]
    texture: str = "felt"  # felt | wood | plain | cork
    grain: float = 0.06
    corners: tuple = ((1100, 640), (180, 640), (180, 80), (1100, 80))  # p1 p12 p13 p24 px
    light: tuple[float, float] = (0.5, -0.7)  # light direction for shadows, canvas units
    shadow: float = 0.35
    gradient: float = 0.2
    blob_shadow: float = 0.0  # a broad soft shadow (< 0: a pool of lamp light instead)
    noise: float = 2.0
    blur: float = 0.0
    jpeg: int = 0  # 0: none
    die_size: float = 0.04  # die side / field height
    pattern: str = "none"  # none | inlay | outline (each point outlined) | logo | marble
    # | worn (rubbed pale in patches) | leather
    style: str = "flat"  # flat | 3d (thickness towards `view`, ridges, gloss)
    view: tuple[float, float] = (0.0, 1.0)  # canvas direction in which a checker's side shows
    glare: float = 0.0  # lamp reflections: highlights on checkers and a patch on the board
    distortion: float = 0.0  # radial lens distortion k1 (> 0: barrel)
    pile: str = "rows"  # rows (the reader's convention) | players (long rows, towers, off-centre)
    # | towers (players' piles, always as towers on the first five)
    wall: float = 0.0  # reach of the shadow the box's walls and the raised bar cast on the field,
    # as a share of the field's height (0: a flat board)
    ornament: str = "none"  # none | knob (a round knob at each point's tip) | disc (an inlaid
    # disc at each point's base): round shapes on bare points, where a checker would lie
    raised: float = 0.0  # how much larger the frame's and the bar's top look than the field,
    # seen from the camera: wall height / (camera height - wall height); 0: a flat board
    nadir: tuple[float, float] = (640.0, 360.0)  # frame pixel straight below the camera
    standing: float = 0.0  # with `raised`: the checkers' height as a share of the walls', drawn
    # standing towards the camera, so that those by a far wall hide its foot; 0: drawn flat
    trays: str = "low"  # bear-off trays beside the field: low (beside points 1 and 24, field
    # x 0) | high (beside points 12 and 13) | both | none
    tray: tuple | None = None  # the trays' colour (None: the field's, TRAY_SHADE as bright)
    tray_gap: float = 0.07  # the frame between the field and a tray, in field heights
    shade_side: str = "none"  # none | low (the wall along points 1-12) | high (along 13-24):
    # one long wall shading its row, checkers included, deeper than the other (a box's far
    # wall under a lamp: light seldom falls alike on both rows)
    shade_reach: float = 0.3  # how far that shade reaches into the field, in field heights
    shade_depth: float = 0.5  # the share of the light it takes at the wall
    shapes: Shapes = Shapes()  # how points, frame, checkers and pips are shaped


@dataclass(frozen=True)
class Scene:
    """What is on the board: the board array, the bar, the dice, a hand, and the look."""

    points: tuple[int, ...]
    bar: dict = field(default_factory=lambda: {"white": 0, "black": 0})
    dice: tuple[Die, ...] = ()
    hand: bool = False
    look: Look = Look()
    cube: Cube | None = None  # the doubling cube, where the photo shows it


@dataclass(frozen=True)
class Rendered:
    """A synthetic frame with its calibration (DESIGN.md dict) and its ground truth."""

    image: np.ndarray
    calibration: dict
    truth: dict


# --- random looks and scenes ------------------------------------------------------------------
def pick(rng, options):
    """One of `options`, drawn by `rng`."""
    return options[int(rng.integers(len(options)))]


def jitter(rng, rgb, amount=18):
    """The colour `rgb` moved at random (normal, `amount` per channel), kept in 0-255."""
    return tuple(int(np.clip(c + rng.normal(0, amount), 0, 255)) for c in rgb)


def random_corners(rng, aspect: float) -> tuple:
    """Field corners p1, p12, p13, p24 in a 1280x720 frame: any turn, perspective, mirror.

    The field and a band of frame around it are always fully in the picture."""
    w, h = FRAME_SIZE
    turn = pick(rng, (0, 0, 90, 180, 270)) + rng.normal(0, 6)
    base = np.array([[aspect, 1], [-aspect, 1], [-aspect, -1], [aspect, -1]]) / 2
    if rng.random() < 0.5:  # home on the left: the mirror image
        base[:, 0] *= -1
    base += rng.normal(0, 0.025, base.shape)  # perspective
    t = np.radians(turn)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    pts = base @ rot.T
    span = (pts.max(0) - pts.min(0)) * 1.12
    scale = rng.uniform(0.8, 1.0) * min((w - 20) / span[0], (h - 20) / span[1])
    pts *= scale
    room = np.array([w, h]) - (pts.max(0) - pts.min(0)) * 1.12 - 20
    centre = np.array([w, h]) / 2 + rng.uniform(-0.5, 0.5, 2) * np.maximum(room, 0)
    pts = pts - (pts.max(0) + pts.min(0)) / 2 + centre
    return tuple((round(float(x), 1), round(float(y), 1)) for x, y in pts)


def _lab(rgb) -> np.ndarray:
    return cv2.cvtColor(np.uint8([[rgb]]), cv2.COLOR_RGB2LAB)[0, 0].astype(float)


def contrasted(checkers, board, least: float = 45.0) -> bool:
    """Checkers stand out from every board colour (Lab distance, OpenCV 8-bit scale)."""
    return all(np.linalg.norm(_lab(c) - _lab(b)) >= least for c in checkers for b in board)


def random_look(rng) -> Look:
    """A varied look: colours, textures, geometry, camera, light and image quality.

    Checker and dice colours always stand out from the board colours (boards are made that
    way; a checker or a die the colour of a point is not supported)."""
    geo = FieldGeometry(rng.uniform(0.07, 0.11), rng.uniform(0.36, 0.46))
    aspect = rng.uniform(1.2, 1.5)
    column = (1 - geo.bar_width) / 12 * aspect
    ratio = min(rng.uniform(0.86, 0.96), 0.485 / (5 * column))
    while True:
        pair = pick(rng, CHECKER_PAIRS)
        checkers = (jitter(rng, pair[0], 8), jitter(rng, pair[1], 12))
        points = tuple(jitter(rng, c) for c in pick(rng, POINT_PAIRS))
        field_rgb, frame = jitter(rng, pick(rng, FIELDS)), jitter(rng, pick(rng, FRAMES))
        dice = pick(rng, DICE)
        if contrasted((*checkers, dice[0]), (*points, field_rgb, frame)):
            break
    return Look(
        geometry=geo, aspect=aspect, checker_ratio=ratio, checkers=checkers, points=points,
        field=field_rgb, frame=frame, table=jitter(rng, pick(rng, TABLES)),
        dice=dice,
        texture=pick(rng, ("felt", "wood", "plain")), grain=rng.uniform(0.02, 0.1),
        corners=random_corners(rng, aspect),
        light=(rng.uniform(-1, 1), rng.uniform(-1, 1)), shadow=rng.uniform(0.15, 0.5),
        gradient=rng.uniform(0, 0.4), blob_shadow=rng.uniform(0, 0.35) * (rng.random() < 0.4),
        noise=rng.uniform(0, 6), blur=rng.uniform(0, 1.3) * (rng.random() < 0.6),
        jpeg=int(rng.integers(40, 95)) * (rng.random() < 0.6), die_size=rng.uniform(0.036, 0.046),
    )


def random_position(rng) -> tuple[tuple[int, ...], dict]:
    """A random legal-looking board: 15 checkers a side over points, bar and off."""
    points = [0] * 24
    bar = {}
    for key, sign in (("white", 1), ("black", -1)):
        off = int(rng.choice([0] * 12 + [1, 2, 3, 5, 8, 12, 15]))
        bar[key] = int(rng.choice([0] * 8 + [1, 1, 2, 3]))
        left = max(0, 15 - off - bar[key])
        if left == 0:
            bar[key] = min(bar[key], 15 - off)
        while left:
            free = [i for i in range(24) if points[i] * sign >= 0]
            i = pick(rng, free)
            n = min(left, int(rng.choice([1, 1, 2, 2, 3, 4, 5, 6, 7, 9])), 15 - abs(points[i]))
            points[i] += sign * n
            left -= n
    return tuple(points), bar


def random_dice(rng, look: Look, points, bar, cocked: float = 0.1,
                count: int | None = None) -> tuple[Die, ...]:
    """Zero to two dice (mostly two), or `count` dice, on free places of the field."""
    count = int(rng.choice([0, 1, 2, 2, 2, 2])) if count is None else count
    dice: list[Die] = []
    for _ in range(200):
        if len(dice) == count:
            break
        xy = (float(rng.uniform(0.06, 0.94)), float(rng.uniform(0.08, 0.92)))
        if free(look, points, bar, xy, dice):
            dice.append(Die(int(rng.integers(1, 7)), xy, float(rng.uniform(0, 360)),
                            bool(rng.random() < cocked)))
    return tuple(dice)


def random_cube(rng, look: Look) -> Cube:
    """The cube where players leave it: in the middle (64 up, half-way between the players)
    on the bar or beside the field, or turned to 2-64 on its owner's side of either; a fifth
    of the time anywhere on the field. Any size from dice size to 1.8 times it, colours, font,
    stroke and turn."""
    size = look.die_size * rng.uniform(1.1, 1.8)
    centred = rng.random() < 0.4
    face = 64 if centred else int(pick(rng, CUBE_FACES))
    y = rng.uniform(0.4, 0.6) if centred else rng.choice((-1, 1)) * rng.uniform(0.22, 0.44) + 0.5
    where = rng.random()
    if where < 0.4:
        x = sum(look.geometry.bar_x) / 2 + rng.normal(0, 0.005)
    elif where < 0.8:
        x = _beside(rng, look, size)
    else:
        x, y = rng.uniform(0.04, 0.96), rng.uniform(0.05, 0.95)
    body, ink = pick(rng, (*CUBE_COLOURS, look.dice))
    return Cube(face, (float(x), float(y)), float(rng.uniform(0, 360)), float(size),
                (jitter(rng, body, 12), jitter(rng, ink, 12)), int(pick(rng, CUBE_FONTS)),
                int(rng.integers(2, 6)))


def _beside(rng, look: Look, size: float) -> float:
    """A field x beside one end of the field, on the frame or in the tray there."""
    (cw, _), (ox, _), (fw, _) = canvas_layout(look)
    half = size * CANVAS_H / 2 / fw
    low, high = -ox / fw, (cw - ox) / fw
    if rng.random() < 0.5:
        return rng.uniform(min(low + half, -half), -half)
    return rng.uniform(1 + half, max(high - half, 1 + half))


def free(look: Look, points, bar, xy, dice) -> bool:
    """No checker and no other die within reach of a die at field point xy."""
    fx, fy = xy
    reach_x = 0.75 * look.die_size / look.aspect
    bx0, bx1 = look.geometry.bar_x
    if bx0 - reach_x - 0.01 < fx < bx1 + reach_x + 0.01:
        return False
    for d in dice:
        if abs(d.field_xy[0] - fx) < 3 * reach_x and abs(d.field_xy[1] - fy) < 2.2 * look.die_size:
            return False
    for strip in strips(look, points, bar):
        for cx, cy, _, _ in strip[3]:
            r = look.checker_ratio * look.geometry.column_width / 2
            if abs(cx - fx) < r + reach_x and abs(cy - fy) * look.aspect < r + reach_x * 1.1:
                return False
    return True


def random_scene(seed: int, *, hand: float = 0.1, cocked: float = 0.1) -> Scene:
    """A random scene (position, dice, maybe a hand) on a random look."""
    rng = np.random.default_rng(seed)
    look = random_look(rng)
    points, bar = random_position(rng)
    dice = random_dice(rng, look, points, bar, cocked)
    return Scene(points, bar, dice, bool(rng.random() < hand), look)


# --- checker placement -----------------------------------------------------------------------
def strips(look: Look, points, bar):
    """Per row of checkers: (colour key, n, start, [(x, y, layer, step)...]) in field units."""
    geo = look.geometry
    d = look.checker_ratio * geo.column_width * look.aspect  # diameter in field-height units
    rows = []
    for p in range(1, 25):
        n = points[p - 1]
        if n:
            rows.append((geo.point_x(p), geo.point_y(p)[0], n))
    bar_x = sum(geo.bar_x) / 2
    white_low = sum(look.light) > 0  # which half of the bar holds white: varies with the look
    for key, sign in (("white", 1), ("black", -1)):
        if bar.get(key):
            low = white_low if key == "white" else not white_low
            rows.append((bar_x, 0.0 if low else 1.0, sign * bar[key]))
    out = []
    for i, (x, base, n) in enumerate(rows):
        direction = 1 if base == 0.0 else -1
        if look.pile != "rows" and i < len(rows) - sum(1 for v in bar.values() if v):
            seed = [i, abs(n), *(round(10 * v) for v in look.corners[0])]
            style = "towers" if look.pile == "towers" else None
            layout = piled(abs(n), np.random.default_rng(seed), look.checker_ratio, style)
        else:
            layout = [(layer, 0.0, t * 1.02) for layer, t in pyramid(abs(n))]
        spots = [(x + dx * d / look.aspect, base + direction * t * d, layer, d)
                 for layer, dx, t in layout]
        out.append(("white" if n > 0 else "black", abs(n), base, spots))
    return out


def covered(look: Look, points, within: float = COVERED) -> list[int]:
    """Per point 1-24, how many of its checkers lie on one of the layer below within `within`
    of a diameter of its middle: drawn over it so nearly that from above it shows at most as
    a sliver of rim (a tower's checker set squarely on another; no camera over the board
    can count it). The rows as `render` lays them out (`strips`)."""
    rows = iter(strips(look, points, {}))  # a row per point that holds checkers, in order
    out = []
    for n in points:
        spots = next(rows)[3] if n else []
        xy = {k: np.array([(x * look.aspect, y) for x, y, layer, _ in spots if layer == k])
              for *_, k, _ in spots}
        out.append(sum(1 for x, y, k, d in spots if k and np.hypot(
            *(xy[k - 1] - (x * look.aspect, y)).T).min() < within * d))
    return out


def piled(n: int, rng, ratio: float, style: str | None = None
          ) -> list[tuple[int, float, float]]:
    """(layer, sideways offset, distance from the base), in diameters, of n checkers piled as
    players pile them: one long row reaching towards the middle, towers on the first checkers,
    or the usual pyramid (`style`: one of those, or None for any); every checker a little off
    the middle of its point."""
    style = style or rng.choice(["long", "towers", "pyramid"])
    if style == "long":
        gap = rng.uniform(0.9, 1.0)
        row = min(n, 7)
        spots = [(0, 0.0, (i + 0.5) * gap) for i in range(row)]
        spots += [(1 + i // row, 0.0, (i % row + 0.5) * gap + 0.15) for i in range(n - row)]
    elif style == "towers":
        row = min(n, 5)
        spots = [(0, 0.0, i + 0.5) for i in range(row)]
        spots += [(1 + i // row, 0.0, i % row + 0.5 + rng.uniform(-0.12, 0.12))
                  for i in range(n - row)]
    else:
        spots = [(layer, 0.0, t) for layer, t in pyramid(n)]
    slack = max(0.0, (1 / ratio - 1) / 2 + 0.08)
    return [(layer, float(rng.uniform(-slack, slack)), t + float(rng.uniform(-0.04, 0.04)))
            for layer, _, t in spots]


# --- layout on the canvas --------------------------------------------------------------------
def canvas_layout(look: Look):
    """Canvas size and the field's origin on it (frame and trays around the field)."""
    fh = CANVAS_H
    fw = round(fh * look.aspect)
    m = round(look.shapes.frame * fh)
    reach = round(TRAY_WIDTH * fw) + round(look.tray_gap * fh)
    low, high = (reach if end in tray_ends(look) else 0 for end in ("low", "high"))
    return (fw + 2 * m + low + high, fh + 2 * m), (m + low, m), (fw, fh)


def tray_ends(look: Look) -> tuple[str, ...]:
    """The field's ends ("low", "high") with a bear-off tray beside them."""
    return {"both": ("low", "high"), "none": ()}.get(look.trays, (look.trays,))


# --- changed scenes ---------------------------------------------------------------------------
def with_look(scene: Scene, **changes) -> Scene:
    """The same scene with some look fields changed."""
    return replace(scene, look=replace(scene.look, **changes))
