"""`bgboard record`: a recorded game (video file or folder of frames) -> a match file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..broker import add_options
from . import example


def register(sub) -> None:
    p = sub.add_parser("record", help="record a filmed game or match into a .mat or .sgf file",
                       description="Read a video file or a folder of frames (name order), "
                                   "or any reader's Observations (--observations), follow the "
                                   "game from the initial position and write a match file "
                                   "that GNU Backgammon imports.",
                       epilog=example("bgboard record game.mp4 --calibration cal.json "
                                      "--out game.mat --match 5 --players Alice Bob"))
    p.add_argument("source", metavar="VIDEO_OR_DIR", nargs="?",
                   help="the video file or folder of frames (or give --observations)")
    p.add_argument("--observations", metavar="FILE.jsonl",
                   help='Observations instead of a video: one JSON a line with "t" (seconds) '
                        "as bgboard read --json prints them; - reads standard input")
    p.add_argument("--home", choices=("right", "left"), default=None,
                   help="with --observations: White's home on White's right (default) or left")
    p.add_argument("--calibration", metavar="CAL",
                   help="calibration file (needed for a video; with --observations it gives "
                        "the board's side instead of --home)")
    p.add_argument("--out", required=True, metavar="FILE.mat", help=".mat or .sgf to write")
    p.add_argument("--journal", metavar="FILE.jsonl", help="also keep the crash-safe journal")
    p.add_argument("--fps", type=float, default=None,
                   help="frames per second of a folder of frames (default 10; a video's own)")
    p.add_argument("--match", type=int, default=0, metavar="N",
                   help="match length in points (default 0: money game)")
    p.add_argument("--players", nargs=2, default=("White", "Black"), metavar=("A", "B"),
                   help="names of White (light) and Black (dark)")
    p.add_argument("--events", metavar="FILE.jsonl",
                   help='button presses: lines like {"frame": 120, "button": "double"} (with '
                        "--observations, frame N is the Nth Observation, from 0)")
    add_options(p, wait=True)
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
    from ..broker import relay_target
    from ..console import Console, summary
    from ..recorder import write_match
    from ..relay import attach
    from ..turns.journal import Journal

    observations, frames = _source(args)
    cal = load(args.calibration) if args.calibration else None
    buttons = read_events(args.events) if args.events else {}
    if args.out and not args.out.endswith((".mat", ".sgf")):
        raise ValueError(f"--out {args.out!r}: the file name must end in .mat or .sgf")
    broker = relay_target(args.relay, args.board)
    if broker and not args.journal:
        raise ValueError("--relay sends what is journalled: give --journal FILE.jsonl too")
    journal = Journal(args.journal) if args.journal else None
    relay = attach(journal, broker, args.board) if broker else None
    if journal:
        journal.append({"type": "match", "length": args.match, "players": list(args.players),
                        "version": 1})
    console = Console(total=getattr(frames, "count", None))
    match = Match(length=args.match)
    try:
        if observations is not None:
            result = _from_observations(args, observations, cal, match, buttons, journal,
                                        console)
        else:
            result = _from_video(frames, cal, match, buttons, journal, console)
    finally:
        write_match(match, args.out, tuple(args.players))
        console.close()
        if journal:
            journal.close()
    print(f"wrote {args.out}: {summary(match)}", file=sys.stderr)
    unsent = relay.close(args.relay_wait) if relay else None
    if result.unreadable:
        print(f"{len(result.unreadable)} frames could not be read "
              f"(first: frame {result.unreadable[0][0]}: {result.unreadable[0][1]})",
              file=sys.stderr)
    if unsent:
        raise ValueError(f"relay: {unsent}")
    return 0


def _source(args):
    """(the Observation lines, None) or (None, the recorded frames); ValueError when the
    arguments do not name exactly one source."""
    from ..frames import open_recording

    if (args.source is None) == (args.observations is None):
        raise ValueError("give either VIDEO_OR_DIR or --observations FILE.jsonl")
    if args.observations is None:
        if args.calibration is None:
            raise ValueError("a video needs --calibration CAL")
        if args.home is not None:
            raise ValueError("--home is for --observations (a video's side comes from "
                             "--calibration)")
        return None, open_recording(args.source, args.fps)
    if args.home is not None and args.calibration is not None:
        raise ValueError("give --home or --calibration, not both")
    if args.observations == "-":
        return sys.stdin, None
    return open(args.observations, encoding="utf-8"), None  # noqa: SIM115 (read lazily)


def _from_observations(args, lines, cal, match, buttons, journal, console):
    from ..follow import settings_for
    from ..recorder import follow
    from ..turns.observations import read_stream
    from ..turns.session import Settings

    settings = settings_for(cal.to_dict()) if cal else \
        Settings(white_right_high=args.home == "left")
    name = "stdin" if args.observations == "-" else args.observations
    try:
        return follow(read_stream(lines, name), settings, match=match, buttons=buttons,
                      journal=journal, bus=console.bus)
    finally:
        if lines is not sys.stdin:
            lines.close()


def _from_video(frames, cal, match, buttons, journal, console):
    from ...vision.steady import SteadyReader
    from ..follow import field_status
    from ..recorder import record

    reader = SteadyReader(cal, lambda change: field_status(console.bus, change))
    return record(console.progress(frames), reader.read, calibration=cal.to_dict(),
                  fps=frames.fps, match=match, buttons=buttons, journal=journal,
                  bus=console.bus)
