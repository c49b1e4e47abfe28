"""Legal plays: every distinct position a roll can reach, under all of RULES.md.

Internally a board is a list of 27 ints seen from the mover: index 0 = mover's checkers
borne off, 1..24 = the mover's points (positive = mover's checkers, negative = the
opponent's), 25 = mover's bar, 26 = the opponent's bar. Points in steps are in the
mover's numbering: 25 is the bar, 0 is off.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import WHITE, Color, Position

BAR, OFF = 25, 0


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off)."""

    start: int
    end: int
    hit: bool = False


@dataclass(frozen=True, slots=True)
class Play:
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
    return Position(points, bars[0], bars[1], mover.other, pos.cube, pos.cube_owner)


def single_steps(b: list[int], die: int):
    """Yield (start, end) for every checker that may legally move `die` pips on board `b`."""
    if b[BAR] > 0:
        end = BAR - die
        if b[end] >= -1:
            yield BAR, end
        return
    highest = 0
    for p in range(24, 0, -1):
        if b[p] > 0:
            highest = p
            break
    for p in range(highest, 0, -1):
        if b[p] <= 0:
            continue
        end = p - die
        if end > 0:
            if b[end] >= -1:
                yield p, end
        elif highest <= 6 and (end == 0 or p == highest):
            yield p, OFF


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


def _search(b, dice, steps, floor, found, depth_best):
    """Depth-first search over die orders; records each end board with its steps."""
    if dice:
        die = dice[0]
        moved = False
        for start, end in single_steps(b, die):
            if start > floor:
                continue
            moved = True
            nb, hit = apply_step(b, start, end)
            nxt_floor = start if len(dice) > 1 and dice[1] == die else 25
            _search(nb, dice[1:], steps + (Step(start, end, hit),), nxt_floor, found, depth_best)
        if moved:
            return
    n = len(steps)
    if n < depth_best[0]:
        return
    if n > depth_best[0]:
        depth_best[0] = n
        found.clear()
    found.setdefault(tuple(b), steps)


def legal_boards(b: list[int], d1: int, d2: int) -> dict[tuple[int, ...], tuple[Step, ...]]:
    """Every distinct end board (mover's view) reachable with dice d1, d2, with one step list."""
    found: dict[tuple[int, ...], tuple[Step, ...]] = {}
    best = [0]
    if d1 == d2:
        _search(b, (d1,) * 4, (), 25, found, best)
        return found
    hi, lo = max(d1, d2), min(d1, d2)
    _search(b, (hi, lo), (), 25, found, best)
    _search(b, (lo, hi), (), 25, found, best)
    if best[0] == 1:
        high_steps = set(single_steps(b, hi))
        with_high = {k: s for k, s in found.items() if (s[0].start, s[0].end) in high_steps}
        if with_high:
            return with_high
    return found


def legal_plays(pos: Position, dice: tuple[int, int]) -> list[Play]:
    """All legal plays for `dice`, one per distinct resulting position.

    An empty list means the roll cannot be played at all (the turn passes).
    """
    d1, d2 = _check_dice(dice)
    b = mover_board(pos)
    found = legal_boards(b, d1, d2)
    if not next(iter(found.values()), ()):
        return []
    return [Play(steps, position_from_mover(end, pos)) for end, steps in found.items()]


def _check_dice(dice) -> tuple[int, int]:
    if len(dice) != 2 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two numbers from 1 to 6, not {dice!r}")
    return dice[0], dice[1]
