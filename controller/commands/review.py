"""`bgboard review FILE.mat`: each turn's equity loss and the best play, by the tutor's engines.

Checker plays are judged by cubeless money equity at the ply chosen; cube actions (double,
no double, take, pass) by the engine's cubeful money equity, per unit of the cube before the
double. Match score is not taken into account (money equities), so cube verdicts near the end
of a match are only a guide.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from ...engine.analysis import ENGINES, Analyzer, open_analyzer
from ...engine.board import START, Position
from ...engine.game import Action
from ...engine.ids import position_id
from ...engine.matfile import read_mat
from ..tutor import TutorSettings, judge
from . import example


def register(sub) -> None:
    p = sub.add_parser("review", help="each turn's equity loss and best play in a .mat file",
                       description=__doc__.splitlines()[0],
                       epilog=example("bgboard review match.mat --engine gnubg --ply 0"))
    p.add_argument("file", help="a Jellyfish/GNU Backgammon .mat match file")
    p.add_argument("--engine", choices=ENGINES, help="default: the best installed")
    p.add_argument("--ply", type=int, help="search depth (default 2, builtin 0)")
    p.add_argument("--json", action="store_true", help="one JSON object per turn")
    p.set_defaults(run=run)


def run(args) -> int:
    text = Path(args.file).read_text(encoding="utf-8", errors="replace")
    try:
        record = read_mat(text)
    except ValueError as exc:
        raise ValueError(f"{args.file}: {exc}") from exc
    settings = TutorSettings()
    with open_analyzer(args.engine) as engine:
        ply = engine.check_ply(min(2, engine.max_ply) if args.ply is None else args.ply)
        print(f"engine: {engine.label}, {ply}-ply", file=sys.stderr if args.json else sys.stdout)
        totals: dict[str, list[float]] = {}
        for number, game in enumerate(record.match.games, 1):
            crawford = game.rules.crawford_game
            for row in review_game(engine, settings, game.record, ply, cube=not crawford):
                row = {"game": number, **row}
                totals.setdefault(row["player"], []).append(row["equity_loss"])
                if args.json:
                    print(json.dumps(row))
                elif row["move"] != row["best"] or row["move"] != "no double":
                    print(_line(row))
    if not args.json:
        for player, losses in totals.items():
            name = record.names[0 if player == "white" else 1]
            print(f"{name} ({player}): {len(losses)} decisions (checker and cube), total loss "
                  f"{sum(losses):.3f}, average {sum(losses) / max(len(losses), 1):.4f}")
    return 0


def review_game(engine: Analyzer, settings: TutorSettings, actions: tuple[Action, ...], ply: int,
                cube: bool = True) -> Iterator[dict]:
    """One dict per decision of a game's record: checker plays and cube actions (`cube`
    False in the Crawford game)."""
    pos: Position = START
    turn = 0
    offered = False
    for action in actions:
        if pos.turn is not action.color and action.kind in ("move", "double"):
            pos = pos.swap_turn()
        if action.kind == "move":
            turn += 1
            if cube and turn > 1 and not offered and _may_double(pos):
                yield _cube_row(engine, settings, pos, ply, turn, "no double")
            offered = False
            if action.play is not None:
                ranked = engine.rank(pos, action.dice, ply)
                verdict = judge(engine, settings, pos, action.dice, action.play, ranked, ply)
                if len(ranked) > 1:
                    yield {"turn": turn, **verdict.to_dict()}
                pos = action.play.position
            else:
                pos = pos.swap_turn()
        elif action.kind == "double" and cube:
            offered = True
            yield _cube_row(engine, settings, pos, ply, turn + 1, "double")
        elif action.kind in ("take", "beaver", "drop"):
            if cube:
                yield _answer_row(engine, settings, pos, ply, turn + 1, action)
            if action.kind != "drop":
                pos = pos.with_cube(action.cube, action.color)


def _may_double(pos: Position) -> bool:
    return pos.cube_owner in (None, pos.turn) and pos.cube < 64


def _cube_row(engine: Analyzer, settings: TutorSettings, pos: Position, ply: int, turn: int,
              chosen: str) -> dict:
    """The on-roll side's cube decision: `chosen` is "double" or "no double"."""
    advice = engine.cube(pos, ply)
    doubled = min(advice.double_take, advice.double_pass)
    value = doubled if chosen == "double" else advice.no_double
    loss = max(max(doubled, advice.no_double) - value, 0.0)
    return {"turn": turn, "player": pos.turn.key, "position_id": position_id(pos),
            "move": chosen, "best": advice.action,
            "equity_loss": round(loss, 4), "verdict": settings.word(loss),
            "engine": engine.name, "ply": ply}


def _answer_row(engine: Analyzer, settings: TutorSettings, pos: Position, ply: int, turn: int,
                action: Action) -> dict:
    """The doubled side's answer, judged from its own view (pos has the doubler on roll)."""
    advice = engine.cube(pos, ply)
    take, drop = -advice.double_take, -advice.double_pass
    chosen = drop if action.kind == "drop" else take
    loss = max(max(take, drop) - chosen, 0.0)
    return {"turn": turn, "player": action.color.key, "position_id": position_id(pos),
            "move": action.kind,
            "best": "take" if advice.take else "pass", "equity_loss": round(loss, 4),
            "verdict": settings.word(loss), "engine": engine.name, "ply": ply}


def _line(row: dict) -> str:
    mark = "" if row["verdict"] == "good" else f"  {row['verdict'].upper()}"
    best = "" if row["move"] == row["best"] else f"  (best: {row['best']})"
    dice = "".join(str(d) for d in row.get("dice", ())) or "  "
    return (f"game {row['game']} turn {row['turn']:3} {row['player']:5} {dice} "
            f"{row['move']:<22} loss {row['equity_loss']:.3f}{mark}{best}")
