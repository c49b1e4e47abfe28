"""Train the field finder (`vision.field_finder`): a small net that marks the playing field's
four corners and the bar's two ends in a photo of any board.

    pip install torch==2.13.0 onnx        # training only: bgboard runs the net with OpenCV
    python benchmarks/train_field_corners.py render --frames 3000    # renders into the cache
    python benchmarks/train_field_corners.py render --frames 3000 --first 603000 --walls  # boxes
    python benchmarks/train_field_corners.py render --frames 1500 --first 606000 --trays  # trays
    python benchmarks/train_field_corners.py render --frames 3000 --first 609000 --walls --low
    python benchmarks/train_field_corners.py render --frames 2000 --first 620000 --drawn
    python benchmarks/train_field_corners.py train --epochs 24 --real-folds 1,2,3,4 --cut 0.3
                                                                     # -> vision/models
    python benchmarks/train_field_corners.py train --real-folds 1,2,3,4 --out cache/f0.onnx
    python benchmarks/real_fields.py --finder net                    # measure on real photos
    python benchmarks/train_field_corners.py refine --real-folds 1,2,3,4   # the refiner

Renders: `vision.synthetic.looks` families (all of them but the held-out ones) from seed 600000 on,
positions, dice and hands as `family_scene` draws them, the whole camera frame with the table
around the board, kept at 640 pixels wide with the corners and bar ends they show; `--walls`
draws each board as a box whose walls show beside the field (`boxed`; `--low`: seen from a
camera low beside it, the far walls' faces large, the checkers standing before them), `--trays` with
bear-off trays of every kind beside it (`trayed`), `--drawn` on boards drawn at random
(`vision.synthetic.drawn`). Real: the
labelled real board photos of `--real-folds` (benchmarks/data/real_boards.json: each chosen
copy and every other copy whose corners are labelled), each seen REAL_REPEAT times an epoch;
the folds left out are the ones to measure on. Each sample is turned by any angle, scaled,
shifted, mirrored and recoloured (`--cut SHARE`: that share of them first cut just outside
the field, as photos framed on the field are, and placed as `find` places a photo); the net
learns a score per 8x8-pixel cell (a peak at each corner, another map for the bar ends) and
each peak's place within its cell. Checkpoints every epoch (cache/<out's stem>.pt) and
resumes; `--init CHECKPOINT` fine-tunes a net trained before instead of starting afresh.

`refine` trains the refiner (`field_finder.refine`) on the same renders and real photos: each
sample is one corner's view through corners moved off the labelled ones as the finder misses
them (REFINE_MISS point widths, each corner apart, plus a shift of all four), maybe mirrored,
recoloured; it learns where the labelled corner lies in that view.
"""

from __future__ import annotations

import argparse
import json
import time
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from bgboard.calibration.file import CORNERS, from_dict
from bgboard.vision import field_finder as ff
from bgboard.vision.models import net_input
from bgboard.vision.synthetic import FRAME_SIZE, TRAY_SHADE, render, with_look
from bgboard.vision.synthetic.drawn import drawn_scene
from bgboard.vision.synthetic.looks import TRAINED, family_scene

CACHE = Path(__file__).resolve().parent / "cache" / "field"
FIRST_SEED = 600_000
KEPT_WIDTH = 640  # renders are kept this wide
REAL_REPEAT = 20
RAISED = (0.015, 0.07)  # `--walls`: how much larger the box's top looks than its field
LOW_RAISED = (0.07, 0.18)  # `--low`: the same for a camera low beside the board
LOW_STANDING = (0.25, 0.6)  # `--low`: the checkers' height, a share of the walls'
LOW_OUT = (1.0, 1.6)  # `--low`: the nadir's distance from the field's middle, in its
# distances to the field's box that way
TRAY_SIDES = ("both", "both", "low", "high", "none")  # `--trays`: where, as often as this
TRAY_GAP = (0.01, 0.07)  # `--trays`: the frame between the field and a tray, field heights
FELT = (40.0, 95.0, 55.0)  # a green felt tray
SIGMA = 1.2  # peak width, cells
REFINE_MISS = (0.45, 0.15, 1.3)  # refiner samples: corners missed by this (sd, point widths),
# a fifth of them by the smaller sd (as after a first refining step), never beyond the last


