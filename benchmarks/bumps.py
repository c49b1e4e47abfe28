"""The field followed through a bumped camera (vision.steady.FieldWatch), on filmed games.

    python benchmarks/bumps.py [--films game2 game3 game4 game7 game8 logo marble plain turned]

Each filmed game (benchmarks/films.py: the five classic films and those in looks held out of
all training; hands, dice, every checker moving) is watched frame by frame; from its middle
frame on, every frame is seen by a camera turned and shifted (the bumps below, one run each).
Printed per bump, a Markdown row: films where the bump was followed within a second (FOLLOW
frames at 10 a second), the most frames it took, false alarms (changes said anywhere else),
the largest error of the corners it reads through once it followed, in pixels (1280x720
frames; a bump under a quarter of a point's width is no change: the corners stay), and the
median time the watch took per frame on this machine.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from bgboard.benchmarks.films import NAMES, film, seed_of
from bgboard.calibration.file import CORNERS, from_dict
from bgboard.controller.demo.film import film_calibration, render_frames
from bgboard.vision.steady import FieldWatch

BUMPS = ((0.5, 8, 0), (1.5, 20, -10), (0.0, -60, 25), (4.0, 90, 40))  # degrees, dx, dy
FOLLOW = 10  # frames: a bump is followed within a second


def bumped(bump: tuple[float, float, float]) -> np.ndarray:
    """The 2x3 map of a camera turned by bump[0] degrees about the frame's middle and shifted
    by bump[1:] pixels."""
    m = cv2.getRotationMatrix2D((640, 360), bump[0], 1.0)
    m[:, 2] += bump[1:]
    return m


def watch_film(name: str, bump: tuple[float, float, float]) -> dict:
    """One film watched with the bump from its middle frame on."""
    shot = film(name)
    cal = from_dict(film_calibration(shot))
    middle, m = shot.frames // 2, bumped(bump)
    truth = cv2.transform(np.float32([cal.corners_px[k] for k in CORNERS])[None], m)[0]
    watch, said, times, error = FieldWatch(cal), [], [], 0.0
    for index, frame in enumerate(render_frames(shot, seed_of(name))):
        if index >= middle:
            frame = cv2.warpAffine(frame, m, (1280, 720), borderMode=cv2.BORDER_REPLICATE)
        start = time.perf_counter()
        change = watch.update(frame)
        times.append(time.perf_counter() - start)
        if change is not None:
            said.append(index)
        if said and said[0] >= middle and not watch.lost:
            used = watch.corners / watch.k
            error = max(error, float(np.linalg.norm(used - truth, axis=1).max()))
    followed = [i for i in said if middle <= i < middle + FOLLOW]
    return {"frames": shot.frames, "seen": bool(followed) and not watch.lost,
            "after": followed[0] - middle if followed else None,
            "false": len(said) - len(followed[:1]), "error": error,
            "ms": 1000 * float(np.median(times))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--films", nargs="+", default=list(NAMES), choices=NAMES)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print("| bump (turn, shift) | films | followed within a second | most frames it took "
          "| false alarms (frames) | largest error of the corners in use | median ms a frame |")
    print("|---|---|---|---|---|---|---|")
    for bump in BUMPS:
        runs = [watch_film(name, bump) for name in args.films]
        frames = sum(r["frames"] for r in runs)
        took = [r["after"] for r in runs if r["after"] is not None]
        print(f"| {bump[0]} deg, ({bump[1]}, {bump[2]}) px | {len(runs)} "
              f"| {sum(r['seen'] for r in runs)} of {len(runs)} "
              f"| {max(took, default='-')} "
              f"| {sum(r['false'] for r in runs)} ({frames}) "
              f"| {max(r['error'] for r in runs):.1f} px "
              f"| {np.median([r['ms'] for r in runs]):.1f} |", flush=True)


if __name__ == "__main__":
    main()
