"""The calibration file of DESIGN.md: the field's four corners in the image plus its geometry.

Only `version`, `image_size` and `corners_px` are required; `geometry` has defaults and any
other keys (learned colours, camera intrinsics, the camera's settings) are kept as they are in
`extra`; `camera` is checked when the file is read. The optional `board` key names a PNG beside
the file: what the field's rows look like bare on the user's own board (`BoardLook`), cut from
the start frame at calibration, and the two sets' colours there; a file without it, or whose
PNG is gone, reads unadapted.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .camera import CameraSettings, camera_from_dict
from .geometry import FieldGeometry

CORNERS = ("p1", "p12", "p13", "p24")
FIELD_CORNERS = {"p1": (0.0, 0.0), "p12": (1.0, 0.0), "p13": (1.0, 1.0), "p24": (0.0, 1.0)}
KNOWN = {"version", "image_size", "corners_px", "geometry", "board"}
ROWS = 26  # the field's rows in a BoardLook: points 1..24, bar_low, bar_high


@dataclass(frozen=True, eq=False)
class BoardLook:
    """What each of the field's 26 rows looks like bare on the user's own board (uint8 BGR
    patches, (26, H, W, 3), as `vision.columns` cuts them), cut through `corners_px` from the
    start-position frame at calibration: the checker reader compares each row with it. `sets`:
    White's and Black's checker colours (Lab, OpenCV's 8-bit scale) in that frame, which tell
    the reader which set a colour is (None: not known)."""

    corners_px: dict[str, tuple[float, float]]
    patches: np.ndarray
    sets: tuple[tuple[float, ...], tuple[float, ...]] | None = None


@dataclass(frozen=True)
class Calibration:
    """Where the field lies in the camera image."""

    image_size: tuple[int, int]
    corners_px: dict[str, tuple[float, float]]
    geometry: FieldGeometry = FieldGeometry()
    extra: dict = field(default_factory=dict)
    board: BoardLook | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_corners(self.corners_px, self.image_size)

    def homography(self) -> np.ndarray:
        """3x3 matrix taking field coordinates (0..1, 0..1) to image pixels."""
        return field_homography(self.corners_px)

    def field_to_px(self, xy) -> np.ndarray:
        """Image pixels of field points (N x 2)."""
        pts = np.asarray(xy, np.float64).reshape(-1, 2)
        h = self.homography() @ np.c_[pts, np.ones(len(pts))].T
        return (h[:2] / h[2]).T

    def px_to_field(self, xy) -> np.ndarray:
        """Field coordinates of image pixels (N x 2)."""
        pts = np.asarray(xy, np.float64).reshape(-1, 2)
        h = np.linalg.inv(self.homography()) @ np.c_[pts, np.ones(len(pts))].T
        return (h[:2] / h[2]).T

    def aspect(self) -> float:
        """Field width / height as seen: mean long-side over mean short-side length in pixels."""
        return seen_aspect(self.corners_px)

    def board_patches(self) -> np.ndarray | None:
        """The bare look of the user's board (`BoardLook.patches`) when it was cut through
        these very corners; None when there is none or the corners have moved since (a bumped
        camera, corners set again): then it no longer shows the rows where they are."""
        board = self._board_here()
        return None if board is None else board.patches

    def board_sets(self) -> tuple | None:
        """White's and Black's checker colours kept with the board's look (`BoardLook.sets`),
        under the same rule as `board_patches`."""
        board = self._board_here()
        return None if board is None else board.sets

    def _board_here(self) -> BoardLook | None:
        """The board's look when it was cut through these very corners, else None."""
        if self.board is None:
            return None
        moved = max(abs(a - b) for k in CORNERS
                    for a, b in zip(self.board.corners_px[k], self.corners_px[k], strict=True))
        return self.board if moved < 0.01 else None

    def camera(self) -> CameraSettings | None:
        """The settings to open the camera with, at this calibration's image size; None when
        the file has none (the camera is then opened as it comes)."""
        data = self.extra.get("camera")
        return None if data is None else camera_from_dict(data, self.image_size)

    def to_dict(self) -> dict:
        data = {
            "version": 1,
            "image_size": list(self.image_size),
            "corners_px": {k: [round(float(v), 2) for v in self.corners_px[k]] for k in CORNERS},
            "geometry": {"bar_width": self.geometry.bar_width,
                         "point_depth": self.geometry.point_depth},
        }
        data.update(self.extra)
        return data


def from_dict(data, source: str = "calibration") -> Calibration:
    """The Calibration in `data`; ValueError naming `source` and the bad key otherwise."""
    try:
        return _parse(data)
    except (TypeError, KeyError, ValueError) as exc:
        raise ValueError(f"{source}: {_reason(exc)}") from None


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing key {exc.args[0]!r}"
    return str(exc)


def _parse(data) -> Calibration:
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if data.get("version") != 1:
        raise ValueError(f"version {data.get('version')!r} is not 1")
    size = data["image_size"]
    if not (isinstance(size, list) and len(size) == 2 and all(_int(v) and v > 0 for v in size)):
        raise ValueError(f"image_size {size!r} is not two positive integers")
    corners = data["corners_px"]
    if not isinstance(corners, dict):
        raise ValueError("corners_px is not an object")
    parsed = {}
    for key in CORNERS:
        xy = corners[key]
        if not (isinstance(xy, list) and len(xy) == 2 and all(_num(v) for v in xy)):
            raise ValueError(f"corners_px.{key} {xy!r} is not [x, y]")
        parsed[key] = (float(xy[0]), float(xy[1]))
    geo = data.get("geometry", {})
    if not isinstance(geo, dict):
        raise ValueError("geometry is not an object")
    unknown = set(geo) - {"bar_width", "point_depth"}
    if unknown:
        raise ValueError(f"geometry has unknown key {sorted(unknown)[0]!r}")
    if not all(_num(v) for v in geo.values()):
        raise ValueError("geometry values must be numbers")
    if "camera" in data:
        camera_from_dict(data["camera"])
    extra = {k: v for k, v in data.items() if k not in KNOWN}
    return Calibration((size[0], size[1]), parsed, FieldGeometry(**geo), extra)


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and np.isfinite(v)


def field_homography(corners: dict) -> np.ndarray:
    """3x3 matrix taking field coordinates (0..1, 0..1) to the image pixels of the field whose
    corners p1 p12 p13 p24 are `corners`."""
    import cv2

    src = np.float32([FIELD_CORNERS[k] for k in CORNERS])
    dst = np.float32([corners[k] for k in CORNERS])
    return cv2.getPerspectiveTransform(src, dst)


def seen_aspect(corners: dict) -> float:
    """Width / height of the field whose corners are `corners`, as seen: mean long-side over
    mean short-side length in pixels."""
    c = {k: np.asarray(v) for k, v in corners.items()}
    width = np.linalg.norm(c["p12"] - c["p1"]) + np.linalg.norm(c["p13"] - c["p24"])
    height = np.linalg.norm(c["p24"] - c["p1"]) + np.linalg.norm(c["p13"] - c["p12"])
    return float(width / height)


def _check_corners(corners: dict, size: tuple[int, int]) -> None:
    pts = np.array([corners[k] for k in CORNERS], np.float64)
    w, h = size
    for key, (x, y) in zip(CORNERS, pts, strict=True):
        if not (-0.5 * w <= x <= 1.5 * w and -0.5 * h <= y <= 1.5 * h):
            raise ValueError(f"corners_px.{key} [{x:g}, {y:g}] lies far outside the image")
    e = np.roll(pts, -1, axis=0) - pts
    f = np.roll(e, -1, axis=0)
    turns = e[:, 0] * f[:, 1] - e[:, 1] * f[:, 0]
    if not (np.all(turns > 0) or np.all(turns < 0)):
        raise ValueError("corners_px p1, p12, p13, p24 do not make a convex quadrilateral in order")
    import cv2

    if cv2.contourArea(pts.astype(np.float32)) < 0.01 * w * h:
        raise ValueError("corners_px enclose less than 1% of the image")


def load(path) -> Calibration:
    """Read and validate a calibration file, with the board look its `board` key names when
    that file can be read; ValueError (naming the file) if the calibration is bad."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise OSError(f"calibration file {path} does not exist") from None
    except IsADirectoryError:
        raise OSError(f"calibration file {path} is a folder, not a file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not valid JSON ({exc})") from None
    cal = from_dict(data, str(path))
    return replace(cal, board=_board(data.get("board"), path.parent))


def _board(key, folder: Path) -> BoardLook | None:
    """The BoardLook a `board` key names ({"file": PNG beside, "corners_px": ...}); None when
    the key, the file or its corners are missing or bad (the reader then reads unadapted)."""
    import cv2

    try:
        tiled = cv2.imread(str(folder / Path(key["file"]).name))
        corners = {k: (float(key["corners_px"][k][0]), float(key["corners_px"][k][1]))
                   for k in CORNERS}
    except (TypeError, KeyError, IndexError, ValueError):
        return None
    if tiled is None or tiled.shape[1] % ROWS:
        return None
    h, w = tiled.shape[0], tiled.shape[1] // ROWS
    return BoardLook(corners, np.ascontiguousarray(
        tiled.reshape(h, ROWS, w, 3).transpose(1, 0, 2, 3)), _sets(key.get("sets")))


def _sets(value) -> tuple | None:
    """The two set colours of a `board` key's "sets" (two Lab triples); None when missing or
    bad (the reader then tells the sets apart without them)."""
    try:
        sets = tuple(tuple(float(v) for v in colour) for colour in value)
    except (TypeError, ValueError):
        return None
    return sets if len(sets) == 2 and all(len(c) == 3 and np.isfinite(c).all() for c in sets) \
        else None


def board_file(path: Path) -> Path:
    """Where the board look of the calibration file `path` goes: beside it, `NAME.board.png`."""
    return path.with_name(path.stem + ".board.png")


def save(cal: Calibration, path) -> None:
    """Write the calibration as indented JSON, whole or not at all: a crash while writing
    leaves the file it replaces. Its board look, when it has one, goes beside it as a PNG (the
    rows side by side) named by the `board` key; a calibration without one removes that PNG
    (a new calibration, or corners moved since, reset what the reader learned of the board)."""
    import cv2

    path = Path(path)
    data = cal.to_dict()
    png = board_file(path)
    if cal.board_patches() is None:
        png.unlink(missing_ok=True)
    else:
        rows = cal.board.patches
        tiled = rows.transpose(1, 0, 2, 3).reshape(rows.shape[1], -1, 3)
        if not cv2.imwrite(str(png.with_name(png.name + ".tmp.png")), tiled):
            raise OSError(f"cannot write {png}")
        os.replace(png.with_name(png.name + ".tmp.png"), png)
        data["board"] = {"file": png.name, "corners_px": {
            k: [round(float(v), 2) for v in cal.board.corners_px[k]] for k in CORNERS}}
        if cal.board.sets is not None:
            data["board"]["sets"] = [[round(float(v), 1) for v in c] for c in cal.board.sets]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)
