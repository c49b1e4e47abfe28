"""Setting the field's corners by hand on a frame (the web page's calibrate view), and the
steps `bgboard calibrate` shares with it: the first guess of the corners, the learning step,
the line that says what was written.

A `Desk` holds the frame source, the calibration being set and the file it goes to; the web
view asks it for the frame, a preview (the point grid and what the reader reads through
given corners) and to save. Each saved calibration is also put on `saved`, for whoever waits
for it (`bgboard calibrate --web` to exit, `bgboard play` to read through it).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..calibration.file import CORNERS, Calibration, save
from ..calibration.geometry import FieldGeometry

INSET = 0.1  # the default guess: the image's rectangle inset by this share on each side


def inset_corners(size: tuple[int, int]) -> dict[str, tuple[float, float]]:
    """The corners guessed when the field is not found: the image inset by INSET, White's
    edge at the bottom with White's 1-point on the right (the camera on White's side)."""
    w, h = size
    left, right, top, bottom = INSET * w, (1 - INSET) * w, INSET * h, (1 - INSET) * h
    return {"p1": (right, bottom), "p12": (left, bottom), "p13": (left, top),
            "p24": (right, top)}


def found_corners(image: np.ndarray, geometry: FieldGeometry) -> dict:
    """The field's corners found in a start-position frame, named as the checker reader reads
    the start position (nearest it, within `NEAR_START` checkers, so a point or two misread
    still names the corners); ValueError saying why not."""
    from ..vision.corners import field_namings
    from ..vision.read import Reader
    from .photo import NEAR_START, from_start

    try:
        namings = field_namings(image)
    except ValueError as exc:
        raise ValueError("cannot find the field") from exc
    size = (image.shape[1], image.shape[0])
    cals = [Calibration(size, named, geometry) for named in namings]
    apart = [from_start(Reader(cal).read(image)) for cal in cals]
    if min(apart) > NEAR_START:
        raise ValueError("the start position is not on the board (cannot tell the corners apart)")
    return dict(cals[int(np.argmin(apart))].corners_px)


def first_corners(image: np.ndarray, geometry: FieldGeometry) -> tuple[dict, str]:
    """The corners to start dragging from, found where possible, else the default guess; and
    how they were had."""
    try:
        return found_corners(image, geometry), "the field was found"
    except ValueError as exc:
        return inset_corners((image.shape[1], image.shape[0])), \
            f"{exc}: drag each corner onto the field's corner"


def learned(image: np.ndarray, cal: Calibration) -> tuple[Calibration, str]:
    """`cal` with the colours and sizes learned from the start-position frame `image`, and a
    note ("" when learned) saying why they could not be and what the reader does without them
    (on many real boards the colours cannot be learned, yet the start position reads right)."""
    from ..vision.learn import learn

    try:
        return learn(image, cal), ""
    except ValueError as exc:
        return cal, (f"colours not learned ({exc}): White is taken to be the lighter set and "
                     "hands are seen by the frame band alone")


ADAPT_FROM = 20  # points of 24 the start frame must read right to adapt the reader to it


def start_check(image: np.ndarray, cal: Calibration) -> tuple[Calibration, str]:
    """Reads `image` as the start position through `cal`, and says how many of the 24 points
    read right: tells a user at once whether the corners and the camera's place are right.
    When it reads mostly right (ADAPT_FROM points or more), the checker reader is adapted to
    this board first (`vision.columns.adapted`: the frame's bare points, kept beside the
    calibration); the points right are then those after adapting, with the count before."""
    from ..engine.board import START_POINTS
    from ..vision.columns import adapted

    before = wrong = start_wrong(image, cal)
    if 24 - len(wrong) >= ADAPT_FROM:
        cal = adapted(image, cal, [*START_POINTS, 0, 0])
        wrong = start_wrong(image, cal)
    line = f"the start position read through these corners: {24 - len(wrong)} of 24 points right"
    if len(before) != len(wrong):
        line += f" ({24 - len(before)} before adapting the reader to this board)"
    if wrong:
        line += (f" (not {', '.join(map(str, wrong))}: check the corners, that the camera sees "
                 "the whole field and that the checkers stand as at the start)")
    return cal, line


def start_wrong(image: np.ndarray, cal: Calibration) -> list[int]:
    """The points (1-based) not read as in the start position through `cal`."""
    from ..engine.board import START_POINTS
    from ..vision.read import Reader

    points = Reader(cal).read(image)["points"]
    return [p for p, (a, b) in enumerate(zip(points, START_POINTS, strict=True), 1) if a != b]


def written(cal: Calibration, path: Path) -> str:
    """The line that says where the calibration went and its corners."""
    return f"wrote {path}: corners " + " ".join(
        f"{k} {round(x)},{round(y)}" for k, (x, y) in cal.corners_px.items())


class Desk:
    """The calibration being set by hand on the frames of `frame()` (BGR, None before the
    first), to be written to `out`. It starts from `calibration` (its geometry and further
    keys are kept; its corners too while the frames are of its size). `lock` is held while
    reading, as whoever else reads with the shared checker net must (it is not thread-safe)."""

    def __init__(self, frame: Callable[[], np.ndarray | None], out: Path,
                 calibration: Calibration, *, learn: bool = True, live: bool = False,
                 note: str = "", lock: threading.Lock | None = None) -> None:
        self.frame = frame
        self.out = Path(out)
        self.calibration = calibration
        self.learn = learn
        self.live = live
        self.note = note
        self.lock = lock or threading.Lock()
        self.saved: queue.Queue[Calibration] = queue.Queue()
        self.check = ""  # what the last save read of the start position ("" without learning)

    def raw(self) -> np.ndarray:
        """The latest frame as it came; LookupError before the first."""
        raw = self.frame()
        if raw is None:
            raise LookupError("no camera picture yet")
        return raw

    def image(self, raw: np.ndarray) -> np.ndarray:
        """The frame as the corners are set on it: undistorted with the calibration's
        intrinsics, when it has them."""
        from ..calibration.intrinsics import Undistorter

        intrinsics = self.calibration.extra.get("intrinsics")
        return Undistorter(intrinsics, size_of(raw))(raw) if intrinsics else raw

    def state(self, size: tuple[int, int]) -> dict:
        """What the page starts from on a frame of `size`."""
        cal = self.calibration
        corners = cal.corners_px if tuple(cal.image_size) == size else inset_corners(size)
        return {"image_size": list(size), "out": str(self.out), "live": self.live,
                "note": self.note,
                "corners_px": {k: [round(float(v), 2) for v in corners[k]] for k in CORNERS}}

    def parse(self, body, size: tuple[int, int]) -> Calibration:
        """The calibration with the corners of a request body ({"corners_px": {"p1": [x, y],
        ...}}) on a frame of `size`; ValueError with a one-line reason when they are not four
        points inside the image making a field."""
        corners = body.get("corners_px") if isinstance(body, dict) else None
        if not isinstance(corners, dict) or sorted(corners) != sorted(CORNERS):
            raise ValueError("send the four corners: "
                             '{"corners_px": {"p1": [x, y], "p12": ..., "p13": ..., "p24": ...}}')
        w, h = size
        parsed = {}
        for key in CORNERS:
            xy = corners[key]
            if not (isinstance(xy, list) and len(xy) == 2 and all(
                    isinstance(v, int | float) and not isinstance(v, bool) for v in xy)):
                raise ValueError(f"corner {key} {xy!r} is not [x, y]")
            if not (0 <= xy[0] <= w and 0 <= xy[1] <= h):
                raise ValueError(f"corner {key} [{xy[0]:g}, {xy[1]:g}] is outside the "
                                 f"{w}x{h} image")
            parsed[key] = (float(xy[0]), float(xy[1]))
        return Calibration(size, parsed, self.calibration.geometry, self.calibration.extra)

    def preview(self, body) -> dict:
        """The point grid through the corners of `body` and what the reader reads through
        them in the latest frame."""
        from ..vision.read import Reader

        raw = self.raw()
        cal = self.parse(body, size_of(raw))
        with self.lock:
            obs = Reader(cal).read(raw)
        return {"image_size": list(cal.image_size), "grid": grid(cal), "points": obs["points"],
                "bar": obs["bar"]}

    def save(self, body) -> str:
        """The corners of `body` on the latest frame, learned on it (unless told not to),
        written to the file, the start position read through them (`check`), and handed to
        `saved`; the words for the user."""
        raw = self.raw()
        image = self.image(raw)
        cal = self.parse(body, size_of(raw))
        note = self.check = ""
        if self.learn:  # the frame is taken for the start position
            cal, note = learned(image, cal)
            with self.lock:
                cal, self.check = start_check(image, cal)
        save(cal, self.out)
        self.calibration = cal
        self.saved.put(cal)
        return "; ".join(line for line in (written(cal, self.out), note, self.check) if line)


def size_of(image: np.ndarray) -> tuple[int, int]:
    return image.shape[1], image.shape[0]


def grid(cal: Calibration) -> dict:
    """The field's outline, the bar and each point's triangle (left base, right base, tip;
    points 1..24) in image pixels, rounded to 0.01."""
    geo = cal.geometry

    def px(field_xy) -> list[list[float]]:
        return [[round(float(x), 2), round(float(y), 2)] for x, y in cal.field_to_px(field_xy)]

    left, right = geo.bar_x
    return {"field": px([(0, 0), (1, 0), (1, 1), (0, 1)]),
            "bar": px([(left, 0), (right, 0), (right, 1), (left, 1)]),
            "points": [px(geo.triangle(p)) for p in range(1, 25)]}
