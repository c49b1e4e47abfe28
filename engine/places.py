"""Places on the board, and the checker moves that turn one board into another.

A place is a point 1..24 in White's numbering, or a name: "bar white", "bar black",
"tray white", "tray black" (and, for the LEDs, "play white", "play black"). The engine numbers
points from the mover's side (25 = bar, 0 = off); `mover_place` and `mover_point` convert.
Pure board arithmetic: the reconciler says where a board differs in places, and the LED
layout (hardware/layout.py) lights places.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Place = int | str
"""A point 1..24 in White's numbering, or one of the names in hardware.layout.SPECIAL."""

SIDES = ("white", "black")


def side(colour: object) -> str:
    """'white' or 'black' for an engine Color (or the strings themselves)."""
    name = str(getattr(colour, "name", colour)).lower()
    if name not in SIDES:
        raise ValueError(f"not a side: {colour!r} (use white or black)")
    return name


def mover_place(point: int, colour: object) -> Place:
    """The place of a point in the mover's numbering (25 = bar, 0 = off)."""
    name = side(colour)
    if point == 25:
        return f"bar {name}"
    if point == 0:
        return f"tray {name}"
    return point if name == "white" else 25 - point


def mover_point(place: Place, colour: object) -> int:
    """The point in the mover's numbering (25 = bar, 0 = off) of a place; inverse of mover_place."""
    for point in range(26):
        if mover_place(point, colour) == place:
            return point
    raise ValueError(f"{place!r} is not a place {side(colour)} can move from or to")


def corrections(seen: Mapping[str, Any], expected: Mapping[str, Any]) -> list[tuple[Place, Place]]:
    """The (from, to) checker moves that turn board `seen` into `expected`.

    Boards as DESIGN.md's board array (`points`, `bar`, `off`), e.g. an Observation and
    `Position.to_dict()`. Each colour's extra checkers are paired in order along its way
    home with the places that miss one, so the moves are as short as can be.
    """
    moves = []
    for colour in ("white", "black"):
        extra, missing = [], []
        for point in range(26):
            have, want = (_count(board, colour, point) for board in (seen, expected))
            extra += [point] * (have - want)
            missing += [point] * (want - have)
        moves += [(mover_place(a, colour), mover_place(b, colour))
                  for a, b in zip(extra, missing, strict=False)]
    return moves


def _count(board: Mapping[str, Any], colour: str, point: int) -> int:
    """`colour`'s checkers on its own point (25 = bar, 0 = off) of a board array."""
    if point in (0, 25):
        return board["off" if point == 0 else "bar"][colour]
    n = board["points"][mover_place(point, colour) - 1]
    return max(n if colour == "white" else -n, 0)