def marks(calibration: dict) -> tuple[np.ndarray, np.ndarray]:
    """The field's corners (p1 p12 p13 p24) and the bar's two ends, in image pixels."""
    cal = from_dict(calibration)
    middle = sum(cal.geometry.bar_x) / 2
    return (np.array([cal.corners_px[k] for k in CORNERS], np.float32),
            cal.field_to_px([(middle, 0.0), (middle, 1.0)]).astype(np.float32))


def boxed(scene, seed: int, low: bool = False):
    """`scene` as a box whose frame and bar stand above the field (`synthetic.Look.raised`), seen
    from a camera over a random place near the picture's middle: walls beside the field; or,
    `low`, from a camera low beside the board (its nadir off the field, beyond one edge or
    corner): the far walls' faces show large, as in a photo taken from a player's seat, and
    the checkers stand up (`synthetic.Look.standing`), those by a far wall hiding its foot."""
    rng = np.random.default_rng([seed, 26])
    if low:
        corners = np.array(scene.look.corners, float)
        turn = rng.uniform(0, 2 * np.pi)
        way = np.array([np.cos(turn), np.sin(turn)])
        edge = min(np.ptp(corners, 0) / 2 / np.maximum(np.abs(way), 1e-6))
        nadir = corners.mean(0) + rng.uniform(*LOW_OUT) * edge * way
        raised = rng.uniform(*LOW_RAISED)
        standing = rng.uniform(*LOW_STANDING)
    else:
        nadir = np.array(FRAME_SIZE) / 2 + rng.normal(0, 350, 2)
        raised = rng.uniform(*RAISED)
        standing = 0.0
    return with_look(scene, raised=float(raised), nadir=tuple(nadir.tolist()),
                     standing=float(standing))


def trayed(scene, seed: int):
    """`scene` with bear-off trays as real boxes have them (`synthetic.Look.trays`): on both sides
    of the field, one or none, the frame between a sliver to a strip (TRAY_GAP field
    heights), in the field's colour, a shade darker, the frame's colour lighter or felt."""
    rng = np.random.default_rng([seed, 27])
    look = scene.look
    colours = (look.field, tuple(TRAY_SHADE * c for c in look.field),
               tuple(min(255.0, 1.15 * c) for c in look.frame), FELT)
    return with_look(scene, trays=str(rng.choice(TRAY_SIDES)),
                     tray=tuple(float(c) for c in colours[rng.integers(len(colours))]),
                     tray_gap=float(rng.uniform(*TRAY_GAP)))


def render_frames(frames: int, first: int, folder: Path, walls: bool = False,
                  trays: bool = False, low: bool = False, drawn: bool = False) -> None:
    """Rendered frames (JPEG, KEPT_WIDTH wide) and their marks (JSON), skipping those on disk;
    with `walls`, every board a box with walls (`boxed`; `low`, seen from a low camera); with
    `trays`, bear-off trays of every kind beside the field (`trayed`); with `drawn`, every
    frame a board drawn at random (`drawn_scene`: its own camera, trays and light)."""
    folder.mkdir(parents=True, exist_ok=True)
    start = time.time()
    for seed in range(first, first + frames):
        if (folder / f"{seed}.json").exists():
            continue
        scene = drawn_scene(seed) if drawn else family_scene(seed, TRAINED[seed % len(TRAINED)])
        if trays:
            scene = trayed(scene, seed)
        if walls:
            scene = boxed(scene, seed, low)
        shot = render(scene, seed)
        k = KEPT_WIDTH / shot.image.shape[1]
        corners, ends = marks(shot.calibration)
        cv2.imwrite(str(folder / f"{seed}.jpg"), cv2.resize(shot.image, None, fx=k, fy=k,
                                                             interpolation=cv2.INTER_AREA))
        (folder / f"{seed}.json").write_text(json.dumps(
            {"corners": (corners * k).tolist(), "ends": (ends * k).tolist()}))
        if (seed - first) % 250 == 0:
            print(f"frame {seed - first}/{frames}: {time.time() - start:.0f} s", flush=True)


def load_renders(folder: Path) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    items = []
    for meta in sorted(folder.glob("*.json")):
        marked = json.loads(meta.read_text())
        items.append((cv2.imread(str(meta.with_suffix(".jpg"))),
                      np.array(marked["corners"], np.float32), np.array(marked["ends"],
                                                                         np.float32)))
    if not items:
        raise SystemExit(f"no frames in {folder}: run the render step first")
    return items


