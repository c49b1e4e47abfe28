"""Hands and arms over the field: whatever reaches the field must cross the frame around it.

A stream of frames (`HandFinder`) is judged against the last frame seen without a hand: an
arm crossing the band of frame just outside the field shows as a run of samples unlike that
side then, and whatever lay there then (hinges, trays, a box's walls, shading, the band's
grain: most real boards' bands are no one colour) is the board. The first frame, with nothing
seen before it (a photo read on its own), is judged alone: by a small learned net
(`seen_alone`) when it is installed. Whether a frame judged alone may become the one to judge
the next ones by is also asked of the band: it should be one colour along each side (wood, a
painted edge), so an arm shows as a long run of samples far from that side's usual colour.
With the colours learned at calibration (`ArmFinder`), the arm must also go on into the field,
and an arm the colour of the frame still shows in the field as a large patch unlike the bare
board there.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from . import models
from .checkers import DARK, LIGHT, cells, shade_distance
from .lighting import OFFSET
from .models import net_input

NET_MODEL = models.FOLDER / models.HANDS
NET_SIZE = (96, 80)  # the hand net's view of the half-size field and its band (w, h), pixels

RUN = 0.05  # share of a side an arm covers at least
GAP = 0.03  # gaps between fingers, as a share of the side
LAB_WEIGHTS = np.float32([0.5, 1.0, 1.0])  # light left uneven counts less than colour
UNLIKE = 25.0  # weighted Lab distance from a bare-board colour (under any shade) that is not it
SHADES = (0.6, 1.4)  # shading a bare-board colour may show (local shadows after evening out)
PATCH = 0.01  # share of the field a patch unlike the bare board covers at least to be an arm
WIDE = 2.5  # checker radii: a checker-coloured patch holding a disc this wide is no checker
SETTLE = 5  # still frames with a hand, none seen clear yet, before one is taken as the board
STUCK = 150  # still frames with a hand after one was seen clear, before the same
RELIT = 1.13  # how much lighter (or darker) every side of the band is when a lamp is switched
# on or off, in L + lighting.OFFSET (which scales with the light): the fault films' lamp moves
# a dark band 1.14-1.23; a camera's exposure wavering 10% (the real-hands films) about 1.1


def net_view(half: np.ndarray) -> np.ndarray:
    """The hand net's view of the half-size rectified field and its band: NET_SIZE pixels."""
    return cv2.resize(half, NET_SIZE, interpolation=cv2.INTER_AREA)


def seen_alone(half: np.ndarray, model: Path = NET_MODEL) -> bool:
    """True when the hand net (`model`; benchmarks/train_hands.py) sees a hand or an arm over
    the half-size rectified field `half` (BGR, with its band), judged alone."""
    net = models.load(model)
    net.setInput(net_input(net_view(half)))
    return float(net.forward()[0, 0]) > 0.0


def _along_sides(a: np.ndarray, strip: slice, start: int) -> list[np.ndarray]:
    """Means across a strip (`strip`: its distances from each edge) along the four sides,
    sample by sample, leaving `start` samples out at each end: top, bottom, left, right."""
    h, w = a.shape[:2]
    return [a[strip, start:w - start].mean(0), a[h - strip.stop:h - strip.start,
                                                 start:w - start].mean(0),
            a[start:h - start, strip].mean(1), a[start:h - start,
                                                 w - strip.stop:w - strip.start].mean(1)]


