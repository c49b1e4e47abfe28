"""A readable text board with pip counts, in the style of gnubg's: White is O, Black is X."""

from __future__ import annotations

from .board import BLACK, WHITE, Position

_ROWS = 5


def _column(n: int) -> list[str]:
    """The cells of one point, from the edge inwards; a count replaces the 5th cell."""
    mark = "O" if n > 0 else "X"
    cells = [mark if i < abs(n) else "." for i in range(_ROWS)]
    if abs(n) > _ROWS:
        cells[-1] = str(abs(n)) if abs(n) < 10 else "+"
    return cells


def _half(pos: Position, points: list[int]) -> list[str]:
    columns = [_column(pos.points[p - 1]) for p in points]
    lines = []
    for row in range(_ROWS):
        left = " ".join(f"{c[row]:>2}" for c in columns[:6])
        right = " ".join(f"{c[row]:>2}" for c in columns[6:])
        lines.append(f" |{left} |   |{right} |")
    return lines


def board_text(pos: Position) -> str:
    """The board seen from White's side: points 13-24 on top, 12-1 below, bar and pips."""
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    head = " +" + " ".join(f"{p:>2}" for p in top[:6]) + " +---+" + " ".join(
        f"{p:>2}" for p in top[6:]) + " +"
    foot = " +" + " ".join(f"{p:>2}" for p in bottom[:6]) + " +---+" + " ".join(
        f"{p:>2}" for p in bottom[6:]) + " +"
    middle = f" |{'':18}|BAR|{'':18}|   bar: O {pos.bar_white}  X {pos.bar_black}"
    lines = [head, *_half(pos, top), middle, *reversed(_half(pos, bottom)), foot]
    roller = "O (White)" if pos.turn is WHITE else "X (Black)"
    cube = "centred" if pos.cube_owner is None else f"owned by {pos.cube_owner.key}"
    lines += [
        f" Pips: O (White) {pos.pips(WHITE)}, X (Black) {pos.pips(BLACK)}",
        f" Off: O {pos.off(WHITE)}, X {pos.off(BLACK)}.  On roll: {roller}."
        f"  Cube: {pos.cube}, {cube}.",
    ]
    return "\n".join(lines)
