"""A filmed game's calibration and button presses written as the CLI reads them."""

from __future__ import annotations

import json
from pathlib import Path

from bgboard.controller.demo.film import Film, learned_calibration


def write_calibration(film: Film, path: Path, seed: int = 0) -> Path:
    """The calibration `bgboard calibrate` would write: corners and learned colours."""
    path.write_text(json.dumps(learned_calibration(film, seed)))
    return path


def write_events(film: Film, path: Path) -> Path:
    path.write_text("".join(json.dumps({"frame": f, "button": b}) + "\n"
                            for f, b in sorted(film.buttons.items())))
    return path