def side_profiles(lab: np.ndarray, m: float) -> list[np.ndarray]:
    """Mean Lab colour across the margin band, sample by sample along each of the four sides."""
    m = round(m)
    band = slice(max(m // 4, 1), max(3 * m // 4, 2))
    return _along_sides(lab.astype(np.float32), band, band.start)


def inner_profiles(flags: np.ndarray, m: float) -> list[np.ndarray]:
    """Share of `flags` in a thin strip just inside the field along each side, sampled as
    `side_profiles` samples the band outside it."""
    m = round(m)
    return _along_sides(flags.astype(np.float32), slice(m + 1, m + 4), max(m // 4, 1))


def smooth_trend(prof: np.ndarray) -> np.ndarray:
    """The running median over half the side (per channel, on every 4th sample): the slow
    change of light along the side, which an arm, narrower than that, does not move."""
    coarse = prof[::4]
    half = max(1, len(coarse) // 4)
    padded = np.concatenate([coarse[:1].repeat(half, 0), coarse, coarse[-1:].repeat(half, 0)])
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * half + 1, axis=0)
    trend = np.partition(windows, half, axis=-1)[: len(coarse), :, half]
    at = np.arange(len(prof)) / 4
    return np.stack([np.interp(at, np.arange(len(coarse)), trend[:, c]) for c in range(3)], 1)


def longest_run(flags: np.ndarray) -> int:
    """Length of the longest run of True."""
    edges = np.diff(np.r_[0, flags.astype(np.int8), 0])
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return int((ends - starts).max()) if len(starts) else 0


def _far(dist: np.ndarray) -> np.ndarray:
    """Samples far from the side's usual colour (against the spread of the side itself)."""
    return dist > max(12.0, 4 * float(np.median(dist)))


def _crossed(flags: np.ndarray) -> bool:
    """A run of flagged samples as wide as an arm (gaps between fingers closed)."""
    gap = max(1, round(GAP * len(flags)))
    closed = np.convolve(flags, np.ones(gap), mode="same") > 0
    return longest_run(closed) > RUN * len(flags) + gap and flags.sum() > RUN * len(flags)


def trend_flags(prof: np.ndarray) -> np.ndarray:
    """Samples of one side's band profile unlike the side's slow trend."""
    return _far(np.linalg.norm((prof - smooth_trend(prof)) * LAB_WEIGHTS, axis=1))


def band_flags(prof: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Samples of one side's band profile unlike the side's slow trend, and samples unlike the
    whole side in colour (not only in lightness; a wide arm moves the trend, a shadow does not
    move the colour much but can on a strongly coloured frame)."""
    chroma = np.linalg.norm(prof[:, 1:] - np.median(prof[:, 1:], axis=0), axis=1)
    return trend_flags(prof), _far(chroma)


def crossed_alone(band: list[np.ndarray]) -> bool:
    """True when something crosses the frame band (its four `side_profiles`) judged by the
    band alone: a run of samples unlike its side's trend or colour."""
    return any(_crossed(np.logical_or(*band_flags(prof))) for prof in band)


def band_changed(band: list[np.ndarray], before: list[np.ndarray]) -> bool:
    """Something new crosses the frame band: on some side, a run of samples unlike that side
    in the frame `before`, in light (beyond a slow change of the room's light) or in colour."""
    for prof, ref in zip(band, before, strict=True):
        change = prof - ref
        chroma = np.linalg.norm(change[:, 1:] - np.median(change[:, 1:], axis=0), axis=1)
        if _crossed(trend_flags(change) | _far(chroma)):
            return True
    return False


def relit(band: list[np.ndarray], before: list[np.ndarray]) -> bool:
    """The room's light changed since the frame `before`: every side of the frame band is
    lighter (or every side darker) by a factor of RELIT or more. An arm crosses one or two
    sides, never all four."""
    moved = [float(np.median(np.log((prof[:, 0] + OFFSET) / (ref[:, 0] + OFFSET))))
             for prof, ref in zip(band, before, strict=True)]
    return min(moved) >= np.log(RELIT) or max(moved) <= -np.log(RELIT)


def bare_board(view, scale: float) -> np.ndarray:
    """Which learned colour each pixel of the rectified field (at `scale`) shows when the board
    is bare: 0 frame, 1 field, 2 and 3 the triangles of even and odd points, 4 the bar."""
    m, w, h = view.m * scale, view.w * scale, view.h * scale
    size = (round(view.size[1] * scale), round(view.size[0] * scale))
    out = np.zeros(size, np.uint8)
    cv2.rectangle(out, (round(m), round(m)), (round(m + w) - 1, round(m + h) - 1), 1, -1)
    geo = view.geo
    for p in range(1, 25):
        tri = np.array(geo.triangle(p, (m, m), (w, h))) * 16
        cv2.fillPoly(out, [np.round(tri).astype(np.int32)], 2 + p % 2, cv2.LINE_8, 4)
    x0, x1 = (m + v * w for v in geo.bar_x)
    cv2.rectangle(out, (round(x0), round(m)), (round(x1) - 1, round(m + h) - 1), 4, -1)
    return out


def unlike_table(colour) -> np.ndarray:
    """Per Lab / 8 cell (flat, 32**3: small enough to stay in cache), whether the colour is
    unlike `colour` under any shade in SHADES."""
    centres = (np.indices((32, 32, 32)).reshape(3, -1).T * 8 + 4).astype(np.float32)
    return shade_distance(centres, colour, SHADES) > UNLIKE


class ArmFinder:
    """Hands over the field of a board whose colours were learned (`learn.start_colours`)."""

    def __init__(self, view, colours: dict, scale: float = 0.5):
        board = colours["board"]
        learned = (colours["frame"], colours["field"], board[0], board[1], board[-1])
        self.table = np.concatenate([unlike_table(c) for c in learned]).astype(np.uint8)
        labels = bare_board(view, scale)
        self.index = labels.astype(np.int32) << 15
        self.m = view.m * scale
        self.field = labels > 0
        self.wide = WIDE * view.d * scale / 2
        self.band = [np.float32(p) for p in colours.get("band", ())]

    def unlike(self, even: np.ndarray) -> np.ndarray:
        """Where the evened half-size field `even` is unlike the bare board (uint8 0/1)."""
        return np.take(self.table, self.index | cells(even, 5))

    def marks(self, even: np.ndarray, cls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where the evened half-size field `even` (classes `cls`) is unlike the bare board, and
        where it shows a checker's colour (uint8 0/1 each)."""
        return self.unlike(even), ((cls == LIGHT) | (cls == DARK)).astype(np.uint8)

    def __call__(self, even: np.ndarray, cls: np.ndarray) -> bool:
        """True when an arm or a hand is over the field in `even` (classes `cls`), judged alone:
        something crosses the band (a change of colour alone only where it goes on into the
        field), or a patch unlike the bare board reaches in from the field's edge."""
        unlike, checker = self.marks(even, cls)
        inner = inner_profiles(unlike, self.m)
        for side, (prof, into) in enumerate(zip(side_profiles(even, self.m), inner, strict=True)):
            trend, colour = band_flags(prof)
            colour &= into > 0.5
            if _crossed(trend | colour) and _crossed((trend & self.new(side, prof)) | colour):
                return True
        return self.patch(unlike, checker) or self.wide_checker(checker)

    def since(self, marks: tuple[np.ndarray, np.ndarray], lab: np.ndarray,
              before: np.ndarray) -> bool:
        """A patch unlike the bare board, or one of a checker's colour wider than a checker,
        where the field (`lab`, the half-size field in Lab) has changed since the frame
        `before` (the same then): an inlay, a logo or a point the colour of a checker was there
        then too, a hand was not."""
        change = cv2.transform(cv2.absdiff(lab, before), LAB_WEIGHTS[None]) > UNLIKE
        unlike, checker = (mark & change for mark in marks)
        return self.patch(unlike, checker) or self.wide_checker(checker)

    def new(self, side: int, prof: np.ndarray) -> np.ndarray | bool:
        """Samples of a side's band unlike the band learned at calibration (beyond a slow change
        of light): shading fixed in the room and the band's own grain are no arm."""
        if len(self.band) != 4 or self.band[side].shape != prof.shape:
            return True
        return trend_flags(prof - self.band[side])

    def patch(self, unlike: np.ndarray, checker: np.ndarray) -> bool:
        """A patch of `unlike` (the bare board), not of a checker's colour (`checker`), that
        reaches the field's edge."""
        mask = unlike & self.field & (1 - checker)
        mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        h, w = mask.shape
        m = round(self.m)
        least = PATCH * (h - 2 * m) * (w - 2 * m)
        if cv2.countNonZero(mask) <= least:  # no patch can be large enough
            return False
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for x, y, bw, bh, area in stats[1:]:
            edge = min(x, y) <= m + 1 or x + bw >= w - m - 1 or y + bh >= h - m - 1
            if edge and area > least:
                return True
        return False

    def wide_checker(self, checker: np.ndarray) -> bool:
        """A patch of a checker's colour (`checker`) far wider than a checker: a hand or an arm
        the colour of the checkers (a row or a stack of checkers is never wider than one)."""
        return float(cv2.distanceTransform(checker, cv2.DIST_L2, 3).max()) > self.wide


class HandFinder:
    """Hands over the field in a stream of frames (one camera, one calibration), each judged
    against the last frame seen without one: a run of the frame band unlike it (`band_changed`)
    and, with learned colours, a patch it did not show (`ArmFinder.since`). Until a frame is
    seen clear, frames are judged alone: by the hand net (`seen_alone`; `net`, None: without
    it, as the band says). Such a frame is seen clear when the band agrees too
    (`crossed_alone`, or `ArmFinder` with learned colours), so that an arm the net misses
    never becomes the board. A frame seen clear becomes the one to judge by; so does a frame
    with a hand after a run of frames with a hand that stood still (the band as in the frame
    before): SETTLE of them while no frame was seen clear (a real board's band judged alone),
    STUCK after (something laid on the frame and left there). A moving hand never stands
    still that long. When the room's light changes (`relit`), frames are judged alone again
    until one is seen clear."""

    def __init__(self, view, colours: dict | None = None, scale: float = 0.5,
                 net: Path | None = NET_MODEL):
        self.m = view.m * scale
        self.net = net
        self.arms = ArmFinder(view, colours, scale) if colours else None
        self.clear: tuple | None = None  # the band and the Lab field of the last frame seen clear
        self.last: list[np.ndarray] | None = None  # the band of the frame before
        self.held = 0  # frames in a row seen with a hand, standing still

    def __call__(self, half: np.ndarray, even: np.ndarray, cls: np.ndarray) -> bool:
        """True when a hand or an arm is over the field in `half` (the half-size rectified
        field, BGR; `even` the same in Lab with the light evened out, `cls` its classes). The
        band is compared in `half`'s own Lab: evening the light out moves a dark band's colours
        from frame to frame more than an arm does."""
        lab = cv2.cvtColor(half, cv2.COLOR_BGR2LAB)
        band = side_profiles(lab, self.m)
        if self.clear is not None and relit(band, self.clear[0]):
            self.clear = None  # the room's light changed: judged alone again, as at the start
        if self.clear is None:
            found = seen_alone(half, self.net) if self.net else self.band_alone(even, cls)
            doubt = found or (self.net is not None and self.band_alone(even, cls))
        else:
            found = doubt = band_changed(band, self.clear[0]) or bool(
                self.arms and self.arms.since(self.arms.marks(even, cls), lab, self.clear[1]))
        if doubt:
            still = self.last is not None and not band_changed(band, self.last)
            self.held = self.held + 1 if still else 1
        else:
            self.held = 0
        self.last = band
        if not doubt or self.held >= (SETTLE if self.clear is None else STUCK):
            self.clear, self.held = (band, lab), 0
        return found

    def band_alone(self, even: np.ndarray, cls: np.ndarray) -> bool:
        """The band's judgement of a frame alone (`crossed_alone`, or `ArmFinder` with learned
        colours)."""
        return self.arms(even, cls) if self.arms else crossed_alone(side_profiles(even, self.m))
