"""Dice on a calibrated board's field, read by their pips.

`find_field_dice` looks on the rectified field for die-sized blobs unlike the board, away from
the checkers. A die is read in a square patch about two dice wide (`read_field_die`): the die
is the region of its body colour nearer that than the patch's rim colours, its pips are read
on a 3 x 3 grid turned with its edges, and a die whose outline is not square is leaning
(`cocked`).
"""

from __future__ import annotations

import cv2
import numpy as np

from .checkers import DARK, LIGHT

LAB_WEIGHTS = np.float32([0.5, 1.0, 1.0])
SQUARED_WEIGHTS = (LAB_WEIGHTS ** 2)[None]
ROUND = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
SMALL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
DIE_SIZE = 0.041  # die side / field height, unless the calibration says otherwise
BLOT = 0.3  # checker diameters from a checker's centre within which only unlike colours count


def _lab(image: np.ndarray) -> np.ndarray:
    """Lab on OpenCV's 8-bit scale (L 0-255, a and b around 128), through the float conversion
    (several times faster than the 8-bit one on small patches)."""
    lab = cv2.cvtColor(image.astype(np.float32) * np.float32(1 / 255), cv2.COLOR_BGR2LAB)
    return lab * np.float32([2.55, 1, 1]) + np.float32([0, 128, 128])


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """`mask` with the inside of every outline filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    cv2.drawContours(out, contours, -1, 1, -1)
    return out


def _off_checkers(stranger: np.ndarray, cls: np.ndarray, view, checkers) -> np.ndarray:
    """`stranger` as uint8 (half-size pixels) without the frame band, the bar and, within
    `BLOT` checker diameters of every checker ((centre, light) each), the checker's colour and
    what borders it unless of the other side's colour: a die lying on or against a checker is
    kept, the checker's rim and shadow are not."""
    mask = stranger.astype(np.uint8)
    m = round(view.m / 2)
    mask[:m + 1], mask[-m - 1:], mask[:, :m + 1], mask[:, -m - 1:] = 0, 0, 0, 0
    for light, own, other in ((True, LIGHT, DARK), (False, DARK, LIGHT)):
        disc = np.zeros_like(mask)
        for cx, cy in (c for c, lit in checkers if lit == light):
            cv2.circle(disc, (round(cx / 2), round(cy / 2)), round(view.d * BLOT), 1, -1)
        near = cv2.dilate((cls == own).view(np.uint8), SMALL).view(bool)
        mask[(disc > 0) & ((cls == own) | near & (cls != other))] = 0
    bx0, bx1 = (round((view.m + v * view.w) / 2) for v in view.geo.bar_x)
    mask[:, bx0:bx1 + 1] = 0
    return mask


def _die_sized(stats: np.ndarray, die_rect: float) -> np.ndarray:
    """Which connected components (stats rows) of a half-size mask are die-sized and compact."""
    area = (die_rect / 2) ** 2
    return ((0.35 * area <= stats[:, 4]) & (stats[:, 4] <= 3.5 * area)
            & (np.maximum(stats[:, 2], stats[:, 3]) <= 2.5 * die_rect / 2)
            & (stats[:, 4] >= 0.4 * stats[:, 2] * stats[:, 3]))


