"""`bgboard calibrate SOURCE --out CAL.json`: find the field, learn the board, write the file.

SOURCE is a photo, a video, a folder of frames or a camera (its first good frame is used) with
the checkers in the start position. The field is found automatically where possible; otherwise
give the four corners (`--corners`, in the order p1 p12 p13 p24) or click them (`--click`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import example


def register(subparsers) -> None:
    p = subparsers.add_parser("calibrate", help="find the board in a start-position frame and "
                                                "write a calibration file",
                       epilog=example("bgboard calibrate start.jpg --out cal.json"))
    p.add_argument("source", metavar="SOURCE",
                   help="photo, video, folder, camera index or picamera")
    p.add_argument("--out", required=True, type=Path, metavar="CAL.json",
                   help="calibration file to write")
    p.add_argument("--corners", metavar="X,Y", nargs=4, help="corners p1 p12 p13 p24 in pixels")
    p.add_argument("--click", action="store_true", help="click the four corners in a window")
    p.add_argument("--bar-width", type=float, default=0.07,
                   help="bar width as a share of the field width (default 0.07)")
    p.add_argument("--point-depth", type=float, default=0.42,
                   help="triangle length as a share of the field height (default 0.42)")
    p.add_argument("--no-learn", action="store_true", help="do not learn colours and sizes")
    p.add_argument("--chessboard", metavar="DIR", type=Path,
                   help="folder of chessboard photos for lens intrinsics")
    p.add_argument("--pattern", default="9x6", help="chessboard inner corners, COLSxROWS")
    p.set_defaults(run=run)


def first_frame(spec: str):
    """The first readable frame of a source."""
    from ...vision.sources import IMAGE_SUFFIXES, open_source

    if Path(spec).suffix.lower() in IMAGE_SUFFIXES:
        from .read import load_image

        return load_image(Path(spec))
    for frame in open_source(spec).frames():
        if frame.image is not None:
            return frame.image
        if frame.index > 100:
            break
    raise ValueError(f"{spec}: no readable frame")


def parse_corners(texts: list[str]) -> dict:
    corners = {}
    for key, text in zip(("p1", "p12", "p13", "p24"), texts, strict=True):
        try:
            x, y = (float(v) for v in text.split(","))
        except ValueError:
            raise ValueError(f"--corners {text!r} is not X,Y") from None
        corners[key] = (x, y)
    return corners


def click_corners(image) -> dict:
    """The four corners clicked by the user in an OpenCV window, in the order p1 p12 p13 p24."""
    import cv2

    points: list[tuple[float, float]] = []
    title = "click p1, p12, p13, p24 (the field corners at White's 1, 12, 13, 24 points)"
    try:
        cv2.namedWindow(title)
    except cv2.error:
        raise ValueError("this OpenCV has no window support; give --corners instead") from None
    cv2.setMouseCallback(title, lambda ev, x, y, *_: ev == cv2.EVENT_LBUTTONDOWN
                         and points.append((float(x), float(y))))
    while len(points) < 4:
        shown = image.copy()
        for x, y in points:
            cv2.circle(shown, (round(x), round(y)), 6, (0, 0, 255), 2)
        cv2.imshow(title, shown)
        if cv2.waitKey(30) == 27:
            raise ValueError("calibration cancelled")
    cv2.destroyWindow(title)
    return dict(zip(("p1", "p12", "p13", "p24"), points, strict=True))


def run(args) -> int:
    from ...calibration.file import Calibration, save
    from ...calibration.geometry import FieldGeometry
    from ...calibration.intrinsics import Undistorter, from_chessboards
    from ...vision.corners import find_field, orient
    from ...vision.learn import learn
    from ...vision.sources import FolderSource

    geometry = FieldGeometry(args.bar_width, args.point_depth)
    image = first_frame(args.source)
    size = (image.shape[1], image.shape[0])
    extra = {}
    if args.chessboard:
        cols, _, rows = args.pattern.partition("x")
        if not (cols.isdigit() and rows.isdigit()):
            raise ValueError(f"--pattern {args.pattern!r} is not COLSxROWS")
        photos = [f.image for f in FolderSource(args.chessboard).frames() if f.image is not None]
        extra["intrinsics"] = from_chessboards(photos, (int(cols), int(rows)))
        image = Undistorter(extra["intrinsics"], size)(image)
    if args.corners or args.click:
        corners = parse_corners(args.corners) if args.corners else click_corners(image)
        cal = Calibration(size, corners, geometry, extra)
    else:
        found = find_field(image)
        if found is None:
            raise ValueError(f"{args.source}: cannot find the field; give --corners or --click")
        cal = orient(image, found, geometry)
        cal = Calibration(size, cal.corners_px, geometry, extra)
    if not args.no_learn:
        try:
            cal = learn(image, cal)
        except ValueError as exc:
            print(f"bgboard calibrate: note: colours not learned ({exc})", file=sys.stderr)
    save(cal, args.out)
    print(f"wrote {args.out}: corners " + " ".join(
        f"{k} {round(x)},{round(y)}" for k, (x, y) in cal.corners_px.items()))
    return 0
