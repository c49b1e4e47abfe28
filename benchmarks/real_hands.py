"""Hands over real boards: a short film made of each labelled real board photo, read as a
camera's frames are read, with arms drawn into some frames.

    python benchmarks/real_hands.py [--fold N ...] [--arms N] [--learned] [--list]

There is no real film of a hand over a real board here, so each whole-field photo of
benchmarks/data/real_boards.json (its chosen copy) becomes one: the photo, then frames of it
as a camera sees the same board a moment later (the light 10% up or down, a slight slope of
light across it, sensor noise, a shift under a pixel, JPEG; `vision.hand.SETTLE` of them, as
many as a reader may take to settle on a board whose band it flags by itself), then `--arms`
frames with an arm drawn reaching over the field from outside the picture
(`vision.synthetic.draw_arm`, the renders' arms: skin colours, a hand, its shadow), each followed
by a clear frame. Two readings of every film: by one `Reader` for the film, as `bgboard play`
and `record` read (each frame judged against the last one seen clear), and each frame alone,
as a photo is (a new Reader a frame). The board, its frame and its light are real; the arms
are drawn. Printed: the first frames (the photo and its SETTLE copies) flagged, clear frames
after them flagged as a hand, arm frames flagged. `--learned` calibrates from the photo first
where it shows the start position and `vision.learn` can learn it (colours, the frame band),
as `bgboard calibrate` does; otherwise through the minimal calibration users give (corners
only).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from bgboard.benchmarks.label_real_boards import PHOTOS, calibration, load_labels
from bgboard.benchmarks.real_boards import OneLineParser
from bgboard.calibration.file import CORNERS
from bgboard.engine.board import START_POINTS
from bgboard.vision.hand import NET_MODEL, SETTLE
from bgboard.vision.learn import learn
from bgboard.vision.read import Reader
from bgboard.vision.synthetic import draw_arm


def later(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same board a moment later as a camera sees it: light 10% up or down with a slight
    slope across the picture, sensor noise, a shift under a pixel, JPEG at 80-95."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    slope = rng.uniform(-0.05, 0.05, 2)
    gain = rng.uniform(0.9, 1.1) * (1 + slope[0] * (xx / w - 0.5) + slope[1] * (yy / h - 0.5))
    out = image.astype(np.float32) * gain[..., None] + rng.normal(0, 2.5, image.shape)
    shift = np.float32([[1, 0, rng.uniform(-0.7, 0.7)], [0, 1, rng.uniform(-0.7, 0.7)]])
    out = cv2.warpAffine(np.clip(out, 0, 255).astype(np.uint8), shift, (w, h),
                         borderMode=cv2.BORDER_REPLICATE)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def with_arm(image: np.ndarray, corners: dict, rng: np.random.Generator) -> np.ndarray:
    """A later frame of `image` with an arm reaching over the field (`corners` as labelled)."""
    rgb = image[..., ::-1].astype(np.float32)
    draw_arm(rgb, rng, [corners[k] for k in CORNERS])
    return later(np.clip(rgb, 0, 255).astype(np.uint8)[..., ::-1].copy(), rng)


def film(image: np.ndarray, corners: dict, arms: int, seed: int) -> list[tuple[np.ndarray, bool]]:
    """(frame, an arm drawn in it): the photo, SETTLE later clear frames, then `arms` times an
    arm frame followed by a clear one."""
    rng = np.random.default_rng(seed)
    frames = [(image, False)] + [(later(image, rng), False) for _ in range(SETTLE)]
    for _ in range(arms):
        frames += [(with_arm(image, corners, rng), True), (later(image, rng), False)]
    return frames


def judged(cal, frames: list[tuple[np.ndarray, bool]], net: Path | None = NET_MODEL
           ) -> tuple[list[bool], list[bool]]:
    """Each frame's `hand` read by one Reader for the film, and by a new Reader a frame, with
    the hand net `net` (None: without one)."""
    reader = Reader(cal, hand_net=net)
    return ([reader.read(f)["hand"] for f, _ in frames],
            [Reader(cal, hand_net=net).read(f)["hand"] for f, _ in frames])


def tally(counts: Counter, key: str, frames, hands: list[bool]) -> None:
    """Adds a film's flags to `counts`: the first frames, clear frames and arm frames after."""
    for i, ((_, arm), flagged) in enumerate(zip(frames, hands, strict=True)):
        kind = "first" if i <= SETTLE else "arm" if arm else "clear"
        counts[f"{key} {kind}"] += flagged
        counts[kind] += key == "film"


def calibrated(entry: dict, image: np.ndarray, learned: bool):
    """The photo's minimal calibration, learned from it with --learned where it can be."""
    cal = calibration(entry)
    if learned and list(entry["points"]) == list(START_POINTS):
        try:
            return learn(image, cal), True
        except ValueError:
            pass
    return cal, False


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fold", type=int, action="append", choices=range(5),
                        help="only the photos of these folds (default all)")
    parser.add_argument("--arms", type=int, default=3, help="arm frames a film (default 3)")
    parser.add_argument("--learned", action="store_true",
                        help="calibrate from the start-position photos as `calibrate` does")
    parser.add_argument("--list", action="store_true", help="print every film's flags")
    parser.add_argument("--net", default=str(NET_MODEL), metavar="FILE.onnx",
                        help="the hand net for frames judged alone (default the installed one; "
                             "none: the band alone); {fold} in the name is each photo's fold, "
                             "to cross-validate nets trained with that fold held out")
    args = parser.parse_args(argv)
    counts: Counter = Counter()
    for i, entry in enumerate(load_labels()):
        if entry["partial"] or (args.fold and entry["fold"] not in args.fold):
            continue
        image = cv2.imread(str(PHOTOS / "images" / entry["copy"]))
        cal, learned = calibrated(entry, image, args.learned)
        frames = film(image, entry["corners_px"], args.arms, seed=i)
        counts["films"] += 1
        counts["learned"] += learned
        net = None if args.net == "none" else Path(args.net.format(fold=entry["fold"]))
        for key, hands in zip(("film", "alone"), judged(cal, frames, net), strict=True):
            tally(counts, key, frames, hands)
            if args.list:
                print(f"{entry['name']:28} {key:5} {'L' if learned else '-'} "
                      + "".join("H" if h else "." for h in hands))
    print(f"{counts['films']} films ({counts['learned']} calibrated from the photo, the rest "
          f"corners only), {counts['first']} first frames, then {counts['clear']} clear "
          f"frames and {counts['arm']} with an arm\n")
    print("| read | first frames flagged | clear frames after flagged | arm frames flagged |")
    print("|---|---|---|---|")
    for key, label in (("film", "one Reader a film (play, record)"),
                       ("alone", "each frame alone (a photo)")):
        print(f"| {label} | {counts[f'{key} first']}/{counts['first']} | "
              f"{counts[f'{key} clear']}/{counts['clear']} | "
              f"{counts[f'{key} arm']}/{counts['arm']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
