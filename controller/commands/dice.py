"""`bgboard dice IMAGE... [--json]`: every die in any photo, with its value and box."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import example


def register(subparsers) -> None:
    p = subparsers.add_parser("dice", help="find and read the dice in photos (no calibration)",
                              epilog=example("bgboard dice photo.jpg --json"))
    p.add_argument("images", nargs="+", metavar="IMAGE", type=Path, help="photos of dice")
    p.add_argument("--json", action="store_true", help="one JSON object per image")
    p.set_defaults(run=run)


def run(args) -> int:
    from ...vision.dice_photo import find_dice
    from .read import load_image

    status = 0
    for path in args.images:
        try:
            found = find_dice(load_image(path))
        except ValueError as exc:
            if len(args.images) == 1:
                raise
            status = 2
            print(json.dumps({"image": str(path), "error": str(exc)}) if args.json
                  else f"{path}: error: {exc}", flush=True)
            continue
        dice = [{"value": d["value"], "box_px": d["box_px"]} for d in found]
        if args.json:
            print(json.dumps({"image": str(path), "dice": dice}), flush=True)
        else:
            listed = ", ".join(f"{d['value']} at {d['box_px']}" for d in dice)
            print(f"{path}: {len(dice)} dice{': ' + listed if dice else ''}", flush=True)
    if status:
        print("bgboard dice: error: some images could not be read", file=sys.stderr)
    return status
