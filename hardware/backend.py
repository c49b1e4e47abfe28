"""The interface every output backend (gpio, serial, sim) implements.

A backend only carries out what it is told: plain LED colours in the logical layout order,
a servo angle, and button presses reported back. Blinking, meanings and the cube's face
table live above it, in hardware/.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

RGB = tuple[int, int, int]
BUTTONS = ("double", "take", "pass", "undo", "confirm", "menu")


class Backend(ABC):
    """Where LED colours and the cube angle go, and where button presses come from."""

    def __init__(self) -> None:
        self._button_handler: Callable[[str], None] | None = None

    def on_button(self, handler: Callable[[str], None] | None) -> None:
        """Call `handler(name)` (a name from BUTTONS) on each press; None stops it."""
        self._button_handler = handler

    def _pressed(self, name: str) -> None:
        if self._button_handler is not None:
            self._button_handler(name)

    @abstractmethod
    def show(self, leds: Sequence[RGB]) -> None:
        """Light every LED with these colours (one per LED, layout order)."""

    @abstractmethod
    def turn_cube(self, degrees: float) -> None:
        """Turn the cube servo to `degrees`, slowly, then stop the pulse."""

    def confirmed(self, timeout: float = 2.0) -> bool:
        """True once the device has confirmed everything sent so far (within `timeout` s)."""
        return True

    @abstractmethod
    def close(self) -> None:
        """Turn everything off and release the device. Safe to call twice."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
