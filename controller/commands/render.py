"""`bgboard render POSITION --out FILE.png|svg`: a clean diagram of a position."""

from __future__ import annotations

from pathlib import Path

from . import example


def register(subparsers) -> None:
    p = subparsers.add_parser("render", help="draw a position as a PNG or SVG diagram",
                              epilog=example("bgboard render start --out start.png"))
    p.add_argument("position", metavar="POSITION", help="`start`, a gnubg Position ID or an XGID")
    p.add_argument("--out", required=True, type=Path, help="output file, .png or .svg")
    p.add_argument("--width", type=int, default=960, help="pixels (default 960)")
    p.add_argument("--height", type=int, default=600, help="pixels (default 600)")
    p.set_defaults(run=run)


def run(args) -> int:
    from ...engine.ids import parse_position
    from ...vision.diagram import diagram_svg, render_diagram

    suffix = args.out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"--out {args.out}: the file name must end in .png or .svg")
    board = parse_position(args.position)[0].to_dict()
    parts = board["points"], board["bar"], board["off"]
    if suffix == ".svg":
        args.out.write_text(diagram_svg(*parts, width=args.width, height=args.height))
        return 0
    import cv2

    image = render_diagram(*parts, width=args.width, height=args.height)
    if not cv2.imwrite(str(args.out), image):
        raise OSError(f"cannot write {args.out}")
    return 0
