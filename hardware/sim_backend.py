"""The sim backend: a board in the terminal (ANSI colours) and as a picture, no hardware.

It keeps what it was told (`leds`, `angle`) for the demo, the web view and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

import numpy as np

from .backend import RGB, Backend
from .config import Servo
from .layout import COUNT
from .led_pattern import OFF
from .render import led_image, led_text


class SimBackend(Backend):
    """Draws every change to `out` (None: draw nothing); `servo` names the cube faces."""

    def __init__(self, out: TextIO | None = None, servo: Servo | None = None) -> None:
        super().__init__()
        self.out = out
        self.servo = servo
        self.leds: list[RGB] = [OFF] * COUNT
        self.angle: float | None = None
        self.closed = False

    def show(self, leds: Sequence[RGB]) -> None:
        if len(leds) != COUNT:
            raise ValueError(f"a frame needs {COUNT} LED colours, got {len(leds)}")
        self.leds = [tuple(c) for c in leds]
        self._draw()

    def turn_cube(self, degrees: float) -> None:
        self.angle = degrees
        self._draw()

    @property
    def face(self) -> int | None:
        """The cube face at the current angle, if the servo table has one there."""
        faces = self.servo.faces.items() if self.servo else ()
        return next((f for f, a in faces if a == self.angle), None)

    def image(self, points: Sequence[int] = (0,) * 24, bar=None, off=None, *,
              width: int = 960, height: int = 600) -> np.ndarray:
        """The board diagram (BGR) of a position with these LEDs and the cube drawn on it."""
        return led_image(self.leds, points, bar, off, self.face, width=width, height=height)

    def close(self) -> None:
        """All LEDs off (drawn once more)."""
        if not self.closed:
            self.closed = True
            self.leds = [OFF] * COUNT
            self._draw()

    def _draw(self) -> None:
        if self.out is None:
            return
        cube = "" if self.angle is None else f"{self.angle:g}\u00b0"
        if self.face is not None:
            cube = f"{self.face} ({cube})"
        self.out.write(led_text(self.leds, cube) + "\n\n")
        self.out.flush()
