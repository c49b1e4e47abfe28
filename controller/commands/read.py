"""`bgboard read IMAGE... [--calibration CAL] [--json] [--overlay OUT.png]`: photos -> Observations.

Without `--calibration` the field is found in each photo and its corners named from the
position or the user's word (controller.photo); the Observation then carries `corners_px`,
`corners_sure` (controller.corners_sure; when false, `read` says so on stderr) and
`other_readings` when the naming is not certain. A legal reading gets its `xgid` and
`position_id` with `--on-roll` to play. With several images, each JSON line gets an added
"image"; an unreadable image is reported in its own line and makes the exit code 2 once all
the others are read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ...engine.board import START_POINTS
from ..corners_sure import evidence
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
    p.add_argument("--find-cube", action="store_true",
                   help="look for the doubling cube in the photo and take its value and owner "
                        "from it where it shows both (not yet reliable on real photos: see "
                        "docs/vision.md)")
    p.add_argument("--cube", type=int, metavar="N",
                   help="the cube's value for the XGID (default 1 in the middle, said on "
                        "stderr, or as --find-cube reads it)")
    p.add_argument("--cube-owner", choices=("white", "black"),
                   help="who owns the cube, with --cube (default: in the middle)")
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
    from ...vision.sources import read_image

    if path.is_dir():
        raise ValueError(f"{path}: a folder, not an image file")
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    image = read_image(path)
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
    if "cube" in obs:
        lines.append(cube_text(obs["cube"]))
    if "xgid" in obs:
        lines.append(f"{obs['xgid']}  Position ID {obs['position_id']}")
    if "other_readings" in obs:
        lines.append(f"orientation not certain: {len(obs['other_readings'])} other namings "
                     "of the corners fit (--json lists them; say --home and --white)")
    return "\n".join(lines)


def cube_text(cube: dict) -> str:
    """What the cube read from the photo tells, in words."""
    if cube["value"] == 1:
        return "cube in the middle (64 up)"
    whose = f"{cube['owner'].capitalize()}'s" if cube["owner"] else "whose: not told (middle)"
    return f"cube {cube['value']}, {whose}"


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
    return {**obs, **position_ids(obs, args.on_roll, *cube_for_ids(obs, args))}


def cube_for_ids(obs: dict, args) -> tuple[int, str | None]:
    """The cube's value and owner for the XGID: as told (--cube, --cube-owner), else as read
    from the photo where that tells both (64 up: 1 in the middle), else 1 in the middle."""
    if args.cube is not None:
        return args.cube, args.cube_owner
    seen = obs.get("cube")
    return (seen["value"], seen["owner"]) if tells_all(seen) else (1, None)


def tells_all(seen: dict | None) -> bool:
    """Whether a cube read from a photo tells both its value and its owner."""
    return bool(seen) and (seen["owner"] is not None or seen["value"] == 1)


def observe(image, reader, args) -> dict:
    """The Observation of one photo, with the cube, IDs, corners and other readings it has."""
    if reader:
        seen = reader.cube(image) if args.find_cube else None
        return with_ids({**reader.read(image), **({"cube": seen} if seen else {})}, args)
    found: PhotoReading = read_photo(image, args.checkers, args.home, args.white,
                                     cube=args.find_cube)
    best, *others = (with_ids(r, args) for r in found.readings)
    best = with_sure(best, evidence(image, found).sure())
    keys = ("points", "bar", "off", "corners_px", "cube", "xgid", "position_id")
    return {**best, "orientation": found.told_by,
            **({"other_readings": [{k: r[k] for k in keys if k in r} for r in others]}
               if others else {})}


def with_sure(obs: dict, sure: bool) -> dict:
    """The reading with `corners_sure` put right after its `corners_px`."""
    out = {}
    for key, value in obs.items():
        out[key] = value
        if key == "corners_px":
            out["corners_sure"] = sure
    return out


def notes(path: Path, obs: dict, args) -> list[str]:
    """Lines saying what an XGID took without being told and the photo cannot tell: where
    checkers it does not show went (counted as borne off), and the cube where it is not read
    (not asked, --find-cube, or not seen: at 1 in the middle; said only past the start
    position, where it can have been turned) or is seen turned in the middle of the board,
    whose side tells no owner."""
    out = []
    unseen = [f"{n} {colour}" for colour, n in obs["off"].items() if n]
    if unseen and not (args.bar_white or args.bar_black):
        out.append(f"bgboard read: {path}: {' and '.join(unseen)} checkers are not on the "
                   "field: counted as borne off (say --bar-white/--bar-black N if on the bar "
                   "out of view)")
    seen = obs.get("cube")
    if args.cube is not None or tells_all(seen):
        return out
    if seen:
        out.append(f"bgboard read: {path}: the cube shows {seen['value']} in the middle of the "
                   "board, so whose it is cannot be told: the XGID has it at 1 in the middle "
                   f"(say --cube {seen['value']} --cube-owner white|black)")
    elif tuple(obs["points"]) != START_POINTS:
        why, more = (("no cube seen in the photo", "") if args.find_cube
                     else ("the cube is not read from the photo", ", or --find-cube"))
        out.append(f"bgboard read: {path}: {why}: the XGID has it at 1 in the middle (say "
                   f"--cube N and --cube-owner white|black{more})")
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
        if obs.get("corners_sure") is False:
            print(f"bgboard read: {path}: the field's corners found may be more than a third "
                  "of a point off, and the position read wrong: check them (bgboard calibrate "
                  "--web or --corners)", file=sys.stderr)
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
