"""Jellyfish .mat match files, written as GNU Backgammon writes them and read as it reads them.

Player 0 (the left column) is White, player 1 (the right column) is Black. Moves are in
the plain form: one `from/to` per die, 25 = bar, 0 = off, `*` on hits (FORMATS.md 4).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .board import BLACK, WHITE, Color
from .game import Action, Game, Match
from .notation import format_plain, parse_move

_LEFT, _RIGHT = 5, 33


def _points(n: int) -> str:
    return f"Wins {n} point{'' if n == 1 else 's'}"


def _action_text(action: Action) -> str:
    if action.kind == "move":
        dice = f"{action.dice[0]}{action.dice[1]}:"
        return f"{dice} {format_plain(action.play.steps)} " if action.play else dice
    return {"double": f" Doubles => {action.cube}", "beaver": f" Beavers => {action.cube}",
            "take": " Takes", "drop": " Drops"}[action.kind]


def _row(number: int, left: str, right: str) -> str:
    """A numbered row: the left action at column 5, the right one at column 33."""
    head = f"{number:3d}) "
    return head + (f"{left:<{_RIGHT - _LEFT - 1}} {right}" if right else left)


def game_lines(game: Game, number: int, names: tuple[str, str],
               score: tuple[int, int]) -> list[str]:
    """The lines of one game: header, score line, one row per pair of actions, the win."""
    lines = [f" Game {number}", f" {f'{names[0]} : {score[0]}':<31}{names[1]} : {score[1]}"]
    row: list[str] = ["", ""]
    count = 0

    def flush() -> None:
        nonlocal row, count
        if row != ["", ""]:
            count += 1
            lines.append(_row(count, *row))
        row = ["", ""]

    for action in game.record:
        if action.kind == "resign":
            continue
        if action.color is WHITE and row != ["", ""] or action.color is BLACK and row[1]:
            flush()
        row[action.color] = _action_text(action)
    if game.result is not None:
        wins = " " + _points(game.result.points)
        if game.result.winner is BLACK and row[0] and not row[1]:
            row[1] = wins
        else:
            flush()
            lines.append(" " * (_LEFT if game.result.winner is WHITE else _RIGHT) + wins)
    flush()
    return lines


def write_mat(match: Match, names: tuple[str, str] = ("White", "Black"),
              tags: dict[str, str] | None = None) -> str:
    """The whole match as .mat text (gnubg's layout; imports with `import mat`)."""
    lines = [f'; [{key} "{value}"]' for key, value in (tags or {}).items()]
    lines += ["" if lines else None, f" {match.length} point match", ""]
    lines = [line for line in lines if line is not None]
    score = [0, 0]
    for number, game in enumerate(match.games, 1):
        lines += game_lines(game, number, names, (score[0], score[1]))
        lines.append("")
        if game.result is not None:
            score[game.result.winner] += game.result.points
    return "\n".join(lines) + "\n"


# --- reading -----------------------------------------------------------------------------
@dataclass
class MatFile:
    """A .mat file read back: the players' names, tags and the match replayed by the engine."""

    names: tuple[str, str]
    match: Match
    tags: dict[str, str] = field(default_factory=dict)


_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d+)", re.I)
_TAG = re.compile(r'^[;#]\s*\[(\w+)\s+"(.*)"\]')
_DICE = re.compile(r"\b([1-6])([1-6]):")


def read_mat(text: str) -> MatFile:
    """Parse a .mat file and replay every game through the engine.

    Raises ValueError naming the line of the first thing that is not legal or not
    understood (gnubg itself imports illegal moves silently; we do not).
    """
    lines = text.lstrip("\ufeff").splitlines()
    tags: dict[str, str] = {}
    length = None
    for number, line in enumerate(lines, 1):
        if tag := _TAG.match(line):
            tags[tag[1]] = tag[2]
        elif found := _LENGTH.match(line):
            length = int(found[1])
            start = number
            break
    if length is None:
        raise ValueError("not a .mat file: no 'N point match' line")
    match = Match(length=length)
    names = ("White", "Black")
    game: Game | None = None
    for number, line in enumerate(lines[start:], start + 1):
        try:
            if _GAME.match(line):
                number += 1
                game, names = _new_game(match, lines[number - 1] if number <= len(lines) else "")
            elif game is not None and game.result is None and (
                    ")" in line[:6] or line.strip().lower().startswith("win")):
                _replay_row(game, line)
        except ValueError as exc:
            raise ValueError(f"line {number}: {exc}") from exc
    return MatFile(names, match, tags)


def _new_game(match: Match, score_line: str) -> tuple[Game, tuple[str, str]]:
    parts = score_line.split(":")
    if len(parts) != 3:
        raise ValueError(f"expected 'name : score  name : score', got {score_line.strip()!r}")
    name0 = parts[0].strip()
    middle = parts[1].strip().split(None, 1)
    names = (name0, middle[1].strip() if len(middle) > 1 else "Black")
    if match.games and match.games[-1].result is None:
        raise ValueError("a game ends without a result")
    return match.new_game(), names


def _split(line: str) -> tuple[str, str]:
    """gnubg's column split: at the second dice, else at the first double space from col 15."""
    body = line.split(")", 1)[1] if ")" in line[:6] else line
    offset = len(line) - len(body)
    dice = list(_DICE.finditer(body))
    if len(dice) >= 2:
        cut = dice[1].start()
    else:
        at = line.find("  ", 15)
        cut = at - offset if at >= 0 else len(body)
        if cut < 0:
            cut = 0
    return body[:cut].strip(), body[cut:].strip()


def _replay_row(game: Game, line: str) -> None:
    if ")" not in line[:6]:
        _replay(game, line.strip(), _column_owner(line))
        return
    left, right = _split(line)
    for color, text in ((WHITE, left), (BLACK, right)):
        if text and game.result is None:
            _replay(game, text, color)


def _column_owner(line: str) -> Color:
    return WHITE if len(line) - len(line.lstrip()) < _RIGHT - 4 else BLACK


def _replay(game: Game, text: str, color: Color) -> None:
    word = text.split()[0].lower()
    if word.startswith("double") or word.startswith("beaver"):
        _check_turn(game, color)
        game.beaver() if word.startswith("beaver") else game.double()
    elif word.startswith("take"):
        game.take()
    elif word.startswith("drop") or word.startswith("pass"):
        game.drop()
    elif word.startswith("win"):
        points = int(text.split()[1])
        if game.result is None:
            game.resign(color.other, max(1, min(3, -(-points // game.board.cube))))
    else:
        _play(game, text, color)


def _play(game: Game, text: str, color: Color) -> None:
    dice_text, _, move = text.partition(":")
    if len(dice_text) != 2 or not dice_text.isdigit():
        raise ValueError(f"cannot read {text!r}")
    d1, d2 = int(dice_text[0]), int(dice_text[1])
    if not game.state.started:
        high, low = max(d1, d2), min(d1, d2)
        if game.opening(*((high, low) if color is WHITE else (low, high))) is not color:
            raise ValueError(f"an opening roll has two different dice, not {dice_text}")
    else:
        _check_turn(game, color)
        game.roll(d1, d2)
    move = move.strip()
    if move.lower() in ("", "cannot move", "???"):
        game.move(None)
    else:
        game.move(parse_move(move))


def _check_turn(game: Game, color: Color) -> None:
    if game.turn is not color:
        raise ValueError(f"{color.key} acts out of turn")
