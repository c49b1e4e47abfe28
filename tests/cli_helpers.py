"""Running `bgboard` as a user runs it: a subprocess of this Python, output captured."""

from __future__ import annotations

import subprocess
import sys

BGBOARD = [sys.executable, "-m", "bgboard.controller.cli"]


def bgboard(*args: str, stdin: str | None = None, timeout: float = 120,
            **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*BGBOARD, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, **kwargs)
