"""Standard move notation: "24/18 13/11", "bar/22*", "6/off", "8/5(2)", "24/18/13".

Points are in the mover's numbering; `bar` is 25 and `off` is 0. `format_move` writes what
gnubg's FormatMove writes; `format_plain` writes the .mat form (one step per die, 25/0).
"""

from __future__ import annotations

import re

from .moves import BAR, OFF, Step

_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d+)\))?$")
_NAMES = {"bar": BAR, "b": BAR, "off": OFF, "o": OFF}


def parse_move(text: str) -> list[Step]:
    """The checker movements of a move text, one Step per `a/b` segment, repeats expanded.

    A segment may span several dice ("24/14"); `*` after a point marks a hit there. Raises
    ValueError naming the first bad token.
    """
    spans: list[Step] = []
    for token in text.replace(",", " ").split():
        match = _TOKEN.match(token)
        count = int(match["count"]) if match and match["count"] else 1
        if not match or not 1 <= count <= 4:
            raise ValueError(f"bad move token {token!r}")
        points = [_point(part, token) for part in match["path"].split("/")]
        if len(points) < 2:
            raise ValueError(f"bad move token {token!r}: a move needs from/to")
        path = [Step(a[0], b[0], b[1]) for a, b in zip(points, points[1:], strict=False)]
        for step in path:
            if step.end == BAR:
                raise ValueError(f"bad move token {token!r}: nothing moves to the bar")
            if step.start == OFF:
                raise ValueError(f"bad move token {token!r}: nothing moves from off")
        spans += path * count
    if not spans:
        raise ValueError("empty move")
    if len(spans) > 4 * 4:
        raise ValueError(f"too many checker movements in {text!r}")
    return spans


def _point(part: str, token: str) -> tuple[int, bool]:
    hit = part.endswith("*")
    name = part.rstrip("*").lower()
    if name in _NAMES:
        return _NAMES[name], hit
    if name.isdigit() and 0 <= int(name) <= 25:
        return int(name), hit
    raise ValueError(f"bad move token {token!r}: {part!r} is not a point")


def _name(point: int) -> str:
    return {BAR: "bar", OFF: "off"}.get(point, str(point))


def format_move(steps: tuple[Step, ...] | list[Step]) -> str:
    """gnubg's FormatMove: sources descending, one checker's steps merged (intermediate
    points kept only where they hit), identical moves as `(n)`, `*` once per hit point."""
    hits = {s.end for s in steps if s.hit}
    chains = [[s.start, s.end] for s in sorted(steps, key=lambda s: (s.start, s.end),
                                               reverse=True)]
    for i, chain in enumerate(chains):
        for j in range(i + 1, len(chains)):
            if chain and chains[j] and chain[-1] == chains[j][0]:
                if chain[-1] in hits:
                    chain.append(chains[j][-1])
                else:
                    chain[-1] = chains[j][-1]
                chains[j] = []
    chains = [c for c in chains if c]
    out: list[str] = []
    starred: set[int] = set()
    while chains:
        chain = chains.pop(0)
        repeats = 1 + sum(1 for c in chains if c == chain)
        chains = [c for c in chains if c != chain]
        text = _name(chain[0])
        for point in chain[1:]:
            text += "/" + _name(point)
            if point in hits and point not in starred:
                text += "*"
                starred.add(point)
        out.append(text + (f"({repeats})" if repeats > 1 else ""))
    return " ".join(out)


def format_plain(steps: tuple[Step, ...] | list[Step]) -> str:
    """The .mat form: one `from/to` per die step, numbers only, `*` on hitting steps."""
    ordered = sorted(steps, key=lambda s: (s.start, s.end), reverse=True)
    return " ".join(f"{s.start}/{s.end}{'*' if s.hit else ''}" for s in ordered)
