"""`bgboard show`: a readable text board with pip counts."""

from __future__ import annotations

from ...engine.ids import parse_position, position_id
from ...engine.text import board_text
from . import example


def register(sub) -> None:
    p = sub.add_parser("show", help="print a position as a text board with pip counts",
                       epilog=example("bgboard show 4HPwATDgc/ABMA"))
    p.add_argument("position", help="'start', a Position ID, POSITIONID:MATCHID or an XGID")
    p.set_defaults(run=run)


def run(args) -> int:
    pos, _ = parse_position(args.position)
    print(board_text(pos))
    print(f" Position ID: {position_id(pos)}")
    return 0
