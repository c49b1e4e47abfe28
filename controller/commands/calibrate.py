"""`bgboard calibrate SOURCE --out CAL.json`: find the field, learn the board, write the file.

SOURCE is a photo, a video, a folder of frames or a camera (its first good frame is used) with
the checkers in the start position. The field is found automatically where possible; otherwise
give the four corners (`--corners`, in the order p1 p12 p13 p24), drag them into place on a web
page (`--web`: any browser, the live frame of a camera) or click them (`--click`: needs OpenCV
with window support).

A camera is started automatic and read once it has settled; the exposure, gain and white
balance it settled on go into the file (`camera`), for every later opening of it to set
again, unless `--camera-auto` leaves them automatic.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ...calibration.camera import CameraSettings
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
    by_hand = p.add_mutually_exclusive_group()
    by_hand.add_argument("--web", action="store_true",
                         help="drag the corners into place on a page at http://127.0.0.1:PORT/"
                              "calibrate, then save there")
    by_hand.add_argument("--click", action="store_true",
                         help="click the four corners in a window")
    p.add_argument("--port", type=int, help="port of the --web page (default 8000)")
    p.add_argument("--bar-width", type=float, default=0.07,
                   help="bar width as a share of the field width (default 0.07)")
    p.add_argument("--point-depth", type=float, default=0.42,
                   help="triangle length as a share of the field height (default 0.42)")
    p.add_argument("--no-learn", action="store_true",
                   help="do not take the frame for the start position: learn no colours and "
                        "sizes, and do not adapt the reader to this board")
    p.add_argument("--camera-auto", action="store_true",
                   help="leave a camera's exposure, gain and white balance automatic (by "
                        "default they are locked at the values it settles on now)")
    p.add_argument("--chessboard", metavar="DIR", type=Path,
                   help="folder of chessboard photos for lens intrinsics")
    p.add_argument("--pattern", default="9x6", help="chessboard inner corners, COLSxROWS")
    p.set_defaults(run=run)


def first_frame(spec: str, auto: bool):
    """The first readable frame of a source and, for a camera, the settings to open it with
    (see camera_frame)."""
    from ...vision.sources import IMAGE_SUFFIXES, camera_kind, open_source

    kind = camera_kind(spec)
    if auto and kind is None:
        raise ValueError("--camera-auto is for a camera: a device number or picamera")
    if kind is not None:
        return camera_frame(spec, kind, auto)
    if Path(spec).suffix.lower() in IMAGE_SUFFIXES:
        from .read import load_image

        return load_image(Path(spec)), None
    for frame in open_source(spec).frames():
        if frame.image is not None:
            return frame.image, None
        if frame.index > 100:
            break
    raise ValueError(f"{spec}: no readable frame")


def camera_frame(spec: str, kind: str, auto: bool):
    """A camera's frame once it has settled, started automatic (a USB camera keeps what the
    last program set), and the settings it settled on; with `auto` automatic ones at its
    resolution."""
    from ...vision.sources import open_source, refused_note, settled

    source = open_source(spec, CameraSettings(kind))
    if source.refused:
        say_note(refused_note(spec, source.refused))
    try:
        image, settings = settled(source)
    except OSError as exc:
        raise OSError(f"camera {spec}: {exc}") from None
    return image, CameraSettings(kind, settings.size) if auto else settings


def say_note(text: str) -> None:
    """A note for the user (not a failure), on stderr."""
    print(f"bgboard calibrate: note: {text}", file=sys.stderr, flush=True)


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
    from ...vision.sources import FolderSource
    from ..calibrating import learned, start_check, written

    if args.port is not None and not args.web:
        raise ValueError("--port is the port of the --web page: give --web too")
    geometry = FieldGeometry(args.bar_width, args.point_depth)
    raw, camera = first_frame(args.source, args.camera_auto)
    size = (raw.shape[1], raw.shape[0])
    extra = {"camera": camera.to_dict()} if camera else {}
    if args.chessboard:
        cols, _, rows = args.pattern.partition("x")
        if not (cols.isdigit() and rows.isdigit()):
            raise ValueError(f"--pattern {args.pattern!r} is not COLSxROWS")
        photos = [f.image for f in FolderSource(args.chessboard).frames() if f.image is not None]
        extra["intrinsics"] = from_chessboards(photos, (int(cols), int(rows)))
    image = Undistorter(extra["intrinsics"], size)(raw) if "intrinsics" in extra else raw
    corners, note = start_corners(args, image, geometry)
    cal = Calibration(size, corners, geometry, extra)
    if args.web:
        return on_the_web(args, raw, cal, note)
    check = ""
    if not args.no_learn:  # the frame is taken for the start position
        cal, note = learned(image, cal)
        if note:
            say_note(note)
        cal, check = start_check(image, cal)
    save(cal, args.out)
    print(written(cal, args.out))
    if check:
        print(check)
    if camera:
        print(camera_line(args.source, camera))
    return 0


def camera_line(spec: str, camera: CameraSettings) -> str:
    """What the file says about the camera's settings."""
    locked = camera.locked()
    if not locked:
        return f"camera {spec}: exposure, gain and white balance left automatic"
    return f"camera {spec} settled at {locked}: set so whenever it is opened with this file"


def start_corners(args, image, geometry) -> tuple[dict, str]:
    """The corners given, clicked or found (with --web: else the default guess), and how they
    were had."""
    from ..calibrating import first_corners, found_corners

    if args.corners:
        return parse_corners(args.corners), "the corners given"
    if args.click:
        return click_corners(image), "the corners clicked"
    if args.web:
        return first_corners(image, geometry)
    try:
        return found_corners(image, geometry), "the field was found"
    except ValueError as exc:
        raise ValueError(f"{args.source}: {exc}; give --corners, or drag them into place with "
                         f"--web") from None


def on_the_web(args, first, cal, note: str) -> int:
    """Serve the calibrate page on the frames of SOURCE (the first, or a camera's latest)
    starting from `cal`; once the user saves there, say where and end."""
    from ..calibrating import Desk, written
    from ..frames import is_live

    try:
        from ..web import serve
    except ImportError as exc:
        raise ValueError("--web needs the web extra: pip install 'bgboard[web]'") from exc
    live = is_live(args.source)
    frames = latest_frames(args.source, first, cal.camera()) if live else lambda: first
    desk = Desk(frames, args.out, cal, learn=not args.no_learn, live=live, note=note)
    server = serve(None, port=8000 if args.port is None else args.port, desk=desk)
    print(f"calibrate on the page {server.url} ({note})", flush=True)
    try:
        saved = desk.saved.get()
    finally:
        server.stop()
    print(written(saved, args.out))
    if desk.check:
        print(desk.check)
    if saved.camera():
        print(camera_line(args.source, saved.camera()))
    return 0


def latest_frames(spec: str, first, camera: CameraSettings | None):
    """A function giving a live camera's latest frame (`first` until the next one), read by a
    background thread from the camera opened with the settings `camera`."""
    import threading

    from ..frames import camera_frames

    latest = [first]

    def follow() -> None:
        for _, image in camera_frames(spec, camera=camera, note=say_note):
            if image is not None:
                latest[0] = image

    threading.Thread(target=follow, name="bgboard-calibrate-camera", daemon=True).start()
    return lambda: latest[0]
