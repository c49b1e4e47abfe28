"""Keeping the calibration right when the camera or the board is bumped, and only then.

A `FieldWatch` keeps a reference frame, the last one that agreed with the corners, and its
corner features on the board: the field and a band around it, so that a bumped board is
followed as well as a bumped camera, and the table does not outvote the board. Each frame,
those features are followed into it by optical flow (Lucas-Kanade on light-levelled pictures,
kept only when followed back they come home: a few milliseconds), and a homography fitted to
them with RANSAC (moved checkers, dice and hands fall out as outliers) says where the corners
are now. When too few follow (a jump too far for the flow), ORB features matched over the
whole frame find the board again.

A still board must never be taken for a moved one: checkers that move, dice, hands and arms,
a lamp switched on and noise all bend a fit. So corners that seem to have moved MOVED of a
point's width or more are only a candidate. It counts when the edges of what cannot move in
a game (the frame, the field's edge and the points' bases: the `ring`) match the reference
better through it than where the corners were (by EXPLAINS), and it makes a new calibration
only once SETTLE frames in a row agree on it. A board found in no frame for LOST_AFTER frames
is lost, and is not read until it is found again. The reference is renewed when its features
fade (checkers moved, the light changed) on a frame that agrees with the corners, so small
errors do not add up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from ..calibration.file import CORNERS, Calibration
from .read import Reader, check_image

WIDTH = 640  # frames are watched at this width
MOVED = 0.25  # corners that moved this share of a point's width or more: the field moved
BAND = 0.15  # the board around the field, as a share of the field's size, has features too
FEATURES = 150  # corner features followed from the reference
LEAST = 25  # the fewest features that agree on a homography for the field to count as found
AGREE = 0.2  # the share of the reference's features that must agree on it
RENEW = 0.6  # the reference is renewed when fewer than this share of its features agree
ROUND_TRIP = 1.0  # pixels: a feature followed there and back must come home this near
FLOW = {"winSize": (21, 21), "maxLevel": 3}
SETTLE = 3  # frames in a row that must agree on moved corners before they are taken
LOST_AFTER = 5  # frames in a row with the board found nowhere before it is lost
RING = (0.96, 1.12)  # what cannot move: the field's edge and the frame, as scales of the field
EXPLAINS = 0.05  # how much better moved corners must match the ring's edges than the old ones
CLEAN = 0.6  # the ring's edges must match the reference this well for a frame to replace it
LEVEL = 31  # watched pixels: the light is levelled over boxes this wide (a lamp switched on)


@dataclass(frozen=True)
class Change:
    """What a frame says of the field: `calibration` the corners found now (None: the field
    is lost), `shift` the furthest any corner is from the first calibration's, in pixels."""

    calibration: Calibration | None
    shift: float


@dataclass(frozen=True)
class Reference:
    """A frame the corners were right in: its light-levelled grey picture (watched size), the
    corners there (watched size), the mask of the board there and its features to follow."""

    grey: np.ndarray
    corners: np.ndarray
    mask: np.ndarray
    points: np.ndarray | None

    @cached_property
    def orb(self) -> tuple:
        """Its ORB keys and descriptors on the board: found only when needed (to find the
        board again after a jump), not for every reference."""
        return orb_features(self.grey, self.mask)

    @cached_property
    def edges(self) -> np.ndarray:
        """Its edges (gradient strength): found only when a frame is weighed against it."""
        return edges(self.grey)


