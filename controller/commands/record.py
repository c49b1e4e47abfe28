"""`bgboard record`: a recorded game (video file or folder of frames) -> a match file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import example


def register(sub) -> None:
    p = sub.add_parser("record", help="record a filmed game or match into a .mat or .sgf file",
                       description="Read a video file or a folder of frames (name order), "
                                   "follow the game from the initial position and write a "
                                   "match file that GNU Backgammon imports.",
                       epilog=example("bgboard record game.mp4 --calibration cal.json "
                                      "--out game.mat --match 5 --players Alice Bob"))
    p.add_argument("source", metavar="VIDEO_OR_DIR")
    p.add_argument("--calibration", required=True, metavar="CAL", help="calibration file")
    p.add_argument("--out", required=True, metavar="FILE.mat", help=".mat or .sgf to write")
    p.add_argument("--journal", metavar="FILE.jsonl", help="also keep the crash-safe journal")
    p.add_argument("--fps", type=float, default=None,
                   help="frames per second of a folder of frames (default 10; a video's own)")
    p.add_argument("--match", type=int, default=0, metavar="N",
                   help="match length in points (default 0: money game)")
    p.add_argument("--players", nargs=2, default=("White", "Black"), metavar=("A", "B"),
                   help="names of White (light) and Black (dark)")
    p.add_argument("--events", metavar="FILE.jsonl",
                   help='button presses: lines like {"frame": 120, "button": "double"}')
    p.set_defaults(run=run)


def read_events(path: str) -> dict[int, str]:
    """Button presses by frame number from a JSON-lines file."""
    buttons: dict[int, str] = {}
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            buttons[int(item["frame"])] = str(item["button"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}: line {number}: expected "
                             f'{{"frame": N, "button": NAME}}') from exc
    return buttons


def run(args) -> int:
    from ...calibration.file import load
    from ...engine.game import Match
    from ...vision.read import Reader
    from ..console import Console, summary
    from ..frames import open_recording
    from ..journal import Journal
    from ..recorder import record, write_match

    cal = load(args.calibration)
    source = open_recording(args.source, args.fps)
    buttons = read_events(args.events) if args.events else {}
    if args.out and not args.out.endswith((".mat", ".sgf")):
        raise ValueError(f"--out {args.out!r}: the file name must end in .mat or .sgf")
    journal = Journal(args.journal) if args.journal else None
    if journal:
        journal.append({"type": "match", "length": args.match, "players": list(args.players),
                        "version": 1})
    console = Console(total=source.count)
    match = Match(length=args.match)
    try:
        result = record(console.progress(source), Reader(cal).read, calibration=cal.to_dict(),
                        fps=source.fps, match=match, buttons=buttons, journal=journal,
                        bus=console.bus)
    finally:
        write_match(match, args.out, tuple(args.players))
        console.close()
        if journal:
            journal.close()
    print(f"wrote {args.out}: {summary(match)}", file=sys.stderr)
    if result.unreadable:
        print(f"{len(result.unreadable)} frames could not be read "
              f"(first: frame {result.unreadable[0][0]}: {result.unreadable[0][1]})",
              file=sys.stderr)
    return 0