def blob_candidates(stranger: np.ndarray, cls: np.ndarray, view, checkers,
                    die_rect: float) -> list[tuple]:
    """Die-sized blobs of half-size pixels unlike the board, off the checkers and the bar. A
    checker is blotted out a fifth of its radius beyond its edge (for its place's error) but
    for colours unlike it, and the opening cuts the specks and slivers left. A blob too big or
    too ragged for a die may be one merged with a neighbour (a triangle's edge, a checker's
    rim): its die-sized cores after a round opening about half a die wide are candidates too."""
    mask = _off_checkers(stranger, cls, view, checkers)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    die = _die_sized(stats, die_rect)
    die[0] = False
    other = ~die
    other[0] = False
    merged = other[labels].astype(np.uint8)
    k = max(3, int(0.3 * die_rect) | 1)
    merged = cv2.morphologyEx(cv2.morphologyEx(merged, cv2.MORPH_CLOSE, SMALL), cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    _, _, stats2, centroids2 = cv2.connectedComponentsWithStats(merged, connectivity=8)
    cores = _die_sized(stats2, die_rect)
    cores[0] = False
    return [tuple(c * 2) for c in np.r_[centroids[die], centroids2[cores]]]


def die_patch(image: np.ndarray, view, centre, die_rect: float, size: int = 48) -> np.ndarray:
    """A top-down patch of the frame around a die, 2.2 dice wide, `size` px square."""
    r = 1.1 * die_rect
    k = 2 * r / size
    a = np.array([[k, 0, centre[0] - r], [0, k, centre[1] - r], [0, 0, 1]])
    return cv2.warpPerspective(image, view.rect_to_image @ a, (size, size),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)


def _patterns() -> tuple[np.ndarray, np.ndarray]:
    """Every pip pattern on the 3 x 3 places of a face (row by row), and its value."""
    rows = {1: ["000010000"], 2: ["100000001", "001000100"], 3: ["100010001", "001010100"],
            4: ["101000101"], 5: ["101010101"], 6: ["101101101", "111000111"]}
    pairs = [(v, [c == "1" for c in p]) for v, ps in rows.items() for p in ps]
    return np.array([v for v, _ in pairs]), np.array([on for _, on in pairs])


VALUES, PATTERNS = _patterns()
PLAIN = np.array([(x, y) for x in (-0.135, 0.135) for y in (-0.135, 0.135)]
                 + [(0.36, 0), (-0.36, 0), (0, 0.36), (0, -0.36)], np.float32)  # x side
GRID = np.array([(c, r) for r in (-1, 0, 1) for c in (-1, 0, 1)], np.float32) * 0.27  # x side


def _weighted(lab: np.ndarray, colour) -> np.ndarray:
    """Weighted Lab distance of every pixel of `lab` (rows x columns x 3, float32) from
    `colour` (OpenCV's channel sum is several times faster than numpy's on small patches)."""
    d = lab - np.float32(colour)
    return cv2.sqrt(cv2.transform(d * d, SQUARED_WEIGHTS))


def _median(values: np.ndarray) -> np.ndarray:
    """The middle value (the upper one of an even count) of each column: np.median is several
    times slower on short columns."""
    k = len(values) // 2
    return np.partition(values, k, axis=0)[k]


def _body_dist(lab: np.ndarray, middle: np.ndarray) -> np.ndarray:
    """Colour distance of every pixel from the die's body: the commonest colour of the middle,
    refined on the pixels nearest it (blurred pips pull a plain median towards their colour)."""
    body = _median(middle)
    for _ in range(2):
        d = _weighted(middle[:, None], body)[:, 0]
        body = _median(middle[d <= _median(d)])
    return _weighted(lab, body)


def _around_dist(lab: np.ndarray) -> np.ndarray:
    """Colour distance of every pixel from the nearest of three colours of the patch's rim
    (a die may lie where a point, the field and a checker meet); seeded, so a patch reads the
    same whatever was read before."""
    ring = np.r_[lab[:3].reshape(-1, 3), lab[-3:].reshape(-1, 3), lab[:, :3].reshape(-1, 3),
                 lab[:, -3:].reshape(-1, 3)]
    cv2.setRNGSeed(0)
    _, _, centres = cv2.kmeans(ring, 3, None, (cv2.TERM_CRITERIA_MAX_ITER, 5, 0), 1,
                               cv2.KMEANS_PP_CENTERS)
    a, b, c = (_weighted(lab, centre) for centre in centres)
    return np.minimum(np.minimum(a, b), c)


def _die_mask(dist: np.ndarray, around: np.ndarray, c: slice) -> tuple:
    """The die: the region around the middle nearer the body colour (`dist`) than the
    surroundings' (`around`), if it is isolated, square and die-sized (else None); and the
    isolated region's centre (x, y), if there is one, where a patch off a die's middle may
    look again."""
    near = dist < 40
    expected = (dist.shape[0] / 2.2) ** 2
    if near.sum() < 0.3 * expected:  # too little of the body colour for a die, pips filled in
        return None, None
    near = (near & (dist < around)).astype(np.uint8)
    n, labels = cv2.connectedComponents(near, connectivity=4)
    centre = labels[c, c].ravel()
    centre = centre[centre > 0]
    if not len(centre):
        return None, None
    region = (labels == np.bincount(centre).argmax()).astype(np.uint8)
    if region[0].any() or region[-1].any() or region[:, 0].any() or region[:, -1].any():
        return None, None  # not isolated (closing and filling only grow it)
    die = _fill_holes(cv2.morphologyEx(region, cv2.MORPH_CLOSE, ROUND))  # close pips on its edge
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    w, h = cv2.minAreaRect(max(contours, key=cv2.contourArea))[1]
    area = die.sum()
    mo = cv2.moments(die, True)
    where = np.array([mo["m10"], mo["m01"]]) / mo["m00"]
    edge = die[0].any() or die[-1].any() or die[:, 0].any() or die[:, -1].any()
    bad = edge or not 0.4 * expected <= area <= 2 * expected or area < 0.8 * w * h
    return (None if bad else die), where


def _pose(die: np.ndarray) -> tuple:
    """Centre, long and short axis (unit vectors) and their lengths of a die's mask: the axes
    from the outline's gradient directions modulo a right angle (each weighted by its
    strength), the lengths from the spread (a rounded square's bounding box turns freely, its
    edges do not)."""
    soft = cv2.GaussianBlur(die.astype(np.float32), (5, 5), 0)
    gx, gy = cv2.Sobel(soft, cv2.CV_32F, 1, 0), cv2.Sobel(soft, cv2.CV_32F, 0, 1)
    cos2, sin2 = gx * gx - gy * gy, 2 * gx * gy  # |g|^2 times the doubled angle's
    cube = np.maximum(cv2.magnitude(gx, gy), 1e-6) ** 3
    a = np.arctan2(float((2 * cos2 * sin2 / cube).sum()),
                   float(((cos2 * cos2 - sin2 * sin2) / cube).sum())) / 4
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    mo = cv2.moments(die, True)
    centre = np.array([mo["m10"], mo["m01"]]) / mo["m00"]
    cov = np.array([[mo["mu20"], mo["mu11"]], [mo["mu11"], mo["mu02"]]]) / mo["m00"]
    w, h = (float(np.sqrt(12 * d @ cov @ d)) for d in (u, v))
    return (centre, u, v, w, h) if w >= h else (centre, v, u, h, w)


def _face_colour(lab: np.ndarray, pose, cocked: bool) -> np.ndarray:
    """The face's colour where no face has a pip: between the pip places and in the middle of
    each edge (nearer the middle on a leaning die, whose top face is shorter)."""
    centre, u, v, w, h = pose
    k = 0.5 if cocked else 1.0
    places = np.array([centre + k * (x * w * u + y * h * v) for x, y in PLAIN], np.float32)
    return np.median(cv2.remap(lab, places[:, :1], places[:, 1:], cv2.INTER_LINEAR)[:, 0], axis=0)


def _pip_places(pose, cocked: bool) -> np.ndarray:
    """The nine pip places (x, y) of every face the outline may show: the whole outline, or on
    a leaning die the top face (shortened) at either end, beside the side face."""
    centre, u, v, w, h = pose
    faces = [(0.0, 1.0)] + ([(e * (1 - f) / 2, f) for f in (0.6, 0.8) for e in (-1, 1)]
                            if cocked else [])
    return np.array([centre + shift * w * u + GRID[:, :1] * f * w * u + GRID[:, 1:] * h * v
                     for shift, f in faces], np.float32)


def _read_pips(dist: np.ndarray, pose, cocked: bool) -> tuple[int, float]:
    """The pip pattern that best splits the pip places into pips and plain face: its value and
    margin (faintest pip minus the plain place farthest from the body colour)."""
    smooth = cv2.GaussianBlur(dist, (0, 0), max(0.6, 0.04 * pose[4]))
    places = _pip_places(pose, cocked)
    vals = cv2.remap(smooth, places[..., 0], places[..., 1], cv2.INTER_LINEAR)  # faces x 9
    on = np.where(PATTERNS[None], vals[:, None], np.inf).min(-1)
    off = np.where(PATTERNS[None], -np.inf, vals[:, None]).max(-1)
    margin = on - off  # faces x patterns
    best = np.unravel_index(np.argmax(margin), margin.shape)
    return int(VALUES[best[1]]), float(margin[best])


def _top_face(dist: np.ndarray, die: np.ndarray) -> np.ndarray | None:
    """A leaning die's top face: the part of its outline nearest the face colour (split from
    the darker side face and the pips by Otsu's threshold), pips filled in."""
    inside = np.clip(dist[die > 0], 0, 255).astype(np.uint8)
    split, _ = cv2.threshold(inside, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    face = ((dist <= split) & (die > 0)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(face, connectivity=4)
    if n < 2:
        return None
    face = (labels == 1 + np.argmax(stats[1:, 4])).astype(np.uint8)
    return _fill_holes(cv2.morphologyEx(face, cv2.MORPH_CLOSE, ROUND))


def read_field_die(patch: np.ndarray) -> tuple[int, bool, float, np.ndarray | None]:
    """Value, cocked and confidence of the die in the middle of a top-down patch, and where
    (x, y) in the patch the die, or a region that may be one, lies: the face is the region
    of the middle's colour, pips are read on a 3 x 3 grid turned with its edges, and a die
    whose outline is not square is leaning (`cocked`)."""
    lab = _lab(patch)
    s = patch.shape[0]
    c = slice(round(0.32 * s), round(0.68 * s))  # mostly the die's face, pips a minority
    dist = _body_dist(lab, lab[c, c].reshape(-1, 3))
    around = _around_dist(lab)
    die, where = _die_mask(dist, around, c)
    if die is None:  # a die off the middle leaves it mostly board: body from what is unlike the rim
        unlike = around[c, c].ravel()
        dist = _body_dist(lab, lab[c, c].reshape(-1, 3)[unlike >= _median(unlike)])
        die, moved = _die_mask(dist, around, c)
        if die is None:
            return 0, False, 0.0, where
        where = moved
    pose = _pose(die)
    cocked = pose[3] > 1.12 * max(pose[4], 1)
    dist = _weighted(lab, _face_colour(lab, pose, cocked))
    value, margin = _read_pips(dist, pose, cocked)
    top = _top_face(dist, die) if cocked else None
    if top is not None:
        top_value, top_margin = _read_pips(dist, _pose(top), False)
        if top_margin > margin:
            value, margin = top_value, top_margin
    inside = dist[die > 0]
    contrast = float(np.percentile(inside, 99) - np.median(inside))
    if margin < max(4.0, 0.1 * contrast):
        # a leaning die must be rolled again whatever it shows: report it, unsure of its value
        return (value, True, 0.2, where) if cocked else (0, False, 0.0, where)
    return value, cocked, float(np.clip(margin / max(contrast, 1.0), 0.2, 1.0)), where


def _read_at(image: np.ndarray, view, centre, die_rect: float) -> tuple:
    """`read_field_die` on the patch around `centre` (rectified pixels); when no die is read
    there but a region that may be one lies off the patch's middle (a leaning die found by its
    side face), once more around that region. The last element is the die's centre
    (rectified pixels)."""
    size = 48
    value, cocked, conf, where = read_field_die(die_patch(image, view, centre, die_rect, size))
    if where is None:
        return value, cocked, conf, np.asarray(centre)
    moved = np.asarray(centre) + 2.2 * die_rect / size * (where - size / 2)
    if value or np.hypot(*(moved - centre)) < 0.1 * die_rect:
        return value, cocked, conf, moved
    return (*read_field_die(die_patch(image, view, moved, die_rect, size))[:3], moved)


def find_field_dice(image: np.ndarray, view, stranger: np.ndarray, cls: np.ndarray,
                    checkers) -> list[dict]:
    """Dice on the field: value, field_xy, cocked and a confidence each, given the half-size
    masks of pixels unlike the board (`stranger`) and of pixel classes (`cls`) and the
    checkers read, (centre, light) each."""
    die_rect = view.cal.extra.get("die_size", DIE_SIZE) * view.h
    found: list[dict] = []
    places: list[tuple] = []
    for c in blob_candidates(stranger, cls, view, checkers, die_rect):
        if all(np.hypot(c[0] - p[0], c[1] - p[1]) > die_rect for p in places):
            places.append(c)
    seen: list[np.ndarray] = []
    for centre in places:
        value, cocked, conf, at = _read_at(image, view, centre, die_rect)
        if value and all(np.hypot(*(at - p)) > die_rect for p in seen):
            seen.append(at)
            fx, fy = view.to_field(at)
            found.append({"value": value, "field_xy": [round(float(fx), 3), round(float(fy), 3)],
                          "cocked": cocked, "confidence": round(conf, 3)})
    return found
