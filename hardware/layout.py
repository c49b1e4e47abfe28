"""The logical LED layout: which of the 30 LEDs sits where on the board.

Order (index: LED): 0..23 the points 1..24 in White's numbering, 24 bar white, 25 bar black,
26 tray white, 27 tray black, 28 to-play white, 29 to-play black. Every backend (the gpio
shift-register chain, the serial WS2812 strip, the simulator) lights LEDs in this order.
"""

from __future__ import annotations

from ..engine.places import Place, side

SPECIAL = ("bar white", "bar black", "tray white", "tray black", "play white", "play black")
COUNT = 24 + len(SPECIAL)
NAMES = tuple(f"point {p}" for p in range(1, 25)) + SPECIAL


def index(place: Place) -> int:
    """The LED index of a point (1..24, White's numbering) or of a SPECIAL name."""
    if isinstance(place, int) and 1 <= place <= 24:
        return place - 1
    if place in SPECIAL:
        return 24 + SPECIAL.index(place)
    raise ValueError(f"no LED at {place!r} (points are 1..24; or one of {', '.join(SPECIAL)})")


def right_half(colour: object, white_home_right: bool = True) -> list[int]:
    """Points of the half where `colour` must roll: the right-hand half as that player sees it.

    Both homes lie in the same half (points 1..6 and 19..24); it is White's right-hand half
    when White's home is on White's right, and then it is Black's left-hand half.
    """
    home = list(range(1, 7)) + list(range(19, 25))
    if (side(colour) == "white") == white_home_right:
        return home
    return list(range(7, 19))
