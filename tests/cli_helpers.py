"""Running `bgboard` as a user runs it: a subprocess of this Python, output captured."""

from __future__ import annotations

import subprocess
import sys

BGBOARD = [sys.executable, "-m", "bgboard.controller.cli"]
# A calibration of a 1280x720 camera over the whole board (the `cal` fixture writes it).
CAL = {"version": 1, "image_size": [1280, 720],
       "corners_px": {"p1": [1100, 640], "p12": [180, 640], "p13": [180, 80],
                      "p24": [1100, 80]}}


def bgboard(*args: str, stdin: str | None = None, timeout: float = 120,
            **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*BGBOARD, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, **kwargs)
