"""`bgboard read IMAGE... [--calibration CAL] [--json] [--overlay OUT.png]`: photos -> Observations.

Without `--calibration` the field is found in each photo and its corners named from the
position or the user's word (controller.photo); the Observation then carries `corners_px`,
and `other_readings` when the naming is not certain. A legal reading gets its `xgid` and
`position_id` with `--on-roll` to play. With several images, each JSON line gets an added
"image"; an unreadable image is reported in its own line and makes the exit code 2 once all
the others are read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ...engine.board import START_POINTS
from ..photo import HOMES, WHITES, PhotoReading, position_ids, put_on_bar, read_photo
from . import example


def register(subparsers) -> None:
    p = subparsers.add_parser("read", help="read checkers, dice and hands from board photos",
                              epilog=example("bgboard read frame.jpg --calibration cal.json"))
    p.add_argument("images", nargs="+", metavar="IMAGE", type=Path, help="photos of the board")
    p.add_argument("--calibration", type=Path, metavar="CAL",
                   help="calibration file written by bgboard calibrate (default: find the "
                        "board in each photo)")
    p.add_argument("--home", choices=HOMES,
                   help="without --calibration: the photo is taken from White's seat and "
                        "White's home board is on this side")
    p.add_argument("--white", choices=WHITES,
                   help="without --calibration: the photo is taken from White's seat and "
                        "White plays these checkers (default: White is light, seat unknown)")
    p.add_argument("--on-roll", choices=("white", "black"), default="white",
                   help="the player on roll in the XGID and Position ID (default white)")
    p.add_argument("--cube", type=int, metavar="N",
                   help="the cube's value for the XGID (default 1, said on stderr: the cube "
                        "is not read from the photo)")
    p.add_argument("--cube-owner", choices=("white", "black"),
                   help="who owns the cube (default: in the middle)")
    p.add_argument("--bar-white", type=int, default=0, metavar="N",
                   help="White checkers on the bar out of the photo (counted off otherwise)")
    p.add_argument("--bar-black", type=int, default=0, metavar="N",
                   help="Black checkers on the bar out of the photo (counted off otherwise)")
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
    lines = [f"points {obs['points']}",
             f"bar white {obs['bar']['white']} black {obs['bar']['black']}"
             f"  off white {obs['off']['white']} black {obs['off']['black']}",
             f"dice {dice or '-'}  hand {'yes' if obs['hand'] else 'no'}"
             f"  confidence {obs['confidence']:.2f}"]
    if "corners_px" in obs:
        lines.append("corners " + "  ".join(f"{k} {x:.0f},{y:.0f}"
                                            for k, (x, y) in obs["corners_px"].items()))
    if "xgid" in obs:
        lines.append(f"{obs['xgid']}  Position ID {obs['position_id']}")
    if "other_readings" in obs:
        lines.append(f"orientation not certain: {len(obs['other_readings'])} other namings "
                     "of the corners fit (--json lists them; say --home and --white)")
    return "\n".join(lines)


def check_options(args) -> None:
    """ValueError naming an option that cannot hold."""
    if args.calibration and (args.home or args.white):
        raise ValueError("--home and --white name the corners of a board found in the photo: "
                         "not with --calibration")
    if args.cube is not None and (args.cube < 1 or args.cube & (args.cube - 1)
                                  or args.cube > 1024):
        raise ValueError(f"--cube {args.cube}: a cube is 1, 2, 4, ... 1024")
    if args.cube_owner and (args.cube or 1) == 1:
        raise ValueError("--cube-owner: a cube of 1 is in the middle (give --cube 2 or more)")
    if min(args.bar_white, args.bar_black) < 0:
        raise ValueError("--bar-white and --bar-black count checkers: 0 or more")


def with_ids(obs: dict, args) -> dict:
    """The reading with the unseen checkers put on the bar as told, and its IDs."""
    obs = put_on_bar(obs, args.bar_white, args.bar_black)
    return {**obs, **position_ids(obs, args.on_roll, args.cube or 1, args.cube_owner)}


def observe(image, reader, args) -> dict:
    """The Observation of one photo, with the IDs, corners and other readings it has."""
    if reader:
        return with_ids(reader.read(image), args)
    found: PhotoReading = read_photo(image, args.checkers, args.home, args.white)
    best, *others = (with_ids(r, args) for r in found.readings)
    keys = ("points", "bar", "off", "corners_px", "xgid", "position_id")
    return {**best, "orientation": found.told_by,
            **({"other_readings": [{k: r[k] for k in keys if k in r} for r in others]}
               if others else {})}


def notes(path: Path, obs: dict, args) -> list[str]:
    """Lines saying what an XGID took without being told and the photo cannot tell: where
    checkers it does not show went (counted as borne off), and the cube (at 1 in the middle:
    it is not read from the photo; said only past the start position, where it can have been
    turned)."""
    out = []
    unseen = [f"{n} {colour}" for colour, n in obs["off"].items() if n]
    if unseen and not (args.bar_white or args.bar_black):
        out.append(f"bgboard read: {path}: {' and '.join(unseen)} checkers are not on the "
                   "field: counted as borne off (say --bar-white/--bar-black N if on the bar "
                   "out of view)")
    if args.cube is None and tuple(obs["points"]) != START_POINTS:
        out.append(f"bgboard read: {path}: the cube is not read from the photo: the XGID has "
                   "it at 1 in the middle (say --cube N and --cube-owner white|black)")
    return out


def run(args) -> int:
    from ...calibration.file import load
    from ...vision.read import Reader

    check_options(args)
    if args.overlay and len(args.images) > 1:
        raise ValueError("--overlay takes a single IMAGE")
    reader = Reader(load(args.calibration), args.checkers) if args.calibration else None
    batch = len(args.images) > 1
    status = 0
    for path in args.images:
        try:
            obs = observe(load_image(path), reader, args)
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
        for note in notes(path, obs, args) if "xgid" in obs else ():
            print(note, file=sys.stderr)
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
