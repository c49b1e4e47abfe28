"""Keeping the calibration right when the camera or the board is bumped.

A `FieldWatch` keeps a reference frame, the last one that agreed with the corners, and its
corner features on the board: the field and a band around it, so that a bumped board is
followed as well as a bumped camera, and the table does not outvote the board. Each frame,
those features are followed into it by optical flow (Lucas-Kanade, kept only when followed
back they come home: a few milliseconds), and a homography fitted to them with RANSAC (moved
checkers, dice and hands fall out as outliers) says where the corners are now. When too few
follow (a jump too far for the flow), ORB features matched over the whole frame find the
board again. Corners that moved MOVED of a point's width or more make a new calibration; a
board found neither way is lost, and is not read until it is found again. The reference is
renewed when its features fade (checkers moved, a hand came) or the field moved, without
moving the corners while the field stays put, so small errors do not add up.
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
LEAST = 25  # the fewest features that agree on a homography for the field to count as found
AGREE = 0.2  # the share of the reference's features that must agree on it
RENEW = 0.6  # the reference is renewed when fewer than this share of its features agree
ROUND_TRIP = 1.0  # pixels: a feature followed there and back must come home this near
FLOW = {"winSize": (21, 21), "maxLevel": 3}


@dataclass(frozen=True)
class Change:
    """What a frame says of the field: `calibration` the corners found now (None: the field
    is lost), `shift` the furthest any corner is from the first calibration's, in pixels."""

    calibration: Calibration | None
    shift: float


@dataclass(frozen=True)
class Reference:
    """A frame the corners were right in: its grey picture (watched size), the corners there
    (watched size), the mask of the board there and its features to follow."""

    grey: np.ndarray
    corners: np.ndarray
    mask: np.ndarray
    points: np.ndarray | None

    @cached_property
    def orb(self) -> tuple:
        """Its ORB keys and descriptors on the board: found only when needed (to find the
        board again after a jump), not for every reference."""
        return orb_features(self.grey, self.mask)


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

    def update(self, image: np.ndarray) -> Change | None:
        """None while the field stays where it was; a Change when it moved, was lost, or was
        found again."""
        grey = cv2.cvtColor(cv2.resize(image, None, fx=self.k, fy=self.k,
                                       interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        if self.reference is None:
            self.reference = self._reference(grey, self.corners)
            return None
        h, share = self._follow(grey, np.eye(3))
        if h is None:
            h = self._match(grey)
            h, share = (None, 0.0) if h is None else self._follow(grey, h)
        if h is None:
            if self.lost:
                return None
            self.lost = True
            return Change(None, float("inf"))
        corners = cv2.perspectiveTransform(self.reference.corners[None].astype(np.float64),
                                           h)[0].astype(np.float32)
        steady = np.linalg.norm(corners - self.corners, axis=1).max() < MOVED * self.point
        if steady and not self.lost:
            if share < RENEW:
                self.reference = self._reference(grey, self.corners)
            return None
        self.lost = False
        if np.linalg.norm(corners - self.first, axis=1).max() < MOVED * self.point:
            corners = self.first  # back where it was calibrated
        self.corners = corners
        self.reference = self._reference(grey, corners)
        named = {c: (float(x) / self.k, float(y) / self.k)
                 for c, (x, y) in zip(CORNERS, corners, strict=True)}
        shift = float(np.linalg.norm(corners - self.first, axis=1).max()) / self.k
        return Change(replace(self.cal, corners_px=named), shift)

    def _reference(self, grey: np.ndarray, corners: np.ndarray) -> Reference:
        """A reference frame with the field at `corners`: its features on the board."""
        centre = corners.mean(0)
        board = centre + (corners - centre) * (1 + 2 * BAND)
        mask = np.zeros(grey.shape, np.uint8)
        cv2.fillConvexPoly(mask, board.round().astype(np.int32), 255)
        return Reference(grey, corners, mask, cv2.goodFeaturesToTrack(grey, 300, 0.01, 8,
                                                                      mask=mask))

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
    it reads through the corners found again, and while the field is lost `read` raises
    ValueError instead of reading through stale corners. `on_change` hears each Change."""

    def __init__(self, cal: Calibration,
                 on_change: Callable[[Change], None] | None = None) -> None:
        self.watch = FieldWatch(cal)
        self.reader = Reader(cal)
        self.on_change = on_change or (lambda change: None)

    @property
    def cal(self) -> Calibration:
        """The calibration it reads through now."""
        return self.reader.cal

    def read(self, image: np.ndarray) -> dict:
        """The Observation of one BGR frame, read where the field is now."""
        check_image(image, self.reader.cal)
        change = self.watch.update(image)
        if change is not None:
            if change.calibration is not None:
                self.reader = Reader(change.calibration)
            self.on_change(change)
        if self.watch.lost:
            raise ValueError("the board is not where it was and has not been found again")
        return self.reader.read(image)

    def learn(self, image: np.ndarray, points, on_bar: int) -> Calibration | None:
        """A frame whose position the player confirmed, read where the field is now: the
        reader takes its bare rows as the board's look (`Reader.learn`); None while the field
        is lost or when the frame cannot teach it."""
        if self.watch.lost:
            return None
        return self.reader.learn(image, points, on_bar)


def describe(change: Change) -> str:
    """A Change in words, for the console and the web page."""
    if change.calibration is None:
        return "not where it was and not found again: not read until it is"
    if change.shift == 0:
        return "back where it was calibrated"
    return f"moved {change.shift:.0f} px: corners found again"
