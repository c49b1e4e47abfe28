"""LED patterns: what every LED shows over time, and which face the cube turns to.

Each LED has a cycle: the colours it shows for one TICK each, repeated (a steady light is a
one-colour cycle). Cycles replace blink flags and also carry ordered sequences, such as the
tutor's play shown step by step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine.places import Place
from .layout import COUNT, index

RGB = tuple[int, int, int]
Cycle = tuple[RGB, ...]
OFF: RGB = (0, 0, 0)
TICK = 0.125
"""Seconds per step of a cycle."""


def steady(colour: RGB) -> Cycle:
    """Always on."""
    return (colour,)


def blink(colour: RGB) -> Cycle:
    """Half a second on, half a second off."""
    return (colour,) * 4 + (OFF,) * 4


def flash(colour: RGB) -> Cycle:
    """Fast blinking, four times a second: an alarm."""
    return (colour, OFF)


def double_flash(colour: RGB) -> Cycle:
    """Two short flashes, then a pause: an acknowledgement."""
    return (colour, OFF, colour) + (OFF,) * 5


def wink(colour: RGB) -> Cycle:
    """On, with a short dark wink once a second."""
    return (colour,) * 7 + (OFF,)


def rgb(value: object) -> RGB:
    """A checked colour: three ints 0..255."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 3
        or not all(type(c) is int and 0 <= c <= 255 for c in value)
    ):
        raise ValueError(f"not an RGB colour (three integers 0..255): {value!r}")
    return (value[0], value[1], value[2])


@dataclass(frozen=True)
class LedPattern:
    """A full set of LED cycles in layout order, plus the cube face (None: leave the cube)."""

    lights: tuple[Cycle, ...] = ((OFF,),) * COUNT
    cube: int | None = None

    @classmethod
    def plain(cls, leds: Sequence[object], cube: int | None = None) -> LedPattern:
        """A steady pattern from one colour per LED (checked: exactly COUNT RGB triples)."""
        if len(leds) != COUNT:
            raise ValueError(f"a frame needs {COUNT} LED colours, got {len(leds)}")
        return cls(tuple((rgb(c),) for c in leds), cube)

    def lit(self, places: Iterable[Place], cycle: Cycle) -> LedPattern:
        """This pattern with the LEDs at `places` showing `cycle`."""
        lights = list(self.lights)
        for i in {index(p) for p in places}:
            lights[i] = cycle
        return LedPattern(tuple(lights), self.cube)

    def at(self, tick: int) -> tuple[RGB, ...]:
        """The plain colours shown during step `tick` (counted from when the pattern was shown)."""
        return tuple(c[tick % len(c)] for c in self.lights)

    def __or__(self, top: LedPattern) -> LedPattern:
        """`top` laid over this pattern: its lit LEDs and its cube win."""
        pairs = zip(self.lights, top.lights, strict=True)
        lights = tuple(b if any(c != OFF for c in b) else a for a, b in pairs)
        return LedPattern(lights, self.cube if top.cube is None else top.cube)


DARK = LedPattern()
