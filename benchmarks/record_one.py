"""One video recorded as `bgboard record` records it, by whichever bgboard is first on the
import path: benchmarks/record.py runs it in a process of its own, once for this tree and once
for `--against TREE`. It imports only what every version since the field watch has (no
bgboard.benchmarks), so that an older checkout can run it.

    python benchmarks/record_one.py VIDEO CALIBRATION.json BUTTONS.json

Prints one JSON line: frames, CPU seconds of the recording, and the first game's actions.
"""

from __future__ import annotations

import json
import sys
import time

import cv2

from bgboard.calibration.file import from_dict
from bgboard.controller.frames import open_recording
from bgboard.controller.recorder import record
from bgboard.vision.steady import SteadyReader


def actions(game) -> list:
    """A game's actions as JSON: kind, dice, play."""
    return [[a.kind, list(a.dice) if a.dice else None, a.play.move if a.play else None]
            for a in game.record]


def main() -> None:
    video, calibration, buttons = sys.argv[1:4]
    cv2.setNumThreads(1)
    cal = json.loads(open(calibration).read())
    pressed = {int(k): v for k, v in json.loads(open(buttons).read()).items()}
    reader = SteadyReader(from_dict(cal))
    start = time.process_time()
    result = record(open_recording(video), reader.read, calibration=cal, buttons=pressed)
    print(json.dumps({"frames": result.frames, "cpu": time.process_time() - start,
                      "actions": actions(result.match.games[0])}))


if __name__ == "__main__":
    main()
