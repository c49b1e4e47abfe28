"""Legal plays: every distinct position a roll can reach, under all of RULES.md.

Internally a board is a list of 27 ints seen from the mover: index 0 = mover's checkers
borne off, 1..24 = the mover's points (positive = mover's checkers, negative = the
opponent's), 25 = mover's bar, 26 = the opponent's bar. Points in steps are in the
mover's numbering: 25 is the bar, 0 is off.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import WHITE, Color, Position

BAR, OFF = 25, 0


class Step(NamedTuple):
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off)."""

    start: int
    end: int
    hit: bool = False


class Play(NamedTuple):
    """A legal play: its die steps and the position after it, with the opponent on roll."""

    steps: tuple[Step, ...]
    position: Position

    @property
    def move(self) -> str:
        """Standard notation as gnubg writes it, e.g. "24/18 13/11" or "bar/22*"."""
        from .notation import format_move

        return format_move(self.steps)


def mover_board(pos: Position, color: Color | None = None) -> list[int]:
    """The 27-int board seen from `color` (default: the player on roll)."""
    color = pos.turn if color is None else color
    sign = color.sign
    if color is WHITE:
        pts = [n * sign for n in pos.points]
    else:
        pts = [n * sign for n in reversed(pos.points)]
    return [pos.off(color), *pts, pos.bar(color), pos.bar(color.other)]


def position_from_mover(b: list[int] | tuple[int, ...], pos: Position) -> Position:
    """The position after the mover (pos.turn) reached board `b`; the opponent is on roll."""
    mover = pos.turn
    if mover is WHITE:
        points = tuple(b[1:25])
        bars = (b[25], b[26])
    else:
        points = tuple(-n for n in reversed(b[1:25]))
        bars = (b[26], b[25])
    return Position.trusted(points, bars[0], bars[1], mover.other, pos.cube, pos.cube_owner)


def single_steps(b: list[int], die: int) -> list[tuple[int, int]]:
    """(start, end) of every checker that may legally move `die` pips on board `b`."""
    if b[BAR] > 0:
        end = BAR - die
        return [(BAR, end)] if b[end] >= -1 else []
    highest = 24
    while highest and b[highest] <= 0:
        highest -= 1
    if highest > 6:
        return [(p, p - die) for p in range(highest, die, -1) if b[p] > 0 and b[p - die] >= -1]
    out = []
    for p in range(highest, 0, -1):
        if b[p] > 0:
            end = p - die
            if end > 0:
                if b[end] >= -1:
                    out.append((p, end))
            elif end == 0 or p == highest:
                out.append((p, OFF))
    return out


def apply_step(b: list[int], start: int, end: int) -> tuple[list[int], bool]:
    """The board after moving one checker from `start` to `end`, and whether it hit."""
    nb = b[:]
    nb[start] -= 1
    if end and nb[end] == -1:
        nb[end] = 1
        nb[26] += 1
        return nb, True
    nb[end] += 1
    return nb, False


Found = dict[tuple[int, ...], tuple[Step, ...]]

# A board's key is sum((b[i] + 16) << 5 * i): exact, and one step changes it by a few terms.
_UNIT = [1 << 5 * i for i in range(27)]
_Level = list[tuple[list[int], int, tuple[Step, ...]]]


def _key(b: list[int]) -> int:
    return sum((n + 16) * unit for n, unit in zip(b, _UNIT, strict=True))


def _expand(level: _Level, die: int) -> dict[int, tuple]:
    """Every distinct board one more `die` step reaches from `level`, by key, with how."""
    deeper: dict[int, tuple] = {}
    unit, hit_extra = _UNIT, _UNIT[26]
    for board, key, steps in level:
        for start, end in single_steps(board, die):
            if end and board[end] == -1:
                child = key - unit[start] + 2 * unit[end] + hit_extra
            else:
                child = key - unit[start] + unit[end]
            if child not in deeper:
                deeper[child] = (board, steps, start, end)
    return deeper


def _materialise(deeper: dict[int, tuple]) -> _Level:
    level = []
    for child, (board, steps, start, end) in deeper.items():
        nb, hit = apply_step(board, start, end)
        level.append((nb, child, (*steps, Step(start, end, hit))))
    return level


def _found(deeper: dict[int, tuple]) -> Found:
    return {tuple(board): steps for board, _, steps in _materialise(deeper)}


def legal_boards(b: list[int], d1: int, d2: int) -> Found:
    """Every distinct end board (mover's view) reachable with dice d1, d2, with one step list.

    As many dice as possible are played; when only one of two different dice can be, the
    larger if it can. A roll that cannot be played at all gives {}.
    """
    root: _Level = [(b, _key(b), ())]
    if d1 == d2:
        level, deeper = root, {}
        for depth in range(4):
            step = _expand(level, d1)
            if not step:
                break
            deeper = step
            if depth < 3:
                level = _materialise(deeper)
        return _found(deeper)
    hi, lo = max(d1, d2), min(d1, d2)
    first = {die: _expand(root, die) for die in (hi, lo)}
    both: dict[int, tuple] = {}
    for die, other in ((hi, lo), (lo, hi)):
        for child, how in _expand(_materialise(first[die]), other).items():
            both.setdefault(child, how)
    return _found(both or first[hi] or first[lo])


def legal_plays(pos: Position, dice: tuple[int, int]) -> list[Play]:
    """All legal plays for `dice`, one per distinct resulting position.

    An empty list means the roll cannot be played at all (the turn passes).
    """
    d1, d2 = _check_dice(dice)
    b = mover_board(pos)
    return [Play(steps, position_from_mover(end, pos))
            for end, steps in legal_boards(b, d1, d2).items()]


def _check_dice(dice) -> tuple[int, int]:
    if len(dice) != 2 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two numbers from 1 to 6, not {dice!r}")
    return dice[0], dice[1]
