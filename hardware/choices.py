"""Which checker the mover may lift next, and where a lifted checker may be put down.

A step counts only if the roll can still be finished the way the rules demand after it (as
many dice as possible, the larger one if only one can be played). The engine decides every
single step and the legal end positions; this module only follows checkers through them.
Points are in the mover's numbering (25 = bar, 0 = off).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..engine.moves import OFF, apply_step, legal_boards, mover_board, single_steps

Board = tuple[int, ...]
Dice = tuple[int, ...]


class Choices:
    """The steps open to the mover of `position` with `dice`, after the steps `played`."""

    def __init__(self, position: Any, dice: tuple[int, int], played: Iterable[Any] = ()):
        if len(dice) != 2 or not all(type(d) is int and 1 <= d <= 6 for d in dice):
            raise ValueError(f"dice must be two numbers from 1 to 6, not {dice!r}")
        board = tuple(mover_board(position))
        found = legal_boards(list(board), *dice)
        self._ends = set(found)
        self._length = len(next(iter(found.values()), ()))
        self._memo: dict[tuple[Board, Dice, int], bool] = {}
        all_dice = tuple(sorted(dice * 2 if dice[0] == dice[1] else dice))
        self._count = len(all_dice)
        states = [(board, all_dice)]
        for step in played:
            states = [(b, rest) for s, e, b, rest in self._all(states) if (s, e) == step[:2]]
        self._states = [(b, r) for b, r in states if self._finishes(b, r)]

    def sources(self) -> set[int]:
        """Points (25 = bar) the mover may lift a checker from now."""
        return {s for s, _, b, rest in self._all(self._states) if self._finishes(b, rest)}

    def destinations(self, start: int) -> set[int]:
        """Where the checker on `start` may be put down: after one die, or after more."""
        found: set[int] = set()
        todo = [(start, self._states)]
        while todo:
            here, states = todo.pop()
            onward = {}
            for s, e, b, rest in self._all(states):
                if s == here and self._finishes(b, rest):
                    onward.setdefault(e, []).append((b, rest))
            for end, after in onward.items():
                if end not in found and end != OFF:
                    todo.append((end, after))
                found.add(end)
        return found

    def _all(self, states) -> Iterator[tuple[int, int, Board, Dice]]:
        """Every single step from each state: (start, end, board after, dice left)."""
        for board, dice in states:
            for die in set(dice):
                rest = list(dice)
                rest.remove(die)
                for s, e in single_steps(list(board), die):
                    yield s, e, tuple(apply_step(list(board), s, e)[0]), tuple(rest)

    def _finishes(self, board: Board, dice: Dice) -> bool:
        """Whether the steps still to come can reach a legal end board."""
        left = self._length - (self._count - len(dice))
        key = (board, dice, left)
        if key not in self._memo:
            if left <= 0:
                self._memo[key] = left == 0 and board in self._ends
            else:
                self._memo[key] = any(self._finishes(b, r) for _, _, b, r in
                                      self._all([(board, dice)]))
        return self._memo[key]
