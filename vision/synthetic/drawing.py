"""A synthetic camera view of a backgammon board, with its ground truth.

`render(scene, seed)` draws the board top-down on a canvas (textures, triangles, checkers with
shadows, dice), warps it into a 1280x720 camera frame with perspective and any turn, then adds
hands, lighting, noise, blur and JPEG. Everything is deterministic from the seed.

A look may also carry what real boards have and `random_look` never draws (the named looks of
`synthetic.looks` and the drawn ones of `synthetic.drawn` use them): patterned fields
(`pattern`: inlay, outline, logo, marble, worn, leather), cork (`texture="cork"`), checkers
drawn with their thickness, ridges and gloss (`style="3d"`), lamp glare (`glare`), a pool of
lamp light (a negative `blob_shadow`), lens distortion (`distortion`) and checkers piled as
players pile them (`pile="players"`: long rows, towers, checkers off the middle of their
point). Their defaults draw today's looks pixel for pixel.

Conventions the reader relies on: a point's checkers lie in a row from the point's base; from
the 6th on they lie in a second layer in the gaps of the first (then a third...), a pyramid of
5 + 4 + 3 + 2 + 1 (`vision.checkers.pyramid`). The bar is read as two such rows, one from
each edge, one colour each.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np

from .scene import (
    CANVAS_H,
    CUBE_FACES,
    DICE,
    FRAME_SIZE,
    TRAY_WIDTH,
    Cube,
    Die,
    Look,
    Rendered,
    Scene,
    Shapes,
    canvas_layout,
    jitter,
    pick,
    strips,
    tray_ends,
)

__all__ = [
    "DIE_LIGHT",
    "DIE_PARALLAX",
    "PIPS",
    "SKINS",
    "SPRITE",
    "STANDING_STEPS",
    "TRAY_SHADE",
    "cube_faces",
    "dice_photo",
    "distort",
    "draw_arm",
    "lens_maps",
    "point_outline",
    "render",
]

SPRITE = 64  # die sprite side in pixels
DIE_PARALLAX = 0.35  # a 3D look's die top lies this many die sides from its base
TRAY_SHADE = 0.8  # a tray's colour unless the look gives one: the field's, this much as bright
STANDING_STEPS = 6  # copies a standing checker is drawn in, base to top (`Look.standing`)
DIE_LIGHT = np.array([-0.3, -0.4, 1.0]) / np.linalg.norm([-0.3, -0.4, 1.0])  # light on a die
SKINS = ((230, 190, 165), (200, 150, 120), (150, 100, 70), (95, 60, 40), (240, 205, 185))
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


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
    elif kind == "cork":  # pressed granules a few pixels wide, some of them dark pores
        small = rng.normal(0, 1, (max(h // 3, 2), max(w // 3, 2))).astype(np.float32)
        t = cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST)
        t = cv2.GaussianBlur(t - 2.5 * (t < -1.5), (0, 0), 0.8)
    else:
        t = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 1.2) * 2
    return 1 + strength * t / max(float(t.std()), 1e-6)


def _tray_boxes(look: Look, origin, size) -> list[tuple[int, int, int, int]]:
    """The bear-off trays beside the field (x0, y0, x1, y1 on the canvas)."""
    (ox, oy), (fw, fh) = origin, size
    width, gap = round(TRAY_WIDTH * fw), round(look.tray_gap * fh)
    xs = {"low": ox - gap - width, "high": ox + fw + gap}
    return [(xs[end], oy, xs[end] + width, oy + fh) for end in tray_ends(look)]


def _draw_board(rng, look: Look) -> np.ndarray:
    (cw, ch), (ox, oy), (fw, fh) = canvas_layout(look)
    img = np.zeros((ch, cw, 3), np.float32)
    img[:] = look.frame
    img[oy:oy + fh, ox:ox + fw] = look.field
    tray = look.tray if look.tray is not None else [c * TRAY_SHADE for c in look.field]
    for box in _tray_boxes(look, (ox, oy), (fw, fh)):
        cv2.rectangle(img, box[:2], box[2:], tray, -1)
    bx0, bx1 = (ox + v * fw for v in look.geometry.bar_x)
    cv2.rectangle(img, (round(bx0), oy), (round(bx1), oy + fh), look.frame, -1)
    for p in range(1, 25):
        cv2.fillPoly(img, [point_outline(look, p, (ox, oy), (fw, fh))], look.points[p % 2],
                     cv2.LINE_AA, 4)
    if look.pattern != "none":
        _pattern(img, rng, look, (ox, oy), (fw, fh))
    if look.ornament != "none":
        _ornaments(img, rng, look, (ox, oy), (fw, fh))
    if look.wall:
        img *= _wall_shade(look, (ox, oy), (fw, fh), (ch, cw))[..., None]
    tex = _texture(rng, (ch, cw), look.texture, look.grain)
    return img * tex[..., None]


def point_outline(look: Look, point: int, origin, size) -> np.ndarray:
    """The outline of White's point `point` on the canvas (OpenCV's 4-bit fixed point), as
    `look.shapes` shapes it: its base `point_base` of the column wide, its tip rounded over
    `point_tip` of its length."""
    (left, base), _, (x, tip) = look.geometry.triangle(point, origin, size)
    shapes = look.shapes
    half = (x - left) * shapes.point_base
    ends = [(x, tip)]
    if shapes.point_tip:  # a half circle across the point where it is cut short
        cut = base + (tip - base) * (1 - shapes.point_tip)
        radius, turn = half * shapes.point_tip, np.linspace(0, np.pi, 9)
        ends = np.stack([x + radius * np.cos(turn),
                         cut + np.sign(tip - base) * radius * np.sin(turn)], 1)
    return (np.array([(x - half, base), (x + half, base), *ends]) * 16).astype(np.int32)


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
    (cw, ch), (ox, oy), (fw, fh) = canvas_layout(look)
    rows = np.arange(ch, dtype=np.float32)
    distance = rows - oy if look.shade_side == "low" else oy + fh - 1 - rows
    near = np.clip(1 - distance / (look.shade_reach * fh), 0, 1) * (distance >= 0)
    gain = np.ones((ch, cw), np.float32)
    gain[:, ox:ox + fw] = (1 - look.shade_depth * near)[:, None]
    return gain


def _pattern(img, rng, look: Look, origin, size) -> None:
    """What real fields carry besides points: inlaid lines, outlined points (as printed
    boards have them), a printed logo, marble veins, worn patches or a leather field's
    stitching."""
    (ox, oy), (fw, fh) = origin, size
    field_box = (slice(oy, oy + fh), slice(ox, ox + fw))
    ink = tuple(float(c) for c in jitter(rng, pick(rng, ((235, 215, 150), (25, 20, 20),
                                                           (245, 245, 240), (150, 30, 30)))))
    aa = cv2.LINE_AA
    if look.pattern in ("inlay", "outline"):
        for p in range(1, 25):
            cv2.polylines(img, [point_outline(look, p, (ox, oy), (fw, fh))], True, ink, 2, aa, 4)
    if look.pattern == "inlay":
        inset = round(0.02 * fh)
        cv2.rectangle(img, (ox + inset, oy + inset), (ox + fw - inset, oy + fh - inset), ink, 2)
        for bx in _half_middles(look, ox, fw):
            c = np.array([bx, oy + fh / 2])
            r = fh * rng.uniform(0.05, 0.08)
            diamond = np.array([c + (0, -r), c + (r * 1.6, 0), c + (0, r), c - (r * 1.6, 0)])
            cv2.polylines(img, [np.round(diamond * 16).astype(np.int32)], True, ink, 2, aa, 4)
            cv2.circle(img, (round(c[0] * 16), round(c[1] * 16)), round(r * 8), ink, -1, aa, 4)
    elif look.pattern == "logo":
        bx = pick(rng, _half_middles(look, ox, fw))
        c = (round(bx), round(oy + fh / 2))
        axes = (round(fh * rng.uniform(0.1, 0.16)), round(fh * rng.uniform(0.05, 0.08)))
        cv2.ellipse(img, c, axes, 0, 0, 360, ink, max(2, round(fh * 0.008)), aa)
        text = pick(rng, ("BACKGAMMON", "TAVLA", "CLUB", "BG"))
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
    elif look.pattern == "worn":
        _worn(img, rng, field_box)
    elif look.pattern == "leather":  # stitching along the field's edge and the bar
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


def _worn(img, rng, field_box) -> None:
    """A field and points rubbed pale in broad patches, as years of play leave a painted
    board: there the colours fade towards a lighter grey, up to 60 percent of the way."""
    part = img[field_box]
    h, w = part.shape[:2]
    noise = cv2.resize(rng.normal(0, 1, (max(h // 40, 2), max(w // 40, 2))), (w, h),
                       interpolation=cv2.INTER_CUBIC)
    fade = (np.clip(noise, 0, 2) * rng.uniform(0.15, 0.3)).astype(np.float32)[..., None]
    pale = part.mean(-1, keepdims=True) * 0.5 + 110
    img[field_box] = part * (1 - fade) + pale * fade


def _ornaments(img, rng, look: Look, origin, size) -> None:
    """Round shapes on every point, the size of a checker or less: a knob at the tip in the
    point's own colour or a darker one, or a disc with a ring at the base in an inlay's
    colour. A reader must tell them from checkers by what every bare point shows."""
    (ox, oy), (fw, fh) = origin, size
    column = look.geometry.column_width * fw
    r = column * rng.uniform(0.2, 0.45)
    shade = rng.uniform(0.6, 1.0)
    ink = jitter(rng, pick(rng, ((235, 215, 150), (25, 20, 20), (245, 245, 240),
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
                _checker(img, centre, r, colours[key], look)


def _checker(img, centre, r, rgb, look: Look) -> None:
    """A checker: a darker rim, a glossy highlight on the bevel towards the light, a groove
    (as `look.shapes` shapes them)."""
    c = (round(centre[0] * 16), round(centre[1] * 16))
    col = np.array(rgb, np.float32)
    aa, shapes = cv2.LINE_AA, look.shapes
    cv2.circle(img, c, round(r * 16), tuple(float(v) for v in col * shapes.rim_shade), -1, aa, 4)
    toward = float(np.degrees(np.arctan2(-look.light[1], -look.light[0])))
    gloss = tuple(float(v) for v in col * 0.55 + 110)  # on the rim, 5/6 of it wide
    cv2.ellipse(img, c, (round(r * (1 - shapes.rim * 7 / 12) * 16),) * 2, toward, -60, 60, gloss,
                max(1, round(r * shapes.rim * 5 / 6)), aa, 4)
    cv2.circle(img, c, round(r * (1 - shapes.rim) * 16), tuple(float(v) for v in col), -1, aa, 4)
    if shapes.groove:
        cv2.circle(img, c, round(r * shapes.groove * 16), tuple(float(v) for v in col * 0.85), 1,
                   aa, 4)


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
    cv2.circle(img, c, round(r * (1 - look.shapes.rim * 5 / 6) * 16), tuple(float(v) for v in col),
               -1, aa, 4)
    groove = look.shapes.groove
    for k in (groove + 0.1, groove - 0.12) if groove else ():  # ridges either side
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


def _die_sprite(value: int, body, pip, size: int, cocked: bool, shapes: Shapes):
    """A die seen from above (top face, or top plus side face when cocked) and its mask; its
    pips as `shapes` shapes them."""
    s, spread = size, shapes.pip_spread
    face, mask = _face(body, s)
    for dx, dy in PIPS[value]:
        cv2.circle(face, (round(s / 2 + dx * spread * s), round(s / 2 + dy * spread * s)),
                   round(shapes.pip * s), pip, -1, cv2.LINE_AA)
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


def cube_faces(look: Look, die: Die, origin) -> list[tuple[int, float, np.ndarray]]:
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
    """A die drawn as a cube (`cube_faces`) with its shadow; `paint(value, light)` draws
    each face (sprite and mask), a die's pips unless given."""
    size = look.die_size * CANVAS_H
    faces = cube_faces(look, die, origin)
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
            _die_sprite(value, body * light, tuple(map(float, pip * light)), SPRITE, False,
                        look.shapes)
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
            _paste(img, look, die, origin, *_die_sprite(die.value, *look.dice, SPRITE, die.cocked,
                                                         look.shapes))


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
    (cw, ch), (ox, oy), (fw, fh) = canvas_layout(look)
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
    skin = np.array(pick(rng, SKINS), np.float32)
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
    placed = strips(look, scene.points, scene.bar)
    _draw_checkers(board, look, placed, origin, CANVAS_H)
    _draw_dice(board, look, scene.dice, origin)
    if scene.cube:
        _draw_doubling(board, look, scene.cube, origin)
    if look.shade_side != "none":
        board *= _side_shade(look)[..., None]
    warped = cv2.warpPerspective(board, homography, FRAME_SIZE, flags=cv2.INTER_AREA)
    img = table_part + warped * cover
    if look.raised:
        standing = _checker_layer(look, placed, origin) if look.standing else None
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
        img = cv2.remap(img, *lens_maps(look.distortion), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REFLECT)
    image = _finish(img, noise, look)
    return Rendered(image, _calibration(look), _truth(scene, homography, origin))


