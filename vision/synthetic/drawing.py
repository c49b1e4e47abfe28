"""A synthetic camera view of a backgammon board, with its ground truth.

`render(scene, seed)` draws the board top-down on a canvas (textures, triangles, checkers with
shadows, dice), warps it into a 1280x720 camera frame with perspective and any turn, then adds
hands, lighting, noise, blur and JPEG. Everything is deterministic from the seed.

A look may also carry what real boards have and `random_look` never draws (the named looks of
`vision.looks` use them): patterned fields (`pattern`: inlay, logo, marble, leather), checkers
drawn with their thickness, ridges and gloss (`style="3d"`), lamp glare (`glare`), lens
distortion (`distortion`) and checkers piled as players pile them (`pile="players"`: long
rows, towers, checkers off the middle of their point). Their defaults draw today's looks
pixel for pixel.

Conventions the reader relies on: a point's checkers lie in a row from the point's base; from
the 6th on they lie in a second layer in the gaps of the first (then a third...), a pyramid of
5 + 4 + 3 + 2 + 1 (`vision.checkers.pyramid`). The bar is read as two such rows, one from
each edge, one colour each.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from ..calibration.geometry import FieldGeometry
from .checkers import pyramid

FRAME_SIZE = (1280, 720)
START_POINTS = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)
CANVAS_H = 560  # canvas pixels per field height
SPRITE = 64  # die sprite side in pixels
DIE_PARALLAX = 0.35  # a 3D look's die top lies this many die sides from its base
TRAY_WIDTH = 0.1  # a bear-off tray's width, in field widths
TRAY_SHADE = 0.8  # a tray's colour unless the look gives one: the field's, this much as bright
COVERED = 0.05  # a checker this near (diameters) the middle of one below it cannot be counted
STANDING_STEPS = 6  # copies a standing checker is drawn in, base to top (`Look.standing`)
DIE_LIGHT = np.array([-0.3, -0.4, 1.0]) / np.linalg.norm([-0.3, -0.4, 1.0])  # light on a die
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
SKINS = ((230, 190, 165), (200, 150, 120), (150, 100, 70), (95, 60, 40), (240, 205, 185))
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


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
    texture: str = "felt"  # felt | wood | plain
    grain: float = 0.06
    corners: tuple = ((1100, 640), (180, 640), (180, 80), (1100, 80))  # p1 p12 p13 p24 px
    light: tuple[float, float] = (0.5, -0.7)  # light direction for shadows, canvas units
    shadow: float = 0.35
    gradient: float = 0.2
    blob_shadow: float = 0.0
    noise: float = 2.0
    blur: float = 0.0
    jpeg: int = 0  # 0: none
    die_size: float = 0.04  # die side / field height
    pattern: str = "none"  # none | inlay | logo | marble | leather
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
def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _jitter(rng, rgb, amount=18):
    return tuple(int(np.clip(c + rng.normal(0, amount), 0, 255)) for c in rgb)


def random_corners(rng, aspect: float) -> tuple:
    """Field corners p1, p12, p13, p24 in a 1280x720 frame: any turn, perspective, mirror.

    The field and a band of frame around it are always fully in the picture."""
    w, h = FRAME_SIZE
    turn = _pick(rng, (0, 0, 90, 180, 270)) + rng.normal(0, 6)
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
        pair = _pick(rng, CHECKER_PAIRS)
        checkers = (_jitter(rng, pair[0], 8), _jitter(rng, pair[1], 12))
        points = tuple(_jitter(rng, c) for c in _pick(rng, POINT_PAIRS))
        field_rgb, frame = _jitter(rng, _pick(rng, FIELDS)), _jitter(rng, _pick(rng, FRAMES))
        dice = _pick(rng, DICE)
        if contrasted((*checkers, dice[0]), (*points, field_rgb, frame)):
            break
    return Look(
        geometry=geo, aspect=aspect, checker_ratio=ratio, checkers=checkers, points=points,
        field=field_rgb, frame=frame, table=_jitter(rng, _pick(rng, TABLES)),
        dice=dice,
        texture=_pick(rng, ("felt", "wood", "plain")), grain=rng.uniform(0.02, 0.1),
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
            i = _pick(rng, free)
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
        if _free(look, points, bar, xy, dice):
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
    face = 64 if centred else int(_pick(rng, CUBE_FACES))
    y = rng.uniform(0.4, 0.6) if centred else rng.choice((-1, 1)) * rng.uniform(0.22, 0.44) + 0.5
    where = rng.random()
    if where < 0.4:
        x = sum(look.geometry.bar_x) / 2 + rng.normal(0, 0.005)
    elif where < 0.8:
        x = _beside(rng, look, size)
    else:
        x, y = rng.uniform(0.04, 0.96), rng.uniform(0.05, 0.95)
    body, ink = _pick(rng, (*CUBE_COLOURS, look.dice))
    return Cube(face, (float(x), float(y)), float(rng.uniform(0, 360)), float(size),
                (_jitter(rng, body, 12), _jitter(rng, ink, 12)), int(_pick(rng, CUBE_FONTS)),
                int(rng.integers(2, 6)))


def _beside(rng, look: Look, size: float) -> float:
    """A field x beside one end of the field, on the frame or in the tray there."""
    (cw, _), (ox, _), (fw, _) = _canvas_layout(look)
    half = size * CANVAS_H / 2 / fw
    low, high = -ox / fw, (cw - ox) / fw
    if rng.random() < 0.5:
        return rng.uniform(min(low + half, -half), -half)
    return rng.uniform(1 + half, max(high - half, 1 + half))


def _free(look: Look, points, bar, xy, dice) -> bool:
    """No checker and no other die within reach of a die at field point xy."""
    fx, fy = xy
    reach_x = 0.75 * look.die_size / look.aspect
    bx0, bx1 = look.geometry.bar_x
    if bx0 - reach_x - 0.01 < fx < bx1 + reach_x + 0.01:
        return False
    for d in dice:
        if abs(d.field_xy[0] - fx) < 3 * reach_x and abs(d.field_xy[1] - fy) < 2.2 * look.die_size:
            return False
    for strip in _strips(look, points, bar):
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
def _strips(look: Look, points, bar):
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
    can count it). The rows as `render` lays them out (`_strips`)."""
    rows = iter(_strips(look, points, {}))  # a row per point that holds checkers, in order
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


