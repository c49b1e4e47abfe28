"""Helps label the real board photos: box-derived counts per point and pictures to check by eye.

    python benchmarks/label_real_boards.py [--out DIR] [--copies] [NAME ...]

For each photo of benchmarks/data/real_boards.json that has corners (all, or the NAMEs given)
it prints the checker counts that the photo's YOLO boxes give when their centres are mapped
through the corners' homography, next to the labelled counts, and writes DIR/NAME.png: the
photo with the field's quadrilateral and point grid drawn on it, beside the warped field with
the grid, the point numbers, the box centres (blue light, red dark) and the labelled counts.
The boxes are only a first count: stacked checkers often have no box of their own, so every
label is checked by eye on these pictures.

With `--copies` it does the same for the photo's other copies (turned, sheared, cropped
versions of it): the chosen copy's corners are carried over by a homography fitted to SIFT
matches between the two copies, and printed with whether the field lies wholly inside the
copy. The label file's `copy_corners` are the carried corners of the copies whose field is
whole, each checked by eye on its picture.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from bgboard.calibration.file import Calibration, from_dict
from bgboard.calibration.geometry import FieldGeometry

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
PHOTOS = SHARED / "data" / "real-boards"
LABELS = Path(__file__).resolve().parent / "data" / "real_boards.json"
LIGHT, DARK = 4, 2  # YOLO classes of the photos' checkers (the folder's README)
WARP = (720, 480)  # width, height of the warped field picture
MIN_INLIERS = 15  # SIFT matches a homography between two copies must explain
CORNERS = ("p1", "p12", "p13", "p24")


def load_labels(path: Path = LABELS) -> list[dict]:
    """The labelled photos, one dict per distinct photo, in name order."""
    return json.loads(Path(path).read_text())["photos"]


def calibration(entry: dict) -> Calibration:
    """The minimal calibration of a labelled photo: only the keys users give (DESIGN.md)."""
    return from_dict({"version": 1, "image_size": entry["image_size"],
                      "corners_px": entry["corners_px"], "geometry": entry["geometry"]},
                     entry["name"])


def copy_entries(entry: dict) -> list[dict]:
    """The photo's label on each other copy that has corners (`copy_corners`): the same
    position, seen through that copy's corners."""
    return [{**entry, "copy": name, "corners_px": corners}
            for name, corners in entry.get("copy_corners", {}).items()]


def carry_corners(entry: dict, copy: str) -> tuple[dict | None, bool]:
    """The chosen copy's corners carried into another copy by a homography fitted (RANSAC) to
    SIFT matches between them, rounded to 0.1 px, and whether the field lies wholly inside
    that copy; (None, False) when too few matches agree."""
    sift = cv2.SIFT_create(4000)
    grey = [cv2.imread(str(PHOTOS / "images" / name), cv2.IMREAD_GRAYSCALE)
            for name in (entry["copy"], copy)]
    (ka, da), (kb, db) = (sift.detectAndCompute(g, None) for g in grey)
    pairs = [m for m, n in cv2.BFMatcher().knnMatch(da, db, k=2) if m.distance < 0.75 * n.distance]
    if len(pairs) < MIN_INLIERS:
        return None, False
    src = np.float32([ka[m.queryIdx].pt for m in pairs])
    dst = np.float32([kb[m.trainIdx].pt for m in pairs])
    h, mask = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
    if h is None or int(mask.sum()) < MIN_INLIERS:
        return None, False
    quad = np.float32([entry["corners_px"][k] for k in CORNERS]).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(quad, h).reshape(-1, 2)
    inside = bool(np.all((moved >= 0) & (moved <= grey[1].shape[::-1])))
    corners = {k: [round(float(v), 1) for v in xy] for k, xy in zip(CORNERS, moved, strict=True)}
    return corners, inside


def checker_centres(label_file: Path, size: tuple[int, int]) -> list[tuple[bool, float, float]]:
    """(light, x, y) in pixels for every checker box of one YOLO label file."""
    w, h = size
    found = []
    for line in label_file.read_text().splitlines():
        values = line.split()
        if len(values) == 5 and int(values[0]) in (LIGHT, DARK):
            cx, cy = float(values[1]) * w, float(values[2]) * h
            found.append((int(values[0]) == LIGHT, cx, cy))
    return found


def place(xy: tuple[float, float], geo: FieldGeometry) -> str | None:
    """Where a checker centred at field coordinates `xy` lies: "1".."24", "bar", or None off
    the field. Its point is the column its centre falls in, on the half (y < 0.5 or not)."""
    x, y = xy
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        return None
    left, right = geo.bar_x
    if left <= x <= right:
        return "bar"
    col = int(x / geo.column_width) if x < left else 6 + int((x - right) / geo.column_width)
    col = min(col, 11)
    return str(col + 1 if y < 0.5 else 24 - col)


def box_counts(entry: dict, label_file: Path) -> tuple[list[int], dict]:
    """Signed counts per point and the bar that the checker boxes of `label_file` give for the
    photo labelled by `entry` (light = White, positive)."""
    cal = calibration(entry)
    points, bar = [0] * 24, {"white": 0, "black": 0}
    centres = checker_centres(label_file, tuple(entry["image_size"]))
    if not centres:
        return points, bar
    field = cal.px_to_field([(x, y) for _, x, y in centres])
    for (light, _, _), xy in zip(centres, field, strict=True):
        where = place(tuple(xy), cal.geometry)
        if where == "bar":
            bar["white" if light else "black"] += 1
        elif where is not None:
            points[int(where) - 1] += 1 if light else -1
    return points, bar


