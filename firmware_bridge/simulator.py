"""The firmware running in simavr as a child process: its pty, its state file, its buttons.

Tests, benchmarks and tools use it to put the real firmware on the other end of a real pty.
"""

from __future__ import annotations

import json
import signal
import subprocess
import tempfile
from pathlib import Path

from .build import build


class Simulator:
    """`bgboard_sim` on the built firmware; `pty` is the port to open, `link` a stable alias."""

    def __init__(self, state: Path, link: Path | None = None) -> None:
        paths = build()
        self.state_path = Path(state)
        self.link = link
        self._log = tempfile.TemporaryFile(mode="w+")
        args = [str(paths.harness), str(paths.elf), "--state", str(state)]
        if link is not None:
            args += ["--link", str(link)]
        self._process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._log, text=True)
        first = self._process.stdout.readline()
        if not first.startswith("pty: "):
            self.stop()
            raise OSError(f"the simulator did not start: {first!r}")
        self.pty = first[5:].strip()

    def state(self) -> dict:
        """The pins as last decoded: {"leds": [[r, g, b], ...], "servo_deg": a}."""
        return json.loads(self.state_path.read_text())

    def press(self, button: int, held_ms: int = 80) -> None:
        """Press button `button` (0..4) with contact bounce, hold it `held_ms`, release it."""
        self._process.stdin.write(f"press {button} {held_ms}\n")
        self._process.stdin.flush()

    def stop(self) -> str:
        """End the simulation cleanly (SIGTERM); returns its log."""
        return self._end(signal.SIGTERM)

    def unplug(self) -> str:
        """End it abruptly (SIGKILL), as a pulled USB cable; returns its log."""
        return self._end(signal.SIGKILL)

    def _end(self, sig: int) -> str:
        if self._process.poll() is None:
            self._process.send_signal(sig)
        self._process.wait(10)
        self._process.stdin.close()
        self._process.stdout.close()
        self._log.seek(0)
        return self._log.read()

    def __enter__(self) -> Simulator:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