def load_real(folds: set[int]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The labelled real photos of `folds` (every copy with corners) and their marks."""
    from bgboard.benchmarks.label_real_boards import PHOTOS, copy_entries, load_labels

    items = []
    for entry in load_labels():
        if entry["partial"] or entry["fold"] not in folds:
            continue
        for seen in (entry, *copy_entries(entry)):
            image = cv2.imread(str(PHOTOS / "images" / seen["copy"]))
            calibration = {"version": 1, "image_size": seen["image_size"],
                           "corners_px": seen["corners_px"], "geometry": seen["geometry"]}
            items.append((image, *marks(calibration)))
    return items


def cut_at_field(image: np.ndarray, corners: np.ndarray, ends: np.ndarray, rng):
    """The picture cut just outside the field (0-2% of its size) on each side with even odds,
    as photos framed on the field are: the frame and the table on that side out of view."""
    h, w = image.shape[:2]
    low, high = corners.min(0), corners.max(0)
    margin = rng.uniform(0, 0.02, 4) * np.ptp(corners, 0).max()
    x0, y0 = np.where(rng.random(2) < 0.5, np.maximum(0, low - margin[:2]), 0).astype(int)
    x1, y1 = np.where(rng.random(2) < 0.5, np.minimum((w, h), high + margin[2:] + 1),
                      (w, h)).astype(int)
    return image[y0:y1, x0:x1], corners - (x0, y0), ends - (x0, y0)


def sample(image: np.ndarray, corners: np.ndarray, ends: np.ndarray, rng, cut: float = 0.0):
    """A net input (the image turned about the field's middle, scaled so that the field fills
    from half to all of a SIZE square, shifted, maybe mirrored and recoloured) and its
    targets: corner and bar-end score maps, offsets and where they count. A share `cut` of
    the samples is a picture cut at the field's edges (`cut_at_field`) seen as `find` sees a
    photo: turned by quarters only, shrunk to fill the square, its edges repeated."""
    if cut and rng.random() < cut:  # no draw without it: runs before --cut repeat exactly
        image, corners, ends = cut_at_field(image, corners, ends, rng)
        m, border = as_found(image, rng), cv2.BORDER_REPLICATE
    else:
        centre = corners.mean(0)
        turn = rng.uniform(-180, 180) if rng.random() < 0.7 else rng.normal(0, 8)
        m = cv2.getRotationMatrix2D(tuple(map(float, centre)), turn, 1.0)
        extent = np.ptp(corners @ m[:, :2].T, 0).max()
        k = rng.uniform(0.55, 1.02) * ff.SIZE / extent  # the field fills 55% to all of it
        m *= k
        m[:, 2] += ff.SIZE / 2 - k * centre + rng.normal(0, 0.05, 2) * ff.SIZE
        border = cv2.BORDER_REPLICATE if rng.random() < 0.5 else cv2.BORDER_REFLECT
    if rng.random() < 0.5:
        m = np.array([[-1, 0, ff.SIZE], [0, 1, 0]]) @ np.vstack([m, [0, 0, 1]])
    x = cv2.warpAffine(image, m, (ff.SIZE, ff.SIZE), flags=cv2.INTER_AREA, borderMode=border)
    x = recolour(x, rng)
    cells = ff.SIZE // ff.STRIDE
    target = np.zeros((5, cells, cells), np.float32)  # corner, bar end, dx, dy, offset mask
    grid = np.arange(cells) + 0.5
    for channel, marked in ((0, corners), (1, ends)):
        for u, v in (np.c_[marked, np.ones(len(marked))] @ m.T) / ff.STRIDE:
            if not (0 <= u < cells and 0 <= v < cells):
                continue  # out of the picture: nothing to mark
            target[channel] = np.maximum(target[channel], np.exp(
                -((grid[None] - u) ** 2 + (grid[:, None] - v) ** 2) / (2 * SIGMA ** 2)))
            target[channel, int(v), int(u)] = 1.0
            target[2:, int(v), int(u)] = u % 1, v % 1, 1.0
    return net_input(x)[0], target


def as_found(image: np.ndarray, rng) -> np.ndarray:
    """The affine matrix that turns the whole picture by quarters (give or take 2 degrees) and
    places it as `find` places a photo: shrunk to SIZE on its longer side at the square's top
    left (the rest is its edges repeated)."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 90 * rng.integers(4) + rng.normal(0, 2), 1.0)
    picture = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], float)
    m *= ff.SIZE / np.ptp(picture @ m.T, 0).max()
    m[:, 2] -= (picture @ m.T).min(0)
    return m