def field_to_picture(xy: np.ndarray) -> np.ndarray:
    """Picture pixels of field points, drawn as GNU Backgammon draws the board: point 1 at the
    bottom right, 12 bottom left, 13 top left, 24 top right."""
    xy = np.asarray(xy, np.float64).reshape(-1, 2)
    return np.c_[(1.0 - xy[:, 0]) * WARP[0], (1.0 - xy[:, 1]) * WARP[1]]


def warp_field(image: np.ndarray, cal: Calibration) -> np.ndarray:
    """The field seen from above in the picture's frame (see `field_to_picture`)."""
    corners = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    src = cal.field_to_px(corners).astype(np.float32)
    dst = field_to_picture(corners).astype(np.float32)
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), WARP)


def grid_lines(geo: FieldGeometry) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Field-coordinate segments of the point grid: column borders, the bar's edges, the
    middle line and the tips' depth."""
    xs = [c * geo.column_width for c in range(7)]
    xs += [geo.bar_x[1] + c * geo.column_width for c in range(7)]
    lines = [((x, 0.0), (x, 1.0)) for x in xs]
    lines.append(((0.0, 0.5), (1.0, 0.5)))
    for y in (geo.point_depth, 1.0 - geo.point_depth):
        lines.append(((0.0, y), (1.0, y)))
    return lines


def point_label_xy(point: int, geo: FieldGeometry) -> tuple[float, float]:
    """Field coordinates where a point's number is written: near its base."""
    return geo.point_x(point), 0.04 if point <= 12 else 0.96


def draw_field(warped: np.ndarray, geo: FieldGeometry, texts: dict[int, tuple[str, tuple]],
               centres: list[tuple[bool, np.ndarray]] = ()) -> np.ndarray:
    """The warped field with the grid, point numbers and, per point, a text in a colour
    (`texts`: point -> (text, BGR)); `centres` are (light, field xy) marks of checker boxes."""
    out = warped.copy()
    for a, b in grid_lines(geo):
        pa, pb = field_to_picture([a, b]).astype(int)
        cv2.line(out, tuple(pa), tuple(pb), (0, 255, 255), 1)
    for point in range(1, 25):
        x, y = field_to_picture([point_label_xy(point, geo)])[0].astype(int)
        _text(out, str(point), (x - 8, y + 5), (0, 255, 255), 0.45)
        if point in texts:
            text, colour = texts[point]
            ty = y + (-30 if point <= 12 else 35)
            _text(out, text, (x - 14, ty), colour, 0.6)
    for light, xy in centres:
        px = field_to_picture([xy])[0].astype(int)
        cv2.circle(out, tuple(px), 4, (255, 160, 0) if light else (0, 0, 255), -1)
    return out


def _text(image: np.ndarray, text: str, org: tuple[int, int], colour, scale: float) -> None:
    """Text with a black outline, readable on any board."""
    cv2.putText(image, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(image, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def overlay(image: np.ndarray, cal: Calibration) -> np.ndarray:
    """The photo with the field's quadrilateral, its grid and the corner names drawn on it."""
    out = image.copy()
    for a, b in grid_lines(cal.geometry):
        pa, pb = cal.field_to_px([a, b]).astype(int)
        cv2.line(out, tuple(pa), tuple(pb), (0, 255, 255), 1)
    quad = np.array([cal.corners_px[k] for k in CORNERS], np.int32)
    cv2.polylines(out, [quad], True, (0, 255, 0), 1)
    for key, xy in cal.corners_px.items():
        _text(out, key, (int(xy[0]) + 4, int(xy[1]) - 4), (0, 255, 0), 0.5)
    return out


def picture(entry: dict) -> np.ndarray:
    """The checking picture of one labelled photo: overlay beside the warped field."""
    image = cv2.imread(str(PHOTOS / "images" / entry["copy"]))
    cal = calibration(entry)
    label_file = PHOTOS / "labels" / (Path(entry["copy"]).stem + ".txt")
    centres = checker_centres(label_file, tuple(entry["image_size"]))
    field = cal.px_to_field([(x, y) for _, x, y in centres]) if centres else []
    marks = [(light, xy) for (light, _, _), xy in zip(centres, field, strict=True)]
    texts = {p + 1: (f"{n:+d}" if n else "0", (255, 255, 255))
             for p, n in enumerate(entry.get("points") or [])}
    warped = draw_field(warp_field(image, cal), cal.geometry, texts, marks)
    left = overlay(image, cal)
    scale = WARP[1] / left.shape[0]
    left = cv2.resize(left, (round(left.shape[1] * scale), WARP[1]))
    return np.hstack([left, warped])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="photos to show (default: all with corners)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/real-labels"))
    parser.add_argument("--copies", action="store_true",
                        help="carry the corners into the other copies and show those")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for entry in load_labels():
        if entry.get("partial") or (args.names and entry["name"] not in args.names):
            continue
        if args.copies:
            show_copies(entry, args.out)
            continue
        label_file = PHOTOS / "labels" / (Path(entry["copy"]).stem + ".txt")
        points, bar = box_counts(entry, label_file)
        print(f"{entry['name']}\n  boxes  {points} bar {bar}\n  label  {entry.get('points')}"
              f" bar {entry.get('bar')}")
        cv2.imwrite(str(args.out / f"{entry['name']}.png"), picture(entry))
    return 0


def show_copies(entry: dict, out: Path) -> None:
    """Print the corners carried into each other copy; picture those whose field is whole."""
    for copy in entry["other_copies"]:
        corners, inside = carry_corners(entry, copy)
        print(f"{copy}\n  {json.dumps(corners)} {'whole' if inside else 'not whole'}")
        if corners and inside:
            cv2.imwrite(str(out / f"{Path(copy).stem}.png"),
                        picture({**entry, "copy": copy, "corners_px": corners}))


if __name__ == "__main__":
    raise SystemExit(main())
