"""The compositor: turns LedPatterns (cycles, a cube value) into timed plain-colour updates.

Only changes reach the backend: a colour list that differs from the last one sent, a cube
value that differs from the last one turned to.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from .backend import Backend
from .config import Servo
from .led_pattern import DARK, RGB, TICK, LedPattern

CLOSE_WAIT = 1.0  # s for the device to confirm the dark frame on close


class Display:
    """Shows LedPatterns on a backend: `show(pattern)`, then `update()` every tick (or `start()`).
    `on_sent(colours)` hears each set of colours sent (the web view shows them)."""

    def __init__(self, backend: Backend, servo: Servo,
                 clock: Callable[[], float] = time.monotonic,
                 on_sent: Callable[[tuple[RGB, ...]], None] | None = None) -> None:
        self.backend = backend
        self._on_sent = on_sent
        self._servo = servo
        self._clock = clock
        self._lock = threading.Lock()
        self._pattern = DARK
        self._since = clock()
        self._sent: tuple[RGB, ...] | None = None
        self._cube: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def show(self, pattern: LedPattern) -> None:
        """Show `pattern` from now on: its cycles start at their first step."""
        if pattern.cube is not None:
            self._servo.angle(pattern.cube)  # refuse an unknown face before anything changes
        with self._lock:
            self._pattern, self._since = pattern, self._clock()
        self.update()

    def update(self) -> None:
        """Send the colours of the current step and the cube face, if they changed."""
        with self._lock:
            tick = int((self._clock() - self._since) / TICK + 1e-9)
            leds = self._pattern.at(tick)
            if leds != self._sent:
                self.backend.show(leds)
                self._sent = leds
                if self._on_sent is not None:
                    self._on_sent(leds)
            cube = self._pattern.cube
            if cube is not None and cube != self._cube:
                self.backend.turn_cube(self._servo.angle(cube))
                self._cube = cube

    def start(self) -> None:
        """Keep the pattern's cycles running in a background thread until close()."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the cycles, go dark (confirmed by the device within CLOSE_WAIT s), then close
        the backend: a board on a serial link would otherwise keep its last frame a while."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.show(DARK)
        self.backend.confirmed(CLOSE_WAIT)
        self.backend.close()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stop.wait(TICK - (self._clock() - self._since) % TICK):
            self.update()