# --- drawing ----------------------------------------------------------------------------------
def _texture(rng, shape, kind: str, strength: float) -> np.ndarray:
    """A multiplicative texture around 1.0."""
    h, w = shape
    if kind == "plain":
        return np.ones(shape, np.float32)
    if kind == "wood":
        small = rng.normal(0, 1, (max(h // 40, 2), max(w // 2, 2))).astype(np.float32)
        t = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        t += 0.5 * np.sin(np.linspace(0, rng.uniform(20, 60), w))[None, :].astype(np.float32)
    else:
        t = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 1.2) * 2
    return 1 + strength * t / max(float(t.std()), 1e-6)


def _canvas_layout(look: Look):
    """Canvas size and the field's origin on it (frame and trays around the field)."""
    fh = CANVAS_H
    fw = round(fh * look.aspect)
    m = round(0.07 * fh)
    reach = round(TRAY_WIDTH * fw) + round(look.tray_gap * fh)
    low, high = (reach if end in _tray_ends(look) else 0 for end in ("low", "high"))
    return (fw + 2 * m + low + high, fh + 2 * m), (m + low, m), (fw, fh)


def _tray_ends(look: Look) -> tuple[str, ...]:
    """The field's ends ("low", "high") with a bear-off tray beside them."""
    return {"both": ("low", "high"), "none": ()}.get(look.trays, (look.trays,))


def _tray_boxes(look: Look, origin, size) -> list[tuple[int, int, int, int]]:
    """The bear-off trays beside the field (x0, y0, x1, y1 on the canvas)."""
    (ox, oy), (fw, fh) = origin, size
    width, gap = round(TRAY_WIDTH * fw), round(look.tray_gap * fh)
    xs = {"low": ox - gap - width, "high": ox + fw + gap}
    return [(xs[end], oy, xs[end] + width, oy + fh) for end in _tray_ends(look)]


def _draw_board(rng, look: Look) -> np.ndarray:
    (cw, ch), (ox, oy), (fw, fh) = _canvas_layout(look)
    img = np.zeros((ch, cw, 3), np.float32)
    img[:] = look.frame
    img[oy:oy + fh, ox:ox + fw] = look.field
    tray = look.tray if look.tray is not None else [c * TRAY_SHADE for c in look.field]
    for box in _tray_boxes(look, (ox, oy), (fw, fh)):
        cv2.rectangle(img, box[:2], box[2:], tray, -1)
    bx0, bx1 = (ox + v * fw for v in look.geometry.bar_x)
    cv2.rectangle(img, (round(bx0), oy), (round(bx1), oy + fh), look.frame, -1)
    geo = look.geometry
    for p in range(1, 25):
        tri = np.array(geo.triangle(p, (ox, oy), (fw, fh))) * 16
        cv2.fillPoly(img, [tri.astype(np.int32)], look.points[p % 2], cv2.LINE_AA, 4)
    if look.pattern != "none":
        _pattern(img, rng, look, (ox, oy), (fw, fh))
    if look.ornament != "none":
        _ornaments(img, rng, look, (ox, oy), (fw, fh))
    if look.wall:
        img *= _wall_shade(look, (ox, oy), (fw, fh), (ch, cw))[..., None]
    tex = _texture(rng, (ch, cw), look.texture, look.grain)
    return img * tex[..., None]


def _wall_shade(look: Look, origin, size, shape) -> np.ndarray:
    """The shade the box's walls and the raised bar cast on the field beside them: darkest
    at the wall, gone `look.wall` field heights away, deepest beside the walls the light
    comes over (the way the checkers' shadows fall). A deep box's dark band along the points'
    bases is no checker."""
    (ox, oy), (fw, fh) = origin, size
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    fall = np.array([-look.light[0], look.light[1]], np.float32)
    fall /= np.linalg.norm(fall) or 1.0
    bx0, bx1 = (ox + v * fw for v in look.geometry.bar_x)
    walls = ((yy - oy, (0, 1)), (oy + fh - yy, (0, -1)), (xx - ox, (1, 0)),
             (ox + fw - xx, (-1, 0)), (xx - bx1, (1, 0)), (bx0 - xx, (-1, 0)))
    gain = np.ones(shape, np.float32)
    for distance, inward in walls:
        strength = 0.25 + 0.5 * max(0.0, float(fall @ np.array(inward, np.float32)))
        near = np.clip(1 - distance / (look.wall * fh), 0, 1) * (distance >= 0)
        gain *= 1 - strength * near ** 2
    outside = (yy < oy) | (yy >= oy + fh) | (xx < ox) | (xx >= ox + fw)
    gain[outside] = 1.0
    return gain


def _side_shade(look: Look) -> np.ndarray:
    """The gain of one long wall's shade (`look.shade_side`) over the canvas: it takes
    `shade_depth` of the light at the wall and fades linearly to nothing `shade_reach` field
    heights into the field, on the field and on whatever lies on it."""
    (cw, ch), (ox, oy), (fw, fh) = _canvas_layout(look)
    rows = np.arange(ch, dtype=np.float32)
    distance = rows - oy if look.shade_side == "low" else oy + fh - 1 - rows
    near = np.clip(1 - distance / (look.shade_reach * fh), 0, 1) * (distance >= 0)
    gain = np.ones((ch, cw), np.float32)
    gain[:, ox:ox + fw] = (1 - look.shade_depth * near)[:, None]
    return gain


def _pattern(img, rng, look: Look, origin, size) -> None:
    """What real fields carry besides points: inlaid lines, a printed logo, marble veins or
    a leather field's stitching."""
    (ox, oy), (fw, fh) = origin, size
    field_box = (slice(oy, oy + fh), slice(ox, ox + fw))
    ink = tuple(float(c) for c in _jitter(rng, _pick(rng, ((235, 215, 150), (25, 20, 20),
                                                           (245, 245, 240), (150, 30, 30)))))
    aa = cv2.LINE_AA
    if look.pattern == "inlay":
        for p in range(1, 25):
            tri = np.array(look.geometry.triangle(p, (ox, oy), (fw, fh))) * 16
            cv2.polylines(img, [tri.astype(np.int32)], True, ink, 2, aa, 4)
        inset = round(0.02 * fh)
        cv2.rectangle(img, (ox + inset, oy + inset), (ox + fw - inset, oy + fh - inset), ink, 2)
        for bx in _half_middles(look, ox, fw):
            c = np.array([bx, oy + fh / 2])
            r = fh * rng.uniform(0.05, 0.08)
            diamond = np.array([c + (0, -r), c + (r * 1.6, 0), c + (0, r), c - (r * 1.6, 0)])
            cv2.polylines(img, [np.round(diamond * 16).astype(np.int32)], True, ink, 2, aa, 4)
            cv2.circle(img, (round(c[0] * 16), round(c[1] * 16)), round(r * 8), ink, -1, aa, 4)
    elif look.pattern == "logo":
        bx = _pick(rng, _half_middles(look, ox, fw))
        c = (round(bx), round(oy + fh / 2))
        axes = (round(fh * rng.uniform(0.1, 0.16)), round(fh * rng.uniform(0.05, 0.08)))
        cv2.ellipse(img, c, axes, 0, 0, 360, ink, max(2, round(fh * 0.008)), aa)
        text = _pick(rng, ("BACKGAMMON", "TAVLA", "CLUB", "BG"))
        scale = axes[0] * 1.5 / (len(text) * 20)
        mask = np.zeros(img.shape[:2], np.uint8)  # putText draws on 8-bit images only
        cv2.putText(mask, text, (c[0] - axes[0] * 3 // 4, c[1] + round(scale * 12)),
                    cv2.FONT_HERSHEY_DUPLEX, scale, 255, max(1, round(scale * 2)), aa)
        alpha = (mask.astype(np.float32) / 255)[..., None]
        img[:] = img * (1 - alpha) + np.array(ink, np.float32) * alpha
    elif look.pattern == "marble":
        h, w = fh, fw
        noise = cv2.resize(rng.normal(0, 1, (max(h // 24, 2), max(w // 24, 2))), (w, h),
                           interpolation=cv2.INTER_CUBIC)
        yy, xx = np.mgrid[0:h, 0:w]
        angle = rng.uniform(0, np.pi)
        phase = (np.cos(angle) * xx + np.sin(angle) * yy) / rng.uniform(25, 60) + 3 * noise
        veins = np.exp(-np.abs(np.sin(phase)) * 12).astype(np.float32)
        vein = np.array(ink, np.float32)
        img[field_box] = img[field_box] * (1 - 0.6 * veins[..., None]) + vein * 0.6 * veins[
            ..., None]
    else:  # leather: stitching along the field's edge and the bar
        inset = round(0.015 * fh)
        dash = max(4, round(0.012 * fh))
        box = ((ox + inset, oy + inset), (ox + fw - inset, oy + inset),
               (ox + fw - inset, oy + fh - inset), (ox + inset, oy + fh - inset))
        for a, b in zip(box, box[1:] + box[:1], strict=True):
            length = int(np.hypot(b[0] - a[0], b[1] - a[1]))
            for t in range(0, length, 2 * dash):
                u, v = t / length, min(t + dash, length) / length
                p0 = (round(a[0] + (b[0] - a[0]) * u), round(a[1] + (b[1] - a[1]) * u))
                p1 = (round(a[0] + (b[0] - a[0]) * v), round(a[1] + (b[1] - a[1]) * v))
                cv2.line(img, p0, p1, ink, 2, aa)


def _ornaments(img, rng, look: Look, origin, size) -> None:
    """Round shapes on every point, the size of a checker or less: a knob at the tip in the
    point's own colour or a darker one, or a disc with a ring at the base in an inlay's
    colour. A reader must tell them from checkers by what every bare point shows."""
    (ox, oy), (fw, fh) = origin, size
    column = look.geometry.column_width * fw
    r = column * rng.uniform(0.2, 0.45)
    shade = rng.uniform(0.6, 1.0)
    ink = _jitter(rng, _pick(rng, ((235, 215, 150), (25, 20, 20), (245, 245, 240),
                                   (150, 30, 30), (120, 70, 40))))
    for p in range(1, 25):
        (_, base), _, (x, tip) = look.geometry.triangle(p, (ox, oy), (fw, fh))
        toward = np.sign(tip - base)
        if look.ornament == "knob":
            centre, rgb = (x, tip), [c * shade for c in look.points[p % 2]]
        else:
            centre, rgb = (x, base + toward * column * 0.55), ink
        c16 = (round(centre[0] * 16), round(centre[1] * 16))
        cv2.circle(img, c16, round(r * 16), [float(v) for v in rgb], -1, cv2.LINE_AA, 4)
        if look.ornament == "disc":
            ring = [float(v) * 0.6 for v in rgb]
            cv2.circle(img, c16, round(r * 16), ring, max(1, round(r * 0.15)), cv2.LINE_AA, 4)


def _half_middles(look: Look, ox: float, fw: float) -> tuple[float, float]:
    """Canvas x of the middle of each half of the field."""
    bx0, bx1 = look.geometry.bar_x
    return ox + fw * bx0 / 2, ox + fw * (1 + bx1) / 2


def _draw_checkers(img, look: Look, strips, origin, scale) -> None:
    """Checkers with a cast shadow, a bevelled rim and a groove, layer by layer."""
    ox, oy = origin
    r = look.checker_ratio * look.geometry.column_width * look.aspect / 2 * scale
    colours = {"white": look.checkers[0], "black": look.checkers[1]}
    lx, ly = look.light
    for layer in range(5):
        spots = [(key, x, y) for key, _, _, s in strips for x, y, k, _ in s if k == layer]
        if not spots:
            continue
        shade = np.zeros(img.shape[:2], np.float32)
        off = (0.12 + 0.08 * layer) * r
        for _, x, y in spots:
            c = (round((ox + x * scale * look.aspect - lx * off) * 16),
                 round((oy + y * scale + ly * off) * 16))
            cv2.circle(shade, c, round(r * 16), 1.0, -1, cv2.LINE_AA, 4)
        shade = cv2.GaussianBlur(shade, (0, 0), 0.12 * r + 1)
        img *= (1 - look.shadow * shade)[..., None]
        for key, x, y in spots:
            centre = (ox + x * scale * look.aspect, oy + y * scale)
            if look.style == "3d":
                _checker_3d(img, centre, r, colours[key], look)
            else:
                _checker(img, centre, r, colours[key], look.light)


def _checker(img, centre, r, rgb, light) -> None:
    """A checker: dark rim, a glossy highlight on the bevel towards the light, a groove."""
    c = (round(centre[0] * 16), round(centre[1] * 16))
    col = np.array(rgb, np.float32)
    aa = cv2.LINE_AA
    cv2.circle(img, c, round(r * 16), tuple(float(v) for v in col * 0.62), -1, aa, 4)
    toward = float(np.degrees(np.arctan2(-light[1], -light[0])))
    gloss = tuple(float(v) for v in col * 0.55 + 110)
    cv2.ellipse(img, c, (round(r * 0.93 * 16),) * 2, toward, -60, 60, gloss,
                max(1, round(r * 0.1)), aa, 4)
    cv2.circle(img, c, round(r * 0.88 * 16), tuple(float(v) for v in col), -1, aa, 4)
    cv2.circle(img, c, round(r * 0.62 * 16), tuple(float(v) for v in col * 0.85), 1, aa, 4)


def _checker_3d(img, centre, r, rgb, look: Look) -> None:
    """A checker seen with its thickness: the side towards `view`, a rim, raised ridges and a
    glossy highlight (stronger with `glare`)."""
    aa = cv2.LINE_AA
    col = np.array(rgb, np.float32)
    side = (round((centre[0] + look.view[0] * r * 0.25) * 16),
            round((centre[1] + look.view[1] * r * 0.25) * 16))
    c = (round(centre[0] * 16), round(centre[1] * 16))
    cv2.circle(img, side, round(r * 16), tuple(float(v) for v in col * 0.5), -1, aa, 4)
    cv2.circle(img, c, round(r * 16), tuple(float(v) for v in col * 0.8), -1, aa, 4)
    cv2.circle(img, c, round(r * 0.9 * 16), tuple(float(v) for v in col), -1, aa, 4)
    for k in (0.72, 0.5):
        cv2.circle(img, c, round(r * k * 16), tuple(float(v) for v in col * 0.88), 1, aa, 4)
    lx, ly = look.light
    spot = (round((centre[0] - lx * r * 0.45) * 16), round((centre[1] - ly * r * 0.45) * 16))
    shine = tuple(float(v) for v in col * (1 - look.glare) + 255 * look.glare)
    cv2.ellipse(img, spot, (round(r * 0.28 * 16), round(r * 0.14 * 16)),
                float(np.degrees(np.arctan2(ly, lx))), 0, 360, shine, -1, aa, 4)


def _face(body, s: int) -> tuple[np.ndarray, np.ndarray]:
    """A blank face of a die or the cube (a rounded square, darker at its edge) and its mask."""
    face = np.zeros((s, s, 3), np.float32)
    face[:] = body
    mask = np.zeros((s, s), np.float32)
    c = round(0.16 * s)
    cv2.rectangle(mask, (c, 0), (s - 1 - c, s - 1), 1.0, -1)
    cv2.rectangle(mask, (0, c), (s - 1, s - 1 - c), 1.0, -1)
    for cx in (c, s - 1 - c):
        for cy in (c, s - 1 - c):
            cv2.circle(mask, (cx, cy), c, 1.0, -1, cv2.LINE_AA)
    edge = cv2.GaussianBlur(mask, (0, 0), 0.06 * s)
    face *= (0.75 + 0.25 * edge)[..., None]
    return face, mask


def _numeral_sprite(number: int, body, ink, cube: Cube) -> tuple[np.ndarray, np.ndarray]:
    """A face of the doubling cube seen square on: its number, as wide as 0.7 of the face
    (one digit no taller than half of it), and the face's mask."""
    face, mask = _face(body, SPRITE)
    text = str(number)
    thick = max(1, round(cube.stroke * SPRITE / 64))
    (w, h), _ = cv2.getTextSize(text, cube.font, 1.0, thick)
    scale = min(0.7 * SPRITE / w, 0.5 * SPRITE / h)
    (w, h), _ = cv2.getTextSize(text, cube.font, scale, thick)
    strokes = np.zeros((SPRITE, SPRITE), np.uint8)
    cv2.putText(strokes, text, (round((SPRITE - w) / 2), round((SPRITE + h) / 2)), cube.font,
                scale, 255, thick, cv2.LINE_AA)
    a = strokes[..., None] / np.float32(255)
    return face * (1 - a) + np.asarray(ink, np.float32) * a, mask


def _die_sprite(value: int, body, pip, size: int, cocked: bool):
    """A die seen from above (top face, or top plus side face when cocked) and its mask."""
    s = size
    face, mask = _face(body, s)
    for dx, dy in PIPS[value]:
        cv2.circle(face, (round(s / 2 + dx * 0.27 * s), round(s / 2 + dy * 0.27 * s)),
                   round(0.085 * s), pip, -1, cv2.LINE_AA)
    if not cocked:
        return face, mask
    top = round(0.72 * s)
    face = cv2.resize(face, (s, top))
    mask_top = cv2.resize(mask, (s, top))
    side = np.zeros((s - top + round(0.2 * s), s, 3), np.float32)
    side[:] = np.array(body, np.float32) * 0.6
    return np.vstack([face, side]), np.vstack([mask_top, np.ones(side.shape[:2], np.float32)])


def _die_matrix(look: Look, die: Die, origin, shape) -> np.ndarray:
    """Affine matrix placing a die sprite of `shape` (h, w) on the canvas."""
    h, w = shape
    k = look.die_size * CANVAS_H / SPRITE
    cx = origin[0] + die.field_xy[0] * CANVAS_H * look.aspect
    cy = origin[1] + die.field_xy[1] * CANVAS_H
    m = cv2.getRotationMatrix2D((w / 2, h / 2), die.angle, k)
    m[:, 2] += (cx - w / 2, cy - h / 2)
    return m


def _cube_faces(look: Look, die: Die, origin) -> list[tuple[int, float, np.ndarray]]:
    """The faces of a die drawn as a cube (3D looks) that the camera sees: (value, light on
    it, its four canvas corners in the order of a face sprite's). Seen as the checkers are,
    the top moves `DIE_PARALLAX` sides from the base against `look.view`, so the sides
    towards the view show; a leaning die is tilted 20-34 degrees over one edge."""
    size = look.die_size * CANVAS_H
    centre = (origin[0] + die.field_xy[0] * CANVAS_H * look.aspect,
              origin[1] + die.field_xy[1] * CANVAS_H)
    yaw, tilt = np.radians(die.angle), np.radians(20 + die.angle % 15) * die.cocked
    turn = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    lean = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    rot = turn @ lean
    vx, vy = np.asarray(look.view, float) * DIE_PARALLAX
    a, b = sorted(set(range(1, 7)) - {die.value, 7 - die.value})[:2]
    faces = []
    for normal, value in (((0, 0, 1), die.value), ((1, 0, 0), a), ((0, 1, 0), b),
                          ((-1, 0, 0), 7 - a), ((0, -1, 0), 7 - b)):
        n = np.array(normal, float)
        u = np.array((0.0, 1.0, 0.0) if abs(n[0]) > 0.5 else (1.0, 0.0, 0.0))
        w = np.cross(n, u)
        corners = np.array([n - u - w, n + u - w, n + u + w, n - u + w]) * size / 2 @ rot.T
        n = rot @ n
        if n @ (vx, vy, 1.0) <= 0.05:
            continue
        xy = corners[:, :2] - corners[:, 2:] * (vx, vy) + centre
        faces.append((value, 0.55 + 0.45 * max(0.0, float(n @ DIE_LIGHT)), xy))
    return faces


def _draw_cube(img, look: Look, die: Die, origin, paint=None) -> None:
    """A die drawn as a cube (`_cube_faces`) with its shadow; `paint(value, light)` draws
    each face (sprite and mask), a die's pips unless given."""
    size = look.die_size * CANVAS_H
    faces = _cube_faces(look, die, origin)
    pad = round(size)
    x0, y0 = np.floor(np.min([xy.min(0) for *_, xy in faces], 0)).astype(int) - pad
    x1, y1 = np.ceil(np.max([xy.max(0) for *_, xy in faces], 0)).astype(int) + pad
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, img.shape[1]), min(y1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    part = img[y0:y1, x0:x1]
    colour, alpha = np.zeros_like(part), np.zeros(part.shape[:2], np.float32)
    body, pip = (np.array(c, np.float32) for c in look.dice)
    square = np.float32([[0, 0], [SPRITE, 0], [SPRITE, SPRITE], [0, SPRITE]])
    for value, light, xy in faces:
        sprite, mask = paint(value, light) if paint else \
            _die_sprite(value, body * light, tuple(map(float, pip * light)), SPRITE, False)
        m = cv2.getPerspectiveTransform(square, np.float32(xy - (x0, y0)))
        shape = (x1 - x0, y1 - y0)
        face_alpha = cv2.warpPerspective(mask, m, shape, flags=cv2.INTER_LINEAR)
        colour += cv2.warpPerspective(sprite, m, shape, flags=cv2.INTER_AREA) * \
            face_alpha[..., None]
        alpha += face_alpha
    alpha = np.clip(alpha, 0, 1)
    colour /= np.maximum(alpha, 1e-6)[..., None]
    shade = cv2.GaussianBlur(np.roll(alpha, (round(0.15 * size), round(0.15 * size)), (0, 1)),
                             (0, 0), 0.15 * size)
    part *= (1 - look.shadow * shade)[..., None]
    part[:] = part * (1 - alpha[..., None]) + colour * alpha[..., None]


def _draw_dice(img, look: Look, dice, origin) -> None:
    for die in dice:
        if look.style == "3d":
            _draw_cube(img, look, die, origin)
        else:
            _paste(img, look, die, origin, *_die_sprite(die.value, *look.dice, SPRITE, die.cocked))


def _paste(img, look: Look, die: Die, origin, sprite, mask) -> None:
    """A flat die's sprite laid where `die` lies, with its shadow (longer when it leans)."""
    size = look.die_size * CANVAS_H
    dsize = (img.shape[1], img.shape[0])
    m = _die_matrix(look, die, origin, mask.shape)
    warped = cv2.warpAffine(sprite, m, dsize, flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(mask, m, dsize, flags=cv2.INTER_LINEAR)
    shade = cv2.GaussianBlur(np.roll(alpha, (round(0.15 * size), round(0.15 * size)), (0, 1)),
                             (0, 0), 0.15 * size + (0.2 * size if die.cocked else 0))
    img *= (1 - look.shadow * shade)[..., None]
    img[:] = img * (1 - alpha[..., None]) + warped * alpha[..., None]


def _doubling_die(look: Look, cube: Cube) -> tuple[Look, Die]:
    """The cube as the dice are drawn: a look whose dice are its size, and a die showing 1
    on top where it lies (`_draw_doubling` numbers the faces)."""
    return replace(look, die_size=cube.size), Die(1, cube.field_xy, cube.angle)


def _draw_doubling(img, look: Look, cube: Cube, origin) -> None:
    """The doubling cube, its number on top; a 3D look's sides show the other numbers."""
    body, ink = (np.array(c, np.float32) for c in cube.colours)
    look, die = _doubling_die(look, cube)
    if look.style == "3d":
        sides = [f for f in CUBE_FACES if f != cube.face]
        number = {1: cube.face, 2: sides[0], 3: sides[1], 5: sides[2], 4: sides[3]}
        _draw_cube(img, look, die, origin,
                   lambda value, light: _numeral_sprite(number[value], body * light,
                                                        ink * light, cube))
    else:
        _paste(img, look, die, origin, *_numeral_sprite(cube.face, body, ink, cube))


def _camera(look: Look) -> tuple[np.ndarray, tuple[int, int], tuple[int, int]]:
    """Homography canvas -> frame, the field origin on the canvas and the canvas size."""
    (cw, ch), (ox, oy), (fw, fh) = _canvas_layout(look)
    src = np.float32([[ox, oy], [ox + fw, oy], [ox + fw, oy + fh], [ox, oy + fh]])
    dst = np.float32(look.corners)
    return cv2.getPerspectiveTransform(src, dst), (ox, oy), (cw, ch)


def _table(rng, look: Look) -> np.ndarray:
    w, h = FRAME_SIZE
    img = np.zeros((h, w, 3), np.float32)
    img[:] = look.table
    return img * _texture(rng, (h, w), "wood", 0.05)[..., None]


def draw_arm(img: np.ndarray, rng, corners) -> None:
    """An arm from an edge of the float RGB picture `img` reaching over the field (`corners`:
    its four corners in pixels), with a hand and its shadow, drawn in place."""
    h, w = img.shape[:2]
    corners = np.array(corners, np.float64)
    target = corners.mean(0) + rng.uniform(-0.3, 0.3, 2) * (corners.max(0) - corners.min(0))
    side = int(rng.integers(4))
    start = [(rng.uniform(0, w), -40), (rng.uniform(0, w), h + 40), (-40, rng.uniform(0, h)),
             (w + 40, rng.uniform(0, h))][side]
    start = np.array(start)
    axis = target - start
    axis /= np.linalg.norm(axis)
    normal = np.array([-axis[1], axis[0]])
    width = rng.uniform(0.06, 0.09) * w
    arm = np.array([start + normal * width / 2, target + normal * width * 0.4,
                    target - normal * width * 0.4, start - normal * width / 2])
    mask = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(mask, np.round(arm).astype(np.int32), 1.0, cv2.LINE_AA)
    palm = target + axis * width * 0.5
    cv2.ellipse(mask, (round(palm[0]), round(palm[1])), (round(width * 0.65), round(width * 0.55)),
                float(np.degrees(np.arctan2(axis[1], axis[0]))), 0, 360, 1.0, -1, cv2.LINE_AA)
    for f in range(4):
        spread = (f - 1.5) * 0.3
        tip = palm + (axis + normal * spread) * width * 1.3
        base = palm + normal * spread * width * 0.8
        cv2.line(mask, tuple(np.round(base).astype(int)), tuple(np.round(tip).astype(int)), 1.0,
                 max(3, round(width * 0.18)), cv2.LINE_AA)
    shadow = cv2.GaussianBlur(np.roll(mask, (25, 20), (0, 1)), (0, 0), 15)
    img *= (1 - 0.45 * shadow)[..., None]
    skin = np.array(_pick(rng, SKINS), np.float32)
    shade = 0.75 + 0.35 * cv2.GaussianBlur(mask, (0, 0), width * 0.2)
    colour = skin[None, None, :] * shade[..., None]
    img[:] = img * (1 - mask[..., None]) + colour * mask[..., None]


def _gain(rng, look: Look) -> np.ndarray:
    """The room's light over the frame: a gradient and, on some looks, a broad shadow."""
    w, h = FRAME_SIZE
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * (xx / w - 0.5) + np.sin(angle) * (yy / h - 0.5)) * 2
    gain = 1 + look.gradient * 0.5 * ramp
    if look.blob_shadow:
        blob = np.zeros((h, w), np.float32)
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        cv2.ellipse(blob, c, (int(rng.integers(150, 450)), int(rng.integers(80, 300))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        gain *= 1 - look.blob_shadow * cv2.GaussianBlur(blob, (0, 0), 40)
    return gain


def _noise(rng, look: Look) -> np.ndarray:
    w, h = FRAME_SIZE
    return rng.normal(0, look.noise, (h, w, 3)).astype(np.float32)


def _finish(img, noise: np.ndarray, look: Look) -> np.ndarray:
    if look.blur:
        img = cv2.GaussianBlur(img, (0, 0), look.blur)
    out = np.clip(img + noise, 0, 255).astype(np.uint8)[..., ::-1].copy()  # RGB -> BGR
    if look.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def render(scene: Scene, seed: int = 0, shot: int = 0) -> Rendered:
    """The camera frame of `scene`, its calibration and its ground truth. Frames of one `seed`
    show the same board, table, camera and light; a `shot` other than 0 draws the sensor's
    noise afresh (another frame of that board, as a calibration's start frame is)."""
    look = scene.look
    board_bg, table_part, cover, homography, origin, state = _stage(look, seed)
    board = board_bg.copy()
    strips = _strips(look, scene.points, scene.bar)
    _draw_checkers(board, look, strips, origin, CANVAS_H)
    _draw_dice(board, look, scene.dice, origin)
    if scene.cube:
        _draw_doubling(board, look, scene.cube, origin)
    if look.shade_side != "none":
        board *= _side_shade(look)[..., None]
    warped = cv2.warpPerspective(board, homography, FRAME_SIZE, flags=cv2.INTER_AREA)
    img = table_part + warped * cover
    if look.raised:
        standing = _checker_layer(look, strips, origin) if look.standing else None
        _raise_box(img, board, look, homography, standing)
    if scene.hand:
        rng = _resume(state)
        draw_arm(img, rng, look.corners)
        gain, noise = _gain(rng, look), _noise(rng, look)
    else:
        gain, noise = _room(look, seed)
    if shot:
        noise = _noise(np.random.default_rng([seed, shot]), look)
    img *= gain[..., None]
    if look.glare:
        img += _glare(look, seed)[..., None]
    if look.distortion:
        img = cv2.remap(img, *_lens_maps(look.distortion), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REFLECT)
    image = _finish(img, noise, look)
    return Rendered(image, _calibration(look), _truth(scene, homography, origin))


def _checker_layer(look: Look, strips, origin) -> np.ndarray:
    """The checkers (`_strips`) alone on the board's canvas, and as a fourth channel how much
    of each pixel they cover."""
    (cw, ch), _, _ = _canvas_layout(look)
    layer = np.zeros((ch, cw, 3), np.float32)
    _draw_checkers(layer, look, strips, origin, CANVAS_H)
    cover = np.zeros((ch, cw, 3), np.float32)
    _draw_checkers(cover, replace(look, checkers=((255.0,) * 3,) * 2), strips, origin, CANVAS_H)
    return np.dstack([layer, np.clip(cover.max(-1) / 127, 0, 1)])


def _about_nadir(look: Look, scale: float) -> np.ndarray:
    """The frame scaled by `scale` about the nadir: where a plane that high above the field
    is seen (a pinhole camera looking down)."""
    nx, ny = look.nadir
    return np.array([[scale, 0, nx * (1 - scale)], [0, scale, ny * (1 - scale)], [0, 0, 1]])


def _stand(img, look: Look, homography, checkers) -> None:
    """Draw `_checker_layer`'s checkers standing `look.standing` of the walls' height: their
    sides in STANDING_STEPS copies each a little higher, darker, then their tops."""
    height = look.standing * look.raised / (1 + look.raised)  # a share of the camera's height
    for step in range(1, STANDING_STEPS + 1):
        seen = _about_nadir(look, 1 / (1 - height * step / STANDING_STEPS)) @ homography
        shade = 1.0 if step == STANDING_STEPS else 0.55
        warped = cv2.warpPerspective(checkers, seen, FRAME_SIZE)
        over = warped[..., 3:]
        img[:] = img * (1 - over) + warped[..., :3] * shade * over


def _raise_box(img, board, look: Look, homography, checkers=None) -> None:
    """Draw the frame and the bar raised above the field, as the camera sees a box: the walls
    facing it (inner walls of each half, outer walls of the side it looks over) between each
    edge on the field's plane and the same edge on the top's, then (with `checkers`, from
    `_checker_layer`) the checkers standing, then the top itself over them. The top's plane is
    the field's scaled about the nadir (a pinhole camera looking down), so the near walls hide
    the field's edge and the far ones show below the frame's edge."""
    (cw, ch), (ox, oy), (fw, fh) = _canvas_layout(look)
    bx0, bx1 = (ox + v * fw for v in look.geometry.bar_x)
    top = _about_nadir(look, 1 + look.raised) @ homography
    walls = [((0, 0), (cw, 0), (cw, ch), (0, ch))]  # the outer walls
    walls += [((x0, oy), (x1, oy), (x1, oy + fh), (x0, oy + fh)) for x0, x1 in
              ((ox, bx0), (bx1, ox + fw))]  # each half's inner walls
    frame = np.array(look.frame, np.float32)
    for ring in walls:
        ring = np.array(ring, np.float32)[None]
        low = cv2.perspectiveTransform(ring, homography)[0]
        high = cv2.perspectiveTransform(ring, top)[0]
        for k in range(4):
            after = (k + 1) % 4  # the side from corner k to the next
            quad = np.array([low[k], low[after], high[after], high[k]]) * 16
            shade = 0.5 + 0.12 * k  # each side lit differently
            cv2.fillPoly(img, [quad.astype(np.int32)], (frame * shade).tolist(), cv2.LINE_AA, 4)
    if checkers is not None:
        _stand(img, look, homography, checkers)
    raised = np.ones((ch, cw), np.float32)
    raised[oy:oy + fh, ox:round(bx0)] = 0
    raised[oy:oy + fh, round(bx1):ox + fw] = 0
    cover = cv2.warpPerspective(raised, top, FRAME_SIZE)[..., None]
    img[:] = img * (1 - cover) + cv2.warpPerspective(board, top, FRAME_SIZE,
                                                     flags=cv2.INTER_AREA) * cover


@functools.lru_cache(maxsize=8)
def _glare(look: Look, seed: int) -> np.ndarray:
    """A lamp's reflection: a bright blurred patch somewhere over the field (added light)."""
    rng = np.random.default_rng([seed, 7])
    w, h = FRAME_SIZE
    corners = np.array(look.corners)
    c = corners.mean(0) + rng.uniform(-0.35, 0.35, 2) * np.ptp(corners, 0)
    patch = np.zeros((h, w), np.float32)
    cv2.ellipse(patch, (round(c[0]), round(c[1])),
                (int(rng.integers(40, 140)), int(rng.integers(25, 90))),
                float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    return cv2.GaussianBlur(patch, (0, 0), 25) * 170 * look.glare


@functools.lru_cache(maxsize=4)
def _lens_maps(k1: float) -> tuple[np.ndarray, np.ndarray]:
    """remap() maps of a barrel-distorting lens: each frame pixel looks at the ideal picture
    (1 + k1 r^2) further from the centre, r in half frame widths."""
    w, h = FRAME_SIZE
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xx - w / 2) / (w / 2), (yy - h / 2) / (w / 2)
    grow = 1 + k1 * (dx * dx + dy * dy)
    return (w / 2 + dx * grow * w / 2).astype(np.float32), (h / 2 + dy * grow * w / 2).astype(
        np.float32)


def distort(points, k1: float) -> list[tuple[float, float]]:
    """Where ideal frame points appear through the lens of `_lens_maps` (solved by iteration)."""
    w, h = FRAME_SIZE
    out = []
    for x, y in points:
        ux, uy = (x - w / 2) / (w / 2), (y - h / 2) / (w / 2)
        dx, dy = ux, uy
        for _ in range(20):
            grow = 1 + k1 * (dx * dx + dy * dy)
            dx, dy = ux / grow, uy / grow
        out.append((round(w / 2 + dx * w / 2, 1), round(h / 2 + dy * w / 2, 1)))
    return out


@functools.lru_cache(maxsize=8)
def _stage(look: Look, seed: int):
    """What every frame of `look` rendered with `seed` shares, whatever lies on the board: the
    empty board, the table outside the field, the field's cover, the camera, and the random
    state after drawing them (a film renders hundreds of frames from one stage)."""
    rng = np.random.default_rng(seed)
    board = _draw_board(rng, look)
    homography, origin, (cw, ch) = _camera(look)
    table = _table(rng, look)
    cover = cv2.warpPerspective(np.ones((ch, cw), np.float32), homography, FRAME_SIZE)
    cover = cover[..., None]
    return board, table * (1 - cover), cover, homography, origin, rng.bit_generator.state


@functools.lru_cache(maxsize=8)
def _room(look: Look, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The light and the sensor noise of a frame without a hand (the same draws every time)."""
    rng = _resume(_stage(look, seed)[5])
    return _gain(rng, look), _noise(rng, look)


def _resume(state: dict) -> np.random.Generator:
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    return rng


def _calibration(look: Look) -> dict:
    corners = distort(look.corners, look.distortion) if look.distortion else look.corners
    return {"version": 1, "image_size": list(FRAME_SIZE),
            "corners_px": {k: list(v) for k, v in zip(("p1", "p12", "p13", "p24"), corners,
                                                       strict=True)},
            "geometry": {"bar_width": round(look.geometry.bar_width, 4),
                         "point_depth": round(look.geometry.point_depth, 4)}}


def _truth(scene: Scene, homography, origin) -> dict:
    look = scene.look
    counts = {key: sum(abs(n) for n in scene.points if (n > 0) == (key == "white") and n)
              for key in ("white", "black")}
    dice = [{"value": die.value, "field_xy": list(die.field_xy), "cocked": die.cocked,
             "box_px": _box_px(look, die, origin, homography)} for die in scene.dice]
    bar = {k: int(scene.bar.get(k, 0)) for k in ("white", "black")}
    truth = {"points": list(scene.points), "bar": bar,
             "off": {k: 15 - counts[k] - bar[k] for k in ("white", "black")},
             "dice": dice, "hand": scene.hand}
    if scene.cube:
        truth["cube"] = {"face": scene.cube.face, "field_xy": list(scene.cube.field_xy),
                         "box_px": _box_px(*_doubling_die(look, scene.cube), origin, homography)}
    return truth


def _box_px(look: Look, die: Die, origin, homography) -> list[int]:
    """The frame box (x, y, w, h) around a die as `_draw_dice` draws it."""
    if look.style == "3d":
        canvas = np.concatenate([xy for *_, xy in _cube_faces(look, die, origin)])
    else:
        shape = (round(SPRITE * 1.2), SPRITE) if die.cocked else (SPRITE, SPRITE)
        m = _die_matrix(look, die, origin, shape)
        h, w = shape
        box = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        canvas = box @ m[:, :2].T + m[:, 2]
    px = cv2.perspectiveTransform(canvas[None].astype(np.float32), homography)[0]
    x0, y0 = np.floor(px.min(0))
    x1, y1 = np.ceil(px.max(0))
    return [int(x0), int(y0), int(x1 - x0), int(y1 - y0)]


def with_look(scene: Scene, **changes) -> Scene:
    """The same scene with some look fields changed."""
    return replace(scene, look=replace(scene.look, **changes))


def dice_photo(values, seed: int = 0, size: int = 640) -> tuple[np.ndarray, list[dict]]:
    """A top-down photo of loose dice on a plain surface, and each die's value and box_px."""
    rng = np.random.default_rng(seed)
    img = np.zeros((size, size, 3), np.float32)
    img[:] = _jitter(rng, (225, 222, 215), 8)
    img *= _texture(rng, (size, size), "felt", 0.02)[..., None]
    truth, placed = [], []
    side = rng.uniform(34, 44)
    for value in values:
        while True:
            xy = rng.uniform(side * 1.5, size - side * 1.5, 2)
            if all(np.linalg.norm(xy - p) > 2.2 * side for p in placed):
                break
        placed.append(xy)
        sprite, mask = _die_sprite(value, *_pick(rng, DICE), SPRITE, False)
        m = cv2.getRotationMatrix2D((SPRITE / 2, SPRITE / 2), float(rng.uniform(0, 90)),
                                    side / SPRITE)
        m[:, 2] += xy - SPRITE / 2
        warped = cv2.warpAffine(sprite, m, (size, size), flags=cv2.INTER_AREA)
        alpha = cv2.warpAffine(mask, m, (size, size))
        shade = cv2.GaussianBlur(np.roll(alpha, (4, 4), (0, 1)), (0, 0), 4)
        img *= (1 - 0.35 * shade)[..., None]
        img[:] = img * (1 - alpha[..., None]) + warped * alpha[..., None]
        ys, xs = np.nonzero(alpha > 0.5)
        truth.append({"value": int(value), "box_px": [int(xs.min()), int(ys.min()),
                                                      int(np.ptp(xs) + 1), int(np.ptp(ys) + 1)]})
    img += rng.normal(0, 2, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)[..., ::-1].copy(), truth
