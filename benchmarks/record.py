"""Recording speed and accuracy: filmed games -> video files -> what `bgboard record` does
(vision on every frame through the field watch, vision.steady.SteadyReader, then the
controller). Prints frames per second and the speed over real time (the films run at 10
frames a second), and whether every turn was recorded right.

    python benchmarks/record.py [--films game2 game3 game4 logo] [--workers 2]

The films are benchmarks/films.py's (the classic ones and those in looks held out of all
training). To compare two versions in one run, run it again with the other tree first on
PYTHONPATH (docs/recording.md shows how).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import cv2

from bgboard.benchmarks.films import NAMES, film, seed_of
from bgboard.calibration.file import from_dict
from bgboard.controller.demo.film import learned_calibration, write_video
from bgboard.controller.frames import open_recording
from bgboard.controller.recorder import record
from bgboard.vision.steady import SteadyReader


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--films", nargs="+", choices=NAMES,
                        default=["game2", "game3", "game4", "logo"])
    parser.add_argument("--workers", type=int, default=2, help="processes rendering films")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"{'film':>6} {'turns':>6} {'frames':>7} {'fps':>7} {'x real time':>11}  right")
    total_frames = total_time = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.films:
            shot, seed = film(name), seed_of(name)
            video = write_video(shot, Path(tmp) / f"{name}.avi", seed, args.workers)
            calibration = learned_calibration(shot, seed)
            reader = SteadyReader(from_dict(calibration))
            source = open_recording(str(video))
            start = time.process_time()
            result = record(source, reader.read, calibration=calibration,
                            buttons=shot.buttons)
            took = time.process_time() - start
            turns = sum(1 for a in shot.match.games[0].record if a.kind == "move")
            right = result.match.games[0].record == shot.match.games[0].record
            fps = result.frames / took
            print(f"{name:>6} {turns:>6} {result.frames:>7} {fps:>7.1f} {fps / 10:>11.1f}  "
                  f"{'yes' if right else 'NO'}", flush=True)
            total_frames += result.frames
            total_time += took
    print(f"all: {total_frames / total_time:.1f} frames per second of CPU time on one core, "
          f"{total_frames / total_time / 10:.1f} x real time (aim: at least 5 x)")


if __name__ == "__main__":
    main()