def _checker_layer(look: Look, strips, origin) -> np.ndarray:
    """The checkers (`strips`) alone on the board's canvas, and as a fourth channel how much
    of each pixel they cover."""
    (cw, ch), _, _ = canvas_layout(look)
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
    (cw, ch), (ox, oy), (fw, fh) = canvas_layout(look)
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
def lens_maps(k1: float) -> tuple[np.ndarray, np.ndarray]:
    """remap() maps of a barrel-distorting lens: each frame pixel looks at the ideal picture
    (1 + k1 r^2) further from the centre, r in half frame widths."""
    w, h = FRAME_SIZE
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xx - w / 2) / (w / 2), (yy - h / 2) / (w / 2)
    grow = 1 + k1 * (dx * dx + dy * dy)
    return (w / 2 + dx * grow * w / 2).astype(np.float32), (h / 2 + dy * grow * w / 2).astype(
        np.float32)


def distort(points, k1: float) -> list[tuple[float, float]]:
    """Where ideal frame points appear through the lens of `lens_maps` (solved by iteration)."""
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
        canvas = np.concatenate([xy for *_, xy in cube_faces(look, die, origin)])
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


def dice_photo(values, seed: int = 0, size: int = 640) -> tuple[np.ndarray, list[dict]]:
    """A top-down photo of loose dice on a plain surface, and each die's value and box_px."""
    rng = np.random.default_rng(seed)
    img = np.zeros((size, size, 3), np.float32)
    img[:] = jitter(rng, (225, 222, 215), 8)
    img *= _texture(rng, (size, size), "felt", 0.02)[..., None]
    truth, placed = [], []
    side = rng.uniform(34, 44)
    for value in values:
        while True:
            xy = rng.uniform(side * 1.5, size - side * 1.5, 2)
            if all(np.linalg.norm(xy - p) > 2.2 * side for p in placed):
                break
        placed.append(xy)
        sprite, mask = _die_sprite(value, *pick(rng, DICE), SPRITE, False, Shapes())
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