class FieldWatch:
    """Watches frames seen through `cal` for the field moving in the picture."""

    def __init__(self, cal: Calibration) -> None:
        self.cal = cal
        self.k = WIDTH / cal.image_size[0]
        self.first = np.float32([cal.corners_px[c] for c in CORNERS]) * self.k
        self.corners = self.first  # where the field is now (watched size)
        self.point = np.linalg.norm(self.first[1] - self.first[0]) * cal.geometry.column_width
        self.reference: Reference | None = None
        self.lost = False
        self.candidates: list[np.ndarray] = []  # moved corners seen in the last frames in a row
        self.misses = 0  # frames in a row with the board found nowhere

    @property
    def settling(self) -> bool:
        """Whether the field seems to have moved and the watch waits for frames to agree."""
        return bool(self.candidates)

    def update(self, image: np.ndarray) -> Change | None:
        """None while the field stays where it was; a Change when it moved, was lost, or was
        found again."""
        grey = levelled(cv2.cvtColor(cv2.resize(image, None, fx=self.k, fy=self.k,
                                                interpolation=cv2.INTER_AREA),
                                     cv2.COLOR_BGR2GRAY))
        if self.reference is None:
            self.reference = self._reference(grey, self.corners)
            return None
        h, share = self._follow(grey, np.eye(3))
        if h is None:
            h = self._match(grey)
            h, share = (None, 0.0) if h is None else self._follow(grey, h)
        if h is None:
            return self._missed()
        self.misses = 0
        corners = cv2.perspectiveTransform(self.reference.corners[None].astype(np.float64),
                                           h)[0].astype(np.float32)
        if _apart(corners, self.corners) < MOVED * self.point:
            self.candidates = []
            if self.lost:
                return self._found(self.corners, grey)
            if share < RENEW and self._match_score(edges(grey), np.eye(3)) >= CLEAN:
                self.reference = self._reference(grey, self.corners)
            return None
        return self._candidate(corners, h, grey)

    def _missed(self) -> Change | None:
        """A frame with the board found nowhere: lost once LOST_AFTER such frames follow."""
        self.candidates = []
        self.misses += 1
        if self.lost or self.misses < LOST_AFTER:
            return None
        self.lost = True
        return Change(None, float("inf"))

    def _candidate(self, corners: np.ndarray, h: np.ndarray, grey: np.ndarray
                   ) -> Change | None:
        """Corners that seem to have moved: taken once they explain what cannot move better
        than the corners in use, in SETTLE frames in a row that agree."""
        seen = edges(grey)
        if self._match_score(seen, h) < self._match_score(seen, np.eye(3)) + EXPLAINS:
            self.candidates = []
            return None
        if self.candidates and _apart(corners, self.candidates[-1]) >= MOVED * self.point / 2:
            self.candidates = []
        self.candidates.append(corners)
        if len(self.candidates) < SETTLE:
            return None
        self.candidates = []
        return self._found(corners, grey)

    def _found(self, corners: np.ndarray, grey: np.ndarray) -> Change:
        """The field is at `corners` (found again, or moved there): a new calibration."""
        self.lost = False
        if _apart(corners, self.first) < MOVED * self.point:
            corners = self.first  # back where it was calibrated
        self.corners = corners
        self.reference = self._reference(grey, corners)
        named = {c: (float(x) / self.k, float(y) / self.k)
                 for c, (x, y) in zip(CORNERS, corners, strict=True)}
        return Change(replace(self.cal, corners_px=named), _apart(corners, self.first) / self.k)

    def keep(self, corners: np.ndarray) -> None:
        """Go on with the field at `corners` after all (the move just taken was refused), the
        frame just watched as the reference."""
        self.corners = corners
        self.reference = self._reference(self.reference.grey, corners)

    def _reference(self, grey: np.ndarray, corners: np.ndarray) -> Reference:
        """A reference frame with the field at `corners`: its features on the board."""
        mask = _within(grey.shape, corners, 1 + 2 * BAND)
        return Reference(grey, corners, mask, cv2.goodFeaturesToTrack(grey, FEATURES, 0.01, 8,
                                                                      mask=mask))

    def _match_score(self, seen: np.ndarray, h: np.ndarray) -> float:
        """How well the ring's edges in a frame (`seen`: its `edges`) match the reference's
        carried there by `h` (correlation, -1 to 1): the ring is where the corners `h` gives
        put it."""
        ref = self.reference
        size = seen.shape[::-1]
        carried = cv2.warpPerspective(ref.edges, h, size)
        inside = cv2.warpPerspective(np.ones(seen.shape, np.uint8), h, size)
        corners = cv2.perspectiveTransform(ref.corners[None].astype(np.float64), h)[0]
        ring = (_within(seen.shape, corners, RING[1]) > 0) \
            & (_within(seen.shape, corners, RING[0]) == 0) & (inside > 0)
        return correlation(carried[ring], seen[ring])

    def _follow(self, grey: np.ndarray, h: np.ndarray) -> tuple[np.ndarray | None, float]:
        """The homography from the reference's features followed into `grey` by optical flow,
        starting where `h` puts them, and the share of them that agree on it; (None, 0) unless
        enough do."""
        ref = self.reference
        if ref.points is None or len(ref.points) < LEAST:
            return None, 0.0
        guess = cv2.perspectiveTransform(ref.points.astype(np.float64), h).astype(np.float32)
        moved, ok, _ = cv2.calcOpticalFlowPyrLK(ref.grey, grey, ref.points, guess.copy(),
                                                flags=cv2.OPTFLOW_USE_INITIAL_FLOW, **FLOW)
        back, ok_back, _ = cv2.calcOpticalFlowPyrLK(grey, ref.grey, moved, ref.points.copy(),
                                                    flags=cv2.OPTFLOW_USE_INITIAL_FLOW, **FLOW)
        ok = (ok.ravel() == 1) & (ok_back.ravel() == 1) \
            & (np.linalg.norm((back - ref.points).reshape(-1, 2), axis=1) < ROUND_TRIP)
        h, agree = fit(ref.points[ok], moved[ok], max(LEAST, AGREE * len(ref.points)))
        return h, agree / len(ref.points)

    def _match(self, grey: np.ndarray) -> np.ndarray | None:
        """The homography from the reference's ORB features matched anywhere in `grey`."""
        keys, descriptors = orb_features(grey)
        ref_keys, ref_descriptors = self.reference.orb
        if descriptors is None or ref_descriptors is None:
            return None
        pairs = cv2.BFMatcher(cv2.NORM_HAMMING, crossCheck=True).match(ref_descriptors,
                                                                       descriptors)
        return fit(np.float32([ref_keys[p.queryIdx].pt for p in pairs]),
                   np.float32([keys[p.trainIdx].pt for p in pairs]))[0]


