"""GNU Backgammon's SGF (GM[6]) match files: one game tree per game (FORMATS.md 5).

White is SGF White (player 0); point letters: White's point p is 'a'+(p-1), Black's point p
is 'x'-(p-1); 'y' is the bar and 'z' off.
"""

from __future__ import annotations

from .board import WHITE, Color
from .game import Action, Game, Match


def _letter(color: Color, point: int) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if color is WHITE else chr(ord("x") - point + 1)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _node(action: Action) -> str | None:
    side = "W" if action.color is WHITE else "B"
    if action.kind == "move":
        steps = action.play.steps if action.play else ()
        body = "".join(_letter(action.color, s.start) + _letter(action.color, s.end)
                       for s in steps)
        return f";{side}[{action.dice[0]}{action.dice[1]}{body}]"
    if action.kind in ("double", "take", "drop"):
        return f";{side}[{action.kind}]"
    if action.kind == "beaver":
        return f";{side}[double]"
    return None


def _root(match: Match, game: Game, index: int, names: tuple[str, str],
          score: tuple[int, int]) -> str:
    rules = []
    if match.length:
        rules.append("Crawford")
        if game.rules.crawford_game:
            rules.append("CrawfordGame")
    elif match.jacoby:
        rules.append("Jacoby")
    root = (f"(;FF[4]GM[6]CA[UTF-8]AP[bgboard:0.1.0]"
            f"MI[length:{match.length}][game:{index}][ws:{score[0]}][bs:{score[1]}]"
            f"PW[{_escape(names[0])}]PB[{_escape(names[1])}]")
    if rules:
        root += f"RU[{':'.join(rules)}]"
    if game.result is not None:
        winner = "W" if game.result.winner is WHITE else "B"
        resigned = "R" if game.result.how == "resign" else ""
        root += f"RE[{winner}+{game.result.points}{resigned}]"
    return root


def write_sgf(match: Match, names: tuple[str, str] = ("White", "Black")) -> str:
    """The match as gnubg SGF: one `(;...)` tree per game, game numbers 0-based as gnubg."""
    trees = []
    score = [0, 0]
    for index, game in enumerate(match.games):
        nodes = [node for node in map(_node, game.record) if node]
        trees.append(_root(match, game, index, names, (score[0], score[1])) + "".join(nodes)
                     + ")")
        if game.result is not None:
            score[game.result.winner] += game.result.points
    return "\n".join(trees) + "\n"
