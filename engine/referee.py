"""The referee: which legal play a player's move is, or why it is illegal, in plain words.

Reasons name points in the mover's own numbering, as players count them.
"""

from __future__ import annotations

from itertools import accumulate, permutations

from .board import Position
from .moves import BAR, OFF, Play, Step, apply_step, legal_plays, mover_board
from .notation import parse_move


class IllegalMove(ValueError):
    """A move the rules forbid. `points` are the points involved, in the mover's numbering."""

    def __init__(self, reason: str, points: tuple[int, ...] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.points = points


def resolve(pos: Position, dice: tuple[int, int], move: str | list[Step]) -> Play:
    """The legal play that `move` (notation or checker movements) describes for `dice`."""
    spans = parse_move(move) if isinstance(move, str) else list(move)
    plays = legal_plays(pos, dice)
    if not plays:
        raise IllegalMove(f"{_roll(dice)} cannot be played: the turn passes")
    target = _mover_counts_after(pos, spans)
    matches = [p for p in plays if _mover_counts(p.position, pos) == target]
    if not matches:
        raise IllegalMove(*explain(pos, dice, spans))
    marked = {s.end for s in spans if s.hit}
    if len({p.position for p in matches}) > 1:
        matches = [p for p in matches if {s.end for s in p.steps if s.hit} == marked] or matches
    if len({p.position for p in matches}) > 1:
        choices = " or ".join(p.move for p in matches)
        raise IllegalMove(f"ambiguous: say which, {choices}", tuple(s.end for s in spans))
    return matches[0]


def _mover_counts(after: Position, before: Position) -> list[int]:
    """The mover's checkers per own point (0 = off, 25 = bar) in `after`."""
    return [max(n, 0) for n in mover_board(after, before.turn)[:26]]


def _mover_counts_after(pos: Position, spans: list[Step]) -> list[int]:
    counts = [max(n, 0) for n in mover_board(pos)[:26]]
    for s in spans:
        if counts[s.start] <= 0:
            where = "on the bar" if s.start == BAR else f"on point {s.start}"
            raise IllegalMove(f"there is no checker of yours {where}", (s.start,))
        counts[s.start] -= 1
        counts[s.end] += 1
    return counts


def explain(pos: Position, dice: tuple[int, int], spans: list[Step]) -> tuple[str, tuple]:
    """Why `spans` is not a legal play: (reason, points involved)."""
    b = mover_board(pos)
    pool = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice, reverse=True)
    for span in sorted(spans, key=lambda s: (s.start, s.end), reverse=True):
        problem = _step_problem(b, span, pool)
        if problem:
            return problem
        b = _walk(b, span, pool)
    return _shortfall(pos, dice), ()


def _step_problem(b: list[int], span: Step, pool: list[int]) -> tuple[str, tuple] | None:
    start, end = span.start, span.end
    if b[BAR] > 0 and start != BAR:
        return "a checker on the bar must enter first", (start,)
    if end >= start:
        return f"checkers move forward, toward your home: {start}/{end} goes backwards", (start,)
    if end and b[end] <= -2:
        return f"point {end} is blocked", (end,)
    if not pool:
        return f"no dice left for {_span(span)}", (start, end)
    if end == OFF:
        return _bear_off_problem(b, start, pool)
    if _route(b, start, end, pool) is None:
        blocked = _blocked_on_the_way(b, start, end, pool)
        if blocked:
            where = " and ".join(str(p) for p in blocked)
            return f"{_span(span)} is blocked on the way, at {where}", (start, *blocked)
        dist = start - end
        return f"{_span(span)} is {dist} pips; the dice left are {_dice_text(pool)}", (start, end)
    return None


def _blocked_on_the_way(b: list[int], start: int, end: int, pool: list[int]) -> list[int]:
    """The first blocked point of each order of dice that adds up to `start - end`."""
    blocked: set[int] = set()
    for order in set(permutations(pool)):
        stops = list(accumulate(order))
        if start - end in stops:
            for total in stops[:stops.index(start - end)]:
                if b[start - total] <= -2:
                    blocked.add(start - total)
                    break
    return sorted(blocked, reverse=True)


def _bear_off_problem(b: list[int], start: int, pool: list[int]) -> tuple[str, tuple] | None:
    outside = [p for p in range(BAR, 6, -1) if b[p] > 0]
    if outside:
        where = "the bar" if outside[0] == BAR else f"point {outside[0]}"
        return (f"you cannot bear off while a checker is outside your home board ({where})",
                (start, outside[0]))
    if start in pool or any(d > start for d in pool):
        higher = [p for p in range(6, start, -1) if b[p] > 0]
        if start not in pool and higher:
            return (f"a {max(pool)} bears off only from your highest point ({higher[0]})",
                    (start, higher[0]))
        return None
    return f"{start}/off needs a {start} or higher; the dice left are {_dice_text(pool)}", (start,)


def _route(b: list[int], start: int, end: int, pool: list[int]) -> list[int] | None:
    """Dice from `pool` that take one checker from `start` to `end` over open points."""
    dist = start - end
    if dist in pool:
        return [dist]
    for die in dict.fromkeys(pool):
        mid = start - die
        if mid > end and b[mid] >= -1:
            rest = pool.copy()
            rest.remove(die)
            tail = _route(b, mid, end, rest)
            if tail is not None:
                return [die, *tail]
    return None


def _walk(b: list[int], span: Step, pool: list[int]) -> list[int]:
    """Move the checker of `span` on `b`, using up the dice it takes from `pool`."""
    if span.end == OFF:
        die = span.start if span.start in pool else max(pool)
        pool.remove(die)
        return apply_step(b, span.start, OFF)[0]
    point = span.start
    for die in _route(b, span.start, span.end, pool) or []:
        pool.remove(die)
        b = apply_step(b, point, point - die)[0]
        point -= die
    return b


def _shortfall(pos: Position, dice: tuple[int, int]) -> str:
    """The reason for a play that stops while dice could still be played."""
    most = max(len(p.steps) for p in legal_plays(pos, dice))
    if dice[0] == dice[1]:
        return f"{most} moves of {dice[0]} must be played, as many as possible"
    if most == 2:
        return "both dice must be played"
    return f"the {max(dice)} must be played"


def _roll(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"


def _dice_text(pool: list[int]) -> str:
    return ", ".join(str(d) for d in pool)


def _span(span: Step) -> str:
    names = {BAR: "bar", OFF: "off"}
    return f"{names.get(span.start, span.start)}/{names.get(span.end, span.end)}"