def _apart(a: np.ndarray, b: np.ndarray) -> float:
    """How far the furthest of two sets of corners are apart (pixels)."""
    return float(np.linalg.norm(a - b, axis=1).max())


def _within(shape: tuple, corners: np.ndarray, scale: float) -> np.ndarray:
    """A mask of the field at `corners` grown (or shrunk) by `scale` about its middle."""
    centre = corners.mean(0)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, (centre + (corners - centre) * scale).round().astype(np.int32), 255)
    return mask


def levelled(grey: np.ndarray) -> np.ndarray:
    """The grey picture with the light levelled (each pixel over its neighbourhood's mean), so
    that a lamp switched on or a cloud leaves the features where they were."""
    return cv2.divide(grey, cv2.add(cv2.blur(grey, (LEVEL, LEVEL)), 8), scale=96)


def edges(grey: np.ndarray) -> np.ndarray:
    """The strength of the grey picture's edges (float32)."""
    smooth = cv2.GaussianBlur(grey, (0, 0), 1.5)
    return cv2.magnitude(cv2.Sobel(smooth, cv2.CV_32F, 1, 0), cv2.Sobel(smooth, cv2.CV_32F, 0, 1))


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    """The normalised correlation of two equal-length arrays (0 when either is flat)."""
    a, b = a - a.mean(), b - b.mean()
    scale = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / scale if scale > 0 else 0.0


