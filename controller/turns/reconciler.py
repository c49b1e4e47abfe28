"""Which legal play explains what the camera sees (DESIGN.md: the engine is the judge).

Places in a Reconciliation are the LED layout's: points 1..24 in White's numbering, "bar
white", "tray black" and so on.

For one turn (a position and the dice) the judge knows every complete legal play, every
partial one (some of its steps made) and the start. A stable board is one of those, an
illegal play (with the referee's reason), or a board that does not match the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ...engine.board import Position
from ...engine.moves import BAR, OFF, Play, Step, apply_step, legal_plays, mover_board
from ...engine.places import corrections, mover_place
from ...engine.referee import explain

Board = tuple[tuple[int, ...], int, int]  # points, white bar, black bar


def board_of(pos: Position) -> Board:
    return pos.points, pos.bar_white, pos.bar_black


@dataclass(frozen=True)
class Reconciliation:
    """What a board is for this turn. kind: start, partial, complete, illegal or mismatch."""

    kind: str
    play: Play | None = None
    reason: str = ""
    points: tuple = ()
    corrections: tuple = ()


class TurnJudge:
    """Judges boards for one turn: `start` with `dice` for the player on roll."""

    def __init__(self, start: Position, dice: tuple[int, int]) -> None:
        self.start = start
        self.dice = dice
        self.plays = legal_plays(start, dice)
        self.complete = {board_of(p.position): p for p in self.plays}
        self.partial = self._partials()

    def _partials(self) -> set[tuple[int, ...]]:
        """Boards (mover's view) after some but not all steps of a legal play, in order."""
        b0 = mover_board(self.start)
        seen: set[tuple[int, ...]] = set()
        for play in self.plays:
            steps = play.steps
            for size in range(1, len(steps)):
                for chosen in combinations(steps, size):
                    b = _apply(b0, chosen)
                    if b is not None:
                        seen.add(tuple(b))
        return seen

    def judge(self, board: Board) -> Reconciliation:
        if board == board_of(self.start):
            return Reconciliation("start")
        if board in self.complete:
            return Reconciliation("complete", self.complete[board])
        if self._mover_view(board) in self.partial:
            return Reconciliation("partial")
        spans = self._spans(board)
        if spans is None:
            return mismatch(board_of(self.start), board)
        reason, points = explain(self.start, self.dice, spans)
        mover = self.start.turn
        return Reconciliation("illegal", reason=reason,
                              points=tuple(mover_place(p, mover) for p in points))

    def _mover_view(self, board: Board) -> tuple[int, ...] | None:
        try:
            return tuple(mover_board(Position(*board, self.start.turn)))
        except ValueError:
            return None

    def _spans(self, board: Board) -> list[Step] | None:
        """The mover's checker movements that turn the start into `board`, or None when the
        board is not the mover's doing alone (other checkers changed, counts are off)."""
        try:
            seen = Position(board[0], board[1], board[2], self.start.turn)
        except ValueError:
            return None
        before, after = mover_board(self.start), mover_board(seen)
        hits = 0
        for p in range(1, 25):
            theirs_before, theirs_after = max(-before[p], 0), max(-after[p], 0)
            if theirs_before != theirs_after:
                if (theirs_before, theirs_after) != (1, 0):
                    return None
                hits += 1
        if after[26] != before[26] + hits:
            return None
        sources, ends = [], []
        for p in range(26):
            change = max(after[p], 0) - max(before[p], 0)
            (ends if change > 0 else sources).extend([p] * abs(change))
        if not sources or len(sources) != len(ends) or OFF in sources or BAR in ends:
            return None
        return [Step(s, e) for s, e in zip(sorted(sources, reverse=True),
                                           sorted(ends, reverse=True), strict=True)]


ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))  # larger die first


def rolls_reaching(start: Position, board: Board) -> list[tuple[tuple[int, int], Play | None]]:
    """Every roll with a legal play from `start` that ends on `board`, with that play (None:
    the roll cannot be played and `board` is the start)."""
    found = []
    for roll in ROLLS:
        plays = legal_plays(start, roll)
        play = next((p for p in plays if board_of(p.position) == board), None)
        if play is not None or (not plays and board == board_of(start)):
            found.append((roll, play))
    return found


def _apply(b: list[int], steps) -> list[int] | None:
    for step in steps:
        if b[step.start] <= 0:
            return None
        b = apply_step(b, step.start, step.end)[0]
    return b


def _board_dict(board: Board) -> dict:
    """DESIGN.md's board array; `off` is 15 minus the checkers seen."""
    points, white, black = board
    seen = {"white": sum(n for n in points if n > 0) + white,
            "black": -sum(n for n in points if n < 0) + black}
    return {"points": list(points), "bar": {"white": white, "black": black},
            "off": {k: max(15 - n, 0) for k, n in seen.items()}}


def mismatch(expected: Board, seen: Board) -> Reconciliation:
    """The places where `seen` differs from `expected`, and from -> to moves that fix it."""
    differ = tuple(p for p in range(1, 25) if expected[0][p - 1] != seen[0][p - 1])
    differ += tuple(f"bar {side}" for side, i in (("white", 1), ("black", 2))
                    if expected[i] != seen[i])
    moves = corrections(_board_dict(seen), _board_dict(expected))
    where = ", ".join(str(k) for k in differ)
    return Reconciliation("mismatch", reason=f"the board does not match the game at {where}",
                          points=differ, corrections=tuple(moves))