def refine_sample(image: np.ndarray, corners: np.ndarray, ends: np.ndarray, rng,
                  cut: float = 0.0):
    """A refiner input (one corner's view through corners moved off the labelled ones, maybe
    mirrored, recoloured; a share `cut` of the pictures cut at the field's edges) and its
    target, where the labelled corner lies in it (u, v)."""
    if cut and rng.random() < cut:  # no draw without it: runs before --cut repeat exactly
        image, corners, _ = cut_at_field(image, corners, ends, rng)
    if rng.random() < 0.5:  # mirrored: White's edge runs the other way, still along u
        image = image[:, ::-1]
        corners = np.c_[image.shape[1] - 1 - corners[:, 0], corners[:, 1]][[1, 0, 3, 2]]
    point = np.linalg.norm(corners[1] - corners[0]) * ff.POINT
    sd, small, most = REFINE_MISS
    spread = small if rng.random() < 0.2 else sd
    moved = corners + (rng.normal(0, spread, (4, 2)) + rng.normal(0, spread / 2, 2)).clip(
        -most, most) * point
    named = dict(zip(CORNERS, map(tuple, moved), strict=True))
    corner = CORNERS[rng.integers(4)]
    view = ff.corner_view(named, corner)
    patch = ff.corner_patch(np.ascontiguousarray(image), view)
    truth = ff.to_patch_uv(view, corners[CORNERS.index(corner)])
    return net_input(recolour(patch, rng))[0], truth.astype(np.float32)


def recolour(image: np.ndarray, rng) -> np.ndarray:
    """Channels shuffled, lit, contrasted, sometimes blurred or made grey."""
    out = image[..., rng.permutation(3)].astype(np.float32)
    out = out * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30)
    if rng.random() < 0.15:
        out[:] = out.mean(2, keepdims=True)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.5))
    return np.clip(out, 0, 255).astype(np.uint8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("render", "train", "refine"))
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--first", type=int, default=FIRST_SEED, help="first seed")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--out", type=Path,
                        help="the ONNX file (default: the installed finder or refiner)")
    parser.add_argument("--real-folds", default="", metavar="FOLDS",
                        help="train also on the real photos of these folds, e.g. 1,2,3,4")
    parser.add_argument("--real-repeat", type=int, default=REAL_REPEAT, metavar="N",
                        help=f"times each real photo is seen an epoch (default {REAL_REPEAT})")
    parser.add_argument("--walls", action="store_true",
                        help="render: every board a box whose walls show beside the field")
    parser.add_argument("--low", action="store_true",
                        help="render with --walls: the boxes seen from a camera low beside them")
    parser.add_argument("--trays", action="store_true",
                        help="render: bear-off trays of every kind beside the field")
    parser.add_argument("--drawn", action="store_true",
                        help="render: every frame a board drawn at random "
                             "(vision.synthetic.drawn, its held-out families never)")
    parser.add_argument("--init", type=Path, metavar="CHECKPOINT.pt",
                        help="train: fine-tune the net of this checkpoint (e.g. "
                             "cache/field/field_corners.pt) instead of starting afresh")
    parser.add_argument("--cut", type=float, default=0.0, metavar="SHARE",
                        help="share of samples whose picture is cut at the field's edges "
                             "(default 0)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.step == "render":
        render_frames(args.frames, args.first, args.cache / "frames", args.walls, args.trays,
                      args.low, args.drawn)
        return
    from bgboard.benchmarks import field_net  # the PyTorch half

    items = load_renders(args.cache / "frames")
    if args.real_folds:
        real = load_real({int(f) for f in args.real_folds.split(",")})
        print(f"{len(real)} real photos, each seen {args.real_repeat} times an epoch")
        items += real * args.real_repeat
    refiner = args.step == "refine"
    out = args.out or (ff.REFINER if refiner else ff.MODEL)
    field_net.train(items, partial(refine_sample if refiner else sample, cut=args.cut),
                    args.epochs, args.cache / f"{out.stem}.pt", out, refiner, args.init)


if __name__ == "__main__":
    main()