def orb_features(grey: np.ndarray, mask: np.ndarray | None = None) -> tuple:
    """ORB keys and descriptors of a grey picture (within `mask`)."""
    return cv2.ORB_create(1500, fastThreshold=10).detectAndCompute(grey, mask)


def fit(src: np.ndarray, dst: np.ndarray, least: float = LEAST) -> tuple[np.ndarray | None, int]:
    """A homography taking `src` to `dst` that `least` of them agree on (RANSAC) and how many
    do, or (None, 0)."""
    if len(src) < least:
        return None, 0
    h, inliers = cv2.findHomography(src.reshape(-1, 2), dst.reshape(-1, 2), cv2.RANSAC, 2.0)
    if h is None or inliers.sum() < least:
        return None, 0
    return h, int(inliers.sum())


class SteadyReader:
    """Reads frames through a calibration that follows the field (a FieldWatch): after a bump
    it reads through the corners found again, and while the field is not seen, lost or seems
    to have moved `read` raises ValueError instead of reading through stale corners. Moved corners
    are taken only when the checkers read through them agree with the last board read (a
    frame with no hand) at least as well as through the corners in use: a bump moves the
    picture, never the checkers. `on_change` hears each Change taken; `checker_reader` as
    for `Reader`."""

    def __init__(self, cal: Calibration, on_change: Callable[[Change], None] | None = None,
                 checker_reader: str = "net") -> None:
        self.watch = FieldWatch(cal)
        self.reader = Reader(cal, checker_reader)
        self.checkers = checker_reader
        self.on_change = on_change or (lambda change: None)
        self.last: dict | None = None  # the last Observation read with no hand

    @property
    def cal(self) -> Calibration:
        """The calibration it reads through now."""
        return self.reader.cal

    def read(self, image: np.ndarray) -> dict:
        """The Observation of one BGR frame, read where the field is now."""
        check_image(image, self.reader.cal)
        before = self.watch.corners
        change = self.watch.update(image)
        obs = None
        if change is not None and change.calibration is not None:
            reader = Reader(change.calibration, self.checkers)
            obs = reader.read(image)
            if self._worse(obs, image):
                self.watch.keep(before)
                change, obs = None, None
            else:
                self.reader = reader
        if change is not None:
            self.on_change(change)
        if self.watch.lost:
            raise ValueError("the board is not where it was and has not been found again")
        if self.watch.misses:
            raise ValueError("the board is not seen in this frame")
        if self.watch.settling:
            raise ValueError("the board seems to have moved: waiting for it to settle")
        obs = obs or self.reader.read(image)
        if not obs.get("hand"):
            self.last = obs
        return obs

    def _worse(self, moved: dict, image: np.ndarray) -> bool:
        """Whether `moved`, read through moved corners, agrees with the last board read less
        than the frame read through the corners in use does (judged on frames with no hand)."""
        if self.last is None or self.watch.lost or moved.get("hand"):
            return False
        kept = self.reader.read(image)
        return not kept.get("hand") and agreement(moved, self.last) < agreement(kept, self.last)

    def learn(self, image: np.ndarray, points, on_bar: int) -> Calibration | None:
        """A frame whose position the player confirmed, read where the field is now: the
        reader takes its bare rows as the board's look (`Reader.learn`); None while the field
        is lost or when the frame cannot teach it."""
        if self.watch.lost:
            return None
        return self.reader.learn(image, points, on_bar)


def agreement(a: dict, b: dict) -> int:
    """How many of the 24 points and the two bars two Observations read alike."""
    return sum(x == y for x, y in zip(a["points"], b["points"], strict=True)) + \
        sum(a["bar"][c] == b["bar"][c] for c in ("white", "black"))


def describe(change: Change) -> str:
    """A Change in words, for the console and the web page."""
    if change.calibration is None:
        return "not where it was and not found again: not read until it is"
    if change.shift == 0:
        return "back where it was calibrated"
    return f"moved {change.shift:.0f} px: corners found again"
