"""`bgboard moves`: every legal play of a position and roll, as DESIGN.md specifies."""

from __future__ import annotations

import json
import sys

from ...engine.ids import parse_position, position_id
from ...engine.moves import legal_plays
from . import example


def register(sub) -> None:
    p = sub.add_parser("moves", help="list every legal play of a position and roll",
                       description="List every legal play, one per distinct resulting position.",
                       epilog=example("bgboard moves 4HPwATDgc/ABMA:cAkAAAAAAAAA --dice 64"))
    p.add_argument("position", nargs="?",
                   help="'start', a GNU Backgammon Position ID (player on roll as in gnubg), "
                        "POSITIONID:MATCHID, or an XGID")
    p.add_argument("--dice", help="the roll, e.g. 31 (taken from an XGID or Match ID if omitted)")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.add_argument("--batch", metavar="FILE",
                   help="read 'POSITION AB' lines from FILE (- for stdin); one JSON list per line")
    p.set_defaults(run=run)


def parse_dice(text: str) -> tuple[int, int]:
    """'31', '3-1' or '3 1' -> (3, 1); anything else is a ValueError naming it."""
    digits = text.replace("-", "").replace(" ", "")
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise ValueError(f"dice {text!r} must be two digits from 1 to 6, like 31")
    return int(digits[0]), int(digits[1])


def plays_json(position: str, dice_text: str | None) -> list[dict]:
    """The DESIGN.md JSON list for one position and roll."""
    pos, state = parse_position(position)
    if dice_text:
        dice = parse_dice(dice_text)
    elif state is not None and state.dice != (0, 0):
        dice = state.dice
    else:
        raise ValueError("no dice: give the roll with --dice, e.g. --dice 31")
    return [{"move": p.move, "position_id": position_id(p.position)}
            for p in legal_plays(pos, dice)]


def run(args) -> int:
    if args.batch:
        return _batch(args.batch)
    if not args.position:
        raise ValueError("give a POSITION (or --batch FILE)")
    plays = plays_json(args.position, args.dice)
    if args.json:
        print(json.dumps(plays))
    elif not plays:
        print("No legal play: the turn passes.")
    else:
        width = max(len(p["move"]) for p in plays)
        for p in plays:
            print(f"{p['move']:<{width}}  {p['position_id']}")
    return 0


def _batch(path: str) -> int:
    source = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    status = 0
    with source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            parts = line.split()
            try:
                if len(parts) != 2:
                    raise ValueError(f"expected 'POSITION AB', got {line.strip()!r}")
                out = plays_json(*parts)
            except ValueError as exc:
                out = {"error": f"line {number}: {exc}"}
                print(f"bgboard moves: error: line {number}: {exc}", file=sys.stderr)
                status = 2
            print(json.dumps(out), flush=True)
    return status
