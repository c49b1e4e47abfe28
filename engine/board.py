"""The position: an immutable board in White's numbering, the player on roll and the cube.

The board array is the contract of DESIGN.md: `points[i]` is White's point i+1, positive for
White (light) checkers, negative for Black (dark). White moves 24 -> 1; Black's point k is
White's point 25-k.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

CHECKERS = 15


class Color(enum.IntEnum):
    """A side. The value is gnubg's player number: White = 0 (O, top), Black = 1 (X, bottom)."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    @property
    def sign(self) -> int:
        """+1 for White, -1 for Black: the sign of this side's checkers in `points`."""
        return 1 if self is Color.WHITE else -1

    @property
    def key(self) -> str:
        return self.name.lower()


WHITE, BLACK = Color.WHITE, Color.BLACK

START_POINTS = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)


@dataclass(frozen=True, slots=True)
class Position:
    """A board position with the player on roll and the cube.

    `cube_owner` is None while the cube is in the middle.
    """

    points: tuple[int, ...] = START_POINTS
    bar_white: int = 0
    bar_black: int = 0
    turn: Color = WHITE
    cube: int = 1
    cube_owner: Color | None = None

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            raise ValueError(f"impossible position: {problem}")

    @classmethod
    def trusted(cls, points, bar_white, bar_black, turn, cube, cube_owner) -> Position:
        """A position built by the engine itself from a valid one: skips validation."""
        pos = object.__new__(cls)
        setter = object.__setattr__
        setter(pos, "points", points)
        setter(pos, "bar_white", bar_white)
        setter(pos, "bar_black", bar_black)
        setter(pos, "turn", turn)
        setter(pos, "cube", cube)
        setter(pos, "cube_owner", cube_owner)
        return pos

    # --- views -------------------------------------------------------------------------
    def bar(self, color: Color) -> int:
        return self.bar_white if color is WHITE else self.bar_black

    def off(self, color: Color) -> int:
        """Checkers of `color` borne off: 15 minus those on the board and the bar."""
        return CHECKERS - self.on_board(color) - self.bar(color)

    def on_board(self, color: Color) -> int:
        sign = color.sign
        return sum(n * sign for n in self.points if n * sign > 0)

    def count(self, color: Color, point: int) -> int:
        """Checkers of `color` on its own point `point` (1..24)."""
        n = self.points[point - 1 if color is WHITE else 24 - point] * color.sign
        return max(n, 0)

    def pips(self, color: Color) -> int:
        """Pip count: the total distance `color` still has to move to bear off all checkers."""
        return 25 * self.bar(color) + sum(p * self.count(color, p) for p in range(1, 25))

    def to_gnubg(self) -> list[list[int]]:
        """gnubg's 2x25 board [opponent, player on roll], each in its own numbering, bar last."""
        return [self._side(self.turn.other), self._side(self.turn)]

    def _side(self, color: Color) -> list[int]:
        return [self.count(color, p) for p in range(1, 25)] + [self.bar(color)]

    @classmethod
    def from_gnubg(cls, board: list[list[int]] | tuple, turn: Color = WHITE, **cube) -> Position:
        """The position from gnubg's [opponent, on roll] board, with `turn` the side on roll."""
        if len(board) != 2 or any(len(side) != 25 for side in board):
            raise ValueError("a gnubg board is two lists of 25 counts")
        opp, me = board
        white, black = (me, opp) if turn is WHITE else (opp, me)
        points = tuple(white[i] - black[23 - i] for i in range(24))
        if any(white[i] and black[23 - i] for i in range(24)):
            raise ValueError("impossible position: both sides on the same point")
        return cls(points, white[24], black[24], turn, **cube)

    # --- derived positions --------------------------------------------------------------
    def swap_turn(self) -> Position:
        return replace(self, turn=self.turn.other)

    def with_cube(self, cube: int, owner: Color | None) -> Position:
        return replace(self, cube=cube, cube_owner=owner)

    # --- game end -----------------------------------------------------------------------
    def winner(self) -> Color | None:
        """The side that has borne off all 15 checkers, if any."""
        for color in Color:
            if self.off(color) == CHECKERS:
                return color
        return None

    def result_multiplier(self, winner: Color) -> int:
        """1 single, 2 gammon, 3 backgammon, judged by the loser's checkers."""
        loser = winner.other
        if self.off(loser):
            return 1
        in_winner_home = sum(self.count(loser, p) for p in range(19, 25))
        return 3 if self.bar(loser) or in_winner_home else 2

    def to_dict(self) -> dict:
        """The DESIGN.md board array: points, bar and off, plus turn and cube."""
        return {
            "points": list(self.points),
            "bar": {"white": self.bar_white, "black": self.bar_black},
            "off": {"white": self.off(WHITE), "black": self.off(BLACK)},
            "turn": self.turn.key,
            "cube": self.cube,
            "cube_owner": self.cube_owner.key if self.cube_owner is not None else None,
        }


def _problem(pos: Position) -> str | None:
    """Why `pos` cannot exist, or None."""
    if len(pos.points) != 24:
        return f"{len(pos.points)} points instead of 24"
    if pos.bar_white < 0 or pos.bar_black < 0:
        return "a negative bar count"
    for color in Color:
        total = pos.on_board(color) + pos.bar(color)
        if total > CHECKERS:
            return f"{color.key} has {total} checkers (at most 15)"
    if pos.cube < 1 or pos.cube & (pos.cube - 1):
        return f"cube value {pos.cube} is not a power of 2"
    return None


START = Position()
