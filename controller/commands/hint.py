"""`bgboard hint`: the legal plays ranked by an engine, or cube advice (DESIGN.md)."""

from __future__ import annotations

import json
import sys

from ...engine.analysis import ENGINES, open_analyzer
from ...engine.ids import parse_position, position_id
from . import example
from .moves import parse_dice


def register(sub) -> None:
    p = sub.add_parser("hint", help="rank the legal plays (or the cube) with an engine",
                       description="Rank every legal play by cubeless money equity for the "
                                   "player on roll, best first; or give cube advice.",
                       epilog=example("bgboard hint start --dice 21"))
    p.add_argument("position", help="'start', a Position ID, POSITIONID:MATCHID or an XGID")
    p.add_argument("--dice", help="the roll, e.g. 31 (taken from an XGID or Match ID if omitted)")
    p.add_argument("--cube", action="store_true",
                   help="cube advice before rolling instead (double? take?), money play")
    p.add_argument("--engine", choices=ENGINES,
                   help="default: the best installed (gnubg-nn, then gnubg, then builtin)")
    p.add_argument("--ply", type=int, help="search depth (default 2, builtin 0)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    pos, state = parse_position(args.position)
    dice = None
    if not args.cube:
        if args.dice:
            dice = parse_dice(args.dice)
        elif state is not None and state.dice != (0, 0):
            dice = state.dice
        else:
            raise ValueError("no dice: give the roll with --dice, e.g. --dice 31 (or --cube)")
    with open_analyzer(args.engine) as engine:
        ply = engine.check_ply(min(2, engine.max_ply) if args.ply is None else args.ply)
        about = f"engine: {engine.label}, {ply}-ply"
        print(about, file=sys.stderr if args.json else sys.stdout)
        if args.cube:
            _cube(engine.cube(pos, ply), args.json)
        else:
            _plays(engine.rank(pos, dice, ply), args.json)
    return 0


def _plays(ranked, as_json: bool) -> None:
    rows = [{"move": r.move, "position_id": position_id(r.play.position),
             "equity": round(r.equity, 5)} for r in ranked]
    if as_json:
        print(json.dumps(rows))
        return
    if not rows:
        print("No legal play: the turn passes.")
        return
    width = max(len(r["move"]) for r in rows)
    best = rows[0]["equity"]
    for n, (row, r) in enumerate(zip(rows, ranked, strict=True), 1):
        behind = f"({row['equity'] - best:+.3f})" if n > 1 else ""
        print(f"{n:3}. {row['move']:<{width}}  {row['equity']:+.3f} {behind:>8}  "
              f"{r.ply}-ply  {row['position_id']}")


def _cube(advice, as_json: bool) -> None:
    p = advice.probabilities
    if as_json:
        print(json.dumps({
            "action": advice.action, "take": advice.take,
            "no_double": round(advice.no_double, 5), "double_take": round(advice.double_take, 5),
            "double_pass": round(advice.double_pass, 5),
            "probabilities": dict(zip(("win", "win_gammon", "win_backgammon", "lose_gammon",
                                       "lose_backgammon"), (round(v, 5) for v in p.as_tuple()),
                                      strict=True)),
        }))
        return
    print(f"chances: win {p.win:.3f} (gammon {p.win_gammon:.3f}, backgammon "
          f"{p.win_backgammon:.3f}), lose {1 - p.win:.3f} (gammon {p.lose_gammon:.3f}, "
          f"backgammon {p.lose_backgammon:.3f}); cubeless equity {p.equity:+.3f}")
    print(f"no double    {advice.no_double:+.3f}")
    print(f"double, take {advice.double_take:+.3f}")
    print(f"double, pass {advice.double_pass:+.3f}")
    answer = "take" if advice.take else "pass"
    print(f"proper cube action: {advice.action} (if doubled: {answer})")
