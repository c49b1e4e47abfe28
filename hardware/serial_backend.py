"""The serial backend: LEDs, cube and buttons on a USB microcontroller running bgboard's firmware.

All the work happens in the firmware_bridge link thread, so nothing here blocks: `show` and
`turn_cube` only say what the board should show (a frame replaces one not yet sent); the link
sends what changed, resends, reconnects and restores the state by itself.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..firmware_bridge.link import Link, LinkEvent
from .backend import BUTTONS, RGB, Backend

log = logging.getLogger(__name__)


class SerialBackend(Backend):
    """The board on `port` (a device path), or found by USB ID when port is "auto" or None."""

    def __init__(self, port: str | None = None,
                 on_event: Callable[[LinkEvent], None] | None = None) -> None:
        super().__init__()
        if port in ("", "auto"):
            port = None
        if port is not None and not Path(port).exists():
            raise OSError(f"{port}: no such serial port")
        self._servo_set = False
        self._link = Link(port, on_event=on_event or self._log_event, on_button=self._button)

    @property
    def link(self) -> Link:
        """The link underneath: status, statistics, the board's HELLO and state queries."""
        return self._link

    def show(self, leds: Sequence[RGB]) -> None:
        """Show this frame (at most 30 LEDs) on the board, instead of any not yet shown."""
        self._link.set_leds(leds)

    def turn_cube(self, degrees: float) -> None:
        """Turn the cube to this angle; the firmware turns it slowly, then stops the pulse."""
        self._link.set_servo(degrees)
        self._servo_set = True

    def confirmed(self, timeout: float = 2.0) -> bool:
        """True once the board acknowledged the latest frame and angle and the cube stands
        still."""
        deadline = time.monotonic() + timeout
        if not self._link.wait_confirmed(timeout):
            return False
        while self._servo_set:
            try:
                state = self._link.query_state(max(deadline - time.monotonic(), 0.01))
            except TimeoutError:
                return False
            if state.settled:
                break
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return self._link.wait_confirmed(max(deadline - time.monotonic(), 0))

    def close(self) -> None:
        """Release the port; the firmware turns LEDs and servo off after its silence timeout."""
        self._link.close()

    def _button(self, index: int) -> None:
        if index < len(BUTTONS):
            self._pressed(BUTTONS[index])

    @staticmethod
    def _log_event(event: LinkEvent) -> None:
        log.info("serial link %s %s", event.status, event.detail)
