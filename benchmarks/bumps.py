"""The field followed through a bumped camera (vision.steady.FieldWatch), on filmed games.

    python benchmarks/bumps.py [--seeds 2 3 4 7 8]

Each filmed game (the project's renderer, as tests/test_controller_video.py films them: hands,
dice, every checker moving) is watched frame by frame; from its middle frame on, every frame
is seen by a camera turned and shifted (the bumps below, one run each). Printed per bump, a
Markdown row: films where the bump was seen at its very frame, false alarms (changes said
anywhere else), the largest error of the corners it reads through after the bump, in pixels
(1280x720 frames; a bump under a quarter of a point's width is no change: the corners stay),
and the median time the watch took per frame on this machine.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from bgboard.calibration.file import CORNERS, from_dict
from bgboard.controller.script import film_calibration, film_match, render_frames
from bgboard.vision.steady import FieldWatch

BUMPS = ((0.5, 8, 0), (1.5, 20, -10), (0.0, -60, 25), (4.0, 90, 40))  # degrees, dx, dy


def watch_film(seed: int, bump: tuple[float, float, float]) -> dict:
    """One film watched with the bump from its middle frame on."""
    film = film_match(seed, games=1)
    cal = from_dict(film_calibration(film))
    middle = film.frames // 2
    m = cv2.getRotationMatrix2D((640, 360), bump[0], 1.0)
    m[:, 2] += bump[1:]
    truth = cv2.transform(np.float32([cal.corners_px[k] for k in CORNERS])[None], m)[0]
    watch, said, times, error = FieldWatch(cal), [], [], 0.0
    for index, frame in enumerate(render_frames(film, seed)):
        if index >= middle:
            frame = cv2.warpAffine(frame, m, (1280, 720), borderMode=cv2.BORDER_REPLICATE)
        start = time.perf_counter()
        change = watch.update(frame)
        times.append(time.perf_counter() - start)
        if change is not None:
            said.append(index)
        if index >= middle and not watch.lost:
            used = watch.corners / watch.k
            error = max(error, float(np.linalg.norm(used - truth, axis=1).max()))
    return {"frames": film.frames, "seen": said[:1] == [middle] and watch.lost is False,
            "false": len([i for i in said if i != middle]), "error": error,
            "ms": 1000 * float(np.median(times))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[2, 3, 4, 7, 8])
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print("| bump (turn, shift) | films | bump seen at its frame | false alarms (frames) "
          "| largest error of the corners in use | median ms a frame |")
    print("|---|---|---|---|---|---|")
    for bump in BUMPS:
        runs = [watch_film(seed, bump) for seed in args.seeds]
        frames = sum(r["frames"] for r in runs)
        print(f"| {bump[0]} deg, ({bump[1]}, {bump[2]}) px | {len(runs)} "
              f"| {sum(r['seen'] for r in runs)} of {len(runs)} "
              f"| {sum(r['false'] for r in runs)} ({frames}) "
              f"| {max(r['error'] for r in runs):.1f} px "
              f"| {np.median([r['ms'] for r in runs]):.1f} |", flush=True)


if __name__ == "__main__":
    main()
