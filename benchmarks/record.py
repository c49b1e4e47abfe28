"""Recording speed and accuracy: filmed games -> video files -> `record` (vision on every
frame, then the controller). Prints frames per second and the speed over real time (the
films run at 10 frames a second), and whether every turn was recorded right.

    python benchmarks/record.py [--games 3] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import cv2

from bgboard.calibration.file import from_dict
from bgboard.controller.frames import open_recording
from bgboard.controller.recorder import record
from bgboard.controller.script import film_match, learned_calibration, write_video
from bgboard.vision.read import Reader


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="processes rendering films")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"{'game':>5} {'turns':>6} {'frames':>7} {'fps':>7} {'x real time':>11}  right")
    total_frames = total_time = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(2, 2 + args.games):
            film = film_match(seed, games=1)
            video = write_video(film, Path(tmp) / f"game{seed}.avi", seed, args.workers)
            calibration = learned_calibration(film, seed)
            reader = Reader(from_dict(calibration))
            source = open_recording(str(video))
            start = time.process_time()
            result = record(source, reader.read, calibration=calibration,
                            buttons=film.buttons)
            took = time.process_time() - start
            turns = sum(1 for a in film.match.games[0].record if a.kind == "move")
            right = result.match.games[0].record == film.match.games[0].record
            fps = result.frames / took
            print(f"{seed:>5} {turns:>6} {result.frames:>7} {fps:>7.1f} {fps / 10:>11.1f}  "
                  f"{'yes' if right else 'NO'}")
            total_frames += result.frames
            total_time += took
    print(f"all: {total_frames / total_time:.1f} frames per second of CPU time on one core, "
          f"{total_frames / total_time / 10:.1f} x real time (aim: at least 5 x)")


if __name__ == "__main__":
    main()
