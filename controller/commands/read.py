"""`bgboard read IMAGE... --calibration CAL [--json] [--overlay OUT.png]`: photos -> Observations.

With several images, each JSON line gets an added "image"; an unreadable image is reported in
its own line and makes the exit code 2 once all the others are read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import example


def register(subparsers) -> None:
    p = subparsers.add_parser("read", help="read checkers, dice and hands from board photos",
                              epilog=example("bgboard read frame.jpg --calibration cal.json"))
    p.add_argument("images", nargs="+", metavar="IMAGE", type=Path, help="photos of the board")
    p.add_argument("--calibration", required=True, type=Path, metavar="CAL",
                   help="calibration file written by bgboard calibrate")
    p.add_argument("--checkers", choices=("net", "colour"), default="net",
                   help="checker reader: the learned column net that reads checkers by their "
                        "shape and adds point_options (default), or the older reader of the "
                        "colours learned at calibration")
    p.add_argument("--json", action="store_true", help="one JSON Observation per image")
    p.add_argument("--overlay", type=Path, metavar="OUT.png",
                   help="write the photo beside a diagram of what was read (one image only)")
    p.set_defaults(run=run)


def load_image(path: Path):
    """The image at `path`, or ValueError naming the file."""
    import cv2

    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ValueError(f"{path}: not a readable image")
    return image


def text(obs: dict) -> str:
    """A short human-readable Observation."""
    dice = ", ".join(f"{d['value']}{' (cocked)' if d['cocked'] else ''}" for d in obs["dice"])
    return (f"points {obs['points']}\nbar white {obs['bar']['white']} black {obs['bar']['black']}"
            f"  off white {obs['off']['white']} black {obs['off']['black']}\n"
            f"dice {dice or '-'}  hand {'yes' if obs['hand'] else 'no'}"
            f"  confidence {obs['confidence']:.2f}")


def run(args) -> int:
    from ...calibration.file import load
    from ...vision.read import Reader

    if args.overlay and len(args.images) > 1:
        raise ValueError("--overlay takes a single IMAGE")
    reader = Reader(load(args.calibration), args.checkers)
    batch = len(args.images) > 1
    status = 0
    for path in args.images:
        try:
            obs = reader.read(load_image(path))
        except ValueError as exc:
            if not batch:
                raise
            status = 2
            print(json.dumps({"image": str(path), "error": str(exc)}) if args.json
                  else f"{path}: error: {exc}", flush=True)
            continue
        if args.overlay:
            write_overlay(load_image(path), obs, args.overlay)
        if args.json:
            print(json.dumps({"image": str(path), **obs} if batch else obs), flush=True)
        else:
            print(f"{path}:\n{text(obs)}" if batch else text(obs), flush=True)
    if status:
        print("bgboard read: error: some images could not be read", file=sys.stderr)
    return status


def write_overlay(image, obs: dict, out: Path) -> None:
    """The photo and the diagram of the Observation side by side, same height."""
    import cv2
    import numpy as np

    from ...vision.diagram import render_diagram

    h = 600
    photo = cv2.resize(image, (round(image.shape[1] * h / image.shape[0]), h))
    diagram = render_diagram(obs["points"], obs["bar"], obs["off"], width=960, height=h)
    if not cv2.imwrite(str(out), np.hstack([photo, diagram])):
        raise OSError(f"cannot write {out}")
