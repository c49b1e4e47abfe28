"""Train the learned checker reader: a small net that reads one point column (or half of the
bar) and says how many checkers lie there and of which set.

    python benchmarks/train_checkers.py render --frames 3000      # patches into the cache
    python benchmarks/train_checkers.py render --frames 1000 --first 403000 --tall  # tall stacks
    python benchmarks/train_checkers.py render --frames 1600 --first 420000 --looks studded
    python benchmarks/train_checkers.py render --frames 3000 --first 510000 --walls  # boxes
    python benchmarks/train_checkers.py render --frames 1600 --first 540000 --towers
    python benchmarks/train_checkers.py render --frames 1000 --first 560000 --shade  # a row shaded
    python benchmarks/train_checkers.py render --frames 1000 --first 640000 --mono   # one colour
    python benchmarks/train_checkers.py train --epochs 12         # -> vision/models/checkers.onnx
    python benchmarks/train_checkers.py train --real-folds 1,2,3,4   # and the real photos' folds
    python benchmarks/train_checkers.py train --real-folds 1,2,3,4 --pasted 40  # + pasted checkers
    python benchmarks/train_checkers.py train --real-folds 1,2,3,4 --real-shade 0.3  # shaded rows
    python benchmarks/train_checkers.py train --real-folds 1,2,3,4 --device cuda
    benchmarks/train_checkers_gpu.sh FOLDS base,more c:8:60   # all of it, a net per fold, on a GPU
    python benchmarks/train_checkers.py score --first 500000      # held-out looks, by look
    python benchmarks/train_checkers.py quantize --net FOLDS/c0.onnx   # -> 8-bit, installed

Frames are drawn from the named looks of `vision.synthetic.looks` except the held-out ones
(seeds 400000 and up for training; four positions on each look), or with `--looks drawn` each on
a board of its own drawn at random (`vision.synthetic.drawn`, its held-out families never), read
with a calibration of corners and geometry only, the corners moved by a pixel or two as a user's
clicks would be. Each frame gives 26 patches (`vision.columns`): 24 points and the two halves of
the bar, each labelled with its signed count (+ the light set, - the dark set) and seen beside
its bare reference (`vision.columns.references`, computed from the frame's patches when loaded).
Patches are cached in shards of 100 frames, so rendering resumes where it stopped; training
checkpoints every epoch and resumes too. `--real-folds` adds the labelled real board photos of
those folds (benchmarks/data/real_boards.json: each chosen copy and every other copy with
corners; the points only, uncertain ones left out), each photo cut REAL_CUTS times through
corners moved a few pixels: the folds left out are the ones to score on (`--pasted N`: N cuts
more of each with real checkers pasted on its bare points, benchmarks/pasted.py). ADAPTED of the
rendered frames are seen beside another frame's `board_references` (as a reader adapted to the
board at calibration sees them). Needs PyTorch and onnx (`pip install torch==2.13.0 onnx`);
bgboard runs the exported net with OpenCV. `quantize` (needs onnxruntime, for its quantizer
only) writes an 8-bit copy of a trained net, which OpenCV runs faster with the same readings:
weights per channel, each layer's input range measured on the net's inputs from QUANT_FRAMES
renders of the trained looks.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from bgboard.benchmarks.train_field_corners import boxed
from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision import models
from bgboard.vision import synthetic as synth
from bgboard.vision.columns import (
    BEFORE,
    HEIGHT,
    LENGTH,
    WIDTH,
    Columns,
    beside_references,
    board_references,
)
from bgboard.vision.models import net_input
from bgboard.vision.synthetic import Look, render
from bgboard.vision.synthetic.drawn import drawn_scene
from bgboard.vision.synthetic.looks import FAMILIES, TRAINED, family_scene

CACHE = Path(__file__).resolve().parent / "cache" / "checkers"
MODEL = models.FOLDER / models.CHECKERS
SHARD = 100
REAL_CUTS = 60  # cuts of each real photo per epoch (four folds of photos against 11,200 frames)
REAL_JITTER = 0.006  # a real cut's corners move this share of the photo's width (about 4 px)
LOOK_FRAMES = 4  # frames drawn on one look (of the named ones)
DRAWN = "drawn"  # --looks: every frame a board drawn at random
ADAPTED = 0.3  # share of rendered frames seen beside a start frame's references (issue 25)
QUANT_SEED, QUANT_FRAMES = 490_000, 40  # renders that set the 8-bit net's ranges
SHADE_REACH, SHADE_DEPTH = (0.15, 0.45), (0.3, 0.65)  # `--shade`: field heights, light taken
MONO_LIGHT = 0.7  # `--mono`: share of the one-coloured boards whose points are the light set's
TOWERS_LEAST = 6  # `--towers`: the least checkers of each side's tall stack (towers from 6)
BIG = (0.96, 1.12)  # checker diameter / column width of `--big` frames: real boards' checkers
# fill their points (the real photos' boxes: median 1.04 of a column, quartiles 1.00-1.08);
# the renderer's looks draw 0.86-0.96


def labels(truth: dict, look) -> np.ndarray:
    """Signed counts of the 26 rows: points 1..24, bar_low, bar_high."""
    white_low = sum(look.light) > 0  # as synth places the bar's checkers
    bar = (truth["bar"]["white"], -truth["bar"]["black"])
    low, high = bar if white_low else bar[::-1]
    return np.array([*truth["points"], low, high], np.int8)


def jittered(calibration: dict, rng, sigma: float = 1.5) -> dict:
    """The calibration with every corner moved as a user's click might move it (`sigma`
    pixels)."""
    corners = {k: [float(v) + float(rng.normal(0, sigma)) for v in xy]
               for k, xy in calibration["corners_px"].items()}
    return {**calibration, "corners_px": corners}


def tall_position(rng, least: int = 8) -> tuple[tuple[int, ...], dict]:
    """A board where each side has one stack of `least` to 15 and spreads the rest thinly:
    the tall stacks and towers that random positions seldom give (bear-in, bear-off)."""
    points = [0] * 24
    for sign in (1, -1):
        free = [i for i in range(24) if points[i] == 0]
        tall = int(rng.integers(least, 16))
        points[int(rng.choice(free))] = sign * tall
        left = int(rng.integers(0, 15 - tall + 1))
        while left:
            i = int(rng.choice([i for i in range(24) if points[i] * sign >= 0]))
            n = min(left, int(rng.integers(1, 4)), 15 - abs(points[i]))
            points[i] += sign * n
            left -= n
    return tuple(points), {"white": 0, "black": 0}


def frame_patches(seed: int, looks: tuple[str, ...], **options: bool
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The 26 patches of one rendered frame (`frame_view`) and their signed counts."""
    image, cal, counts = frame_view(seed, looks, **options)
    return Columns(FieldView(cal)).cut(image), counts


def frame_view(seed: int, looks: tuple[str, ...], *, tall: bool = False,
               big: bool = False, walls: bool = False, towers: bool = False,
               shade: bool = False, mono: bool = False) -> tuple[np.ndarray, object, np.ndarray]:
    """One rendered frame, the calibration it is read through (its corners moved as clicks
    would place them) and its 26 rows' signed counts. LOOK_FRAMES frames in a row share a
    look (the renderer draws the board once for them), each its own position
    (a `tall_position` when `tall`; checkers of BIG size when `big`; the board a box whose
    walls stand above the field when `walls`, the near ones hiding the checkers at its
    edge in part, as real photos taken at a slant show them: `train_field_corners.boxed`;
    when `towers`, every pile of six or more stacked as towers on its first five and a
    tall stack of TOWERS_LEAST to 15 on each side; one long wall's shade on its row when
    `shade`: `shaded`; every point one set's colour when `mono`: `one_coloured`)."""
    if looks == (DRAWN,):  # every frame a board of its own
        look_seed, base = seed, drawn_scene(seed, hand=0.0)
    else:
        look_seed = seed // LOOK_FRAMES * LOOK_FRAMES
        base = family_scene(look_seed, looks[look_seed // LOOK_FRAMES % len(looks)], hand=0.0)
    if big:
        ratio = float(np.random.default_rng([look_seed, 3]).uniform(*BIG))
        base = replace(base, look=replace(base.look, checker_ratio=ratio))
    if walls:
        base = boxed(base, look_seed)
    if towers:
        base = replace(base, look=replace(base.look, pile="towers"))
    if shade:
        base = replace(base, look=shaded(base.look, look_seed))
    if mono:
        base = replace(base, look=one_coloured(base.look, look_seed))
    rng = np.random.default_rng(seed)
    if tall or towers:
        points, bar = tall_position(rng, TOWERS_LEAST if towers else 8)
    else:
        points, bar = synth.random_position(rng)
    dice = synth.random_dice(rng, base.look, points, bar, 0.1)
    scene = replace(base, points=points, bar=bar, dice=dice)
    rendered = render(scene, look_seed)
    cal = from_dict(jittered(rendered.calibration, np.random.default_rng(seed)))
    return rendered.image, cal, labels(rendered.truth, scene.look)


def shaded(look: Look, seed: int) -> Look:
    """`look` with one long wall shading its row (`synthetic.Look.shade_side`): either row, the
    shade reaching SHADE_REACH field heights in and taking SHADE_DEPTH of the light at the
    wall, as a box's far wall under a lamp shades image032's far points."""
    rng = np.random.default_rng([seed, 28])
    return replace(look, shade_side=str(rng.choice(("low", "high"))),
                   shade_reach=float(rng.uniform(*SHADE_REACH)),
                   shade_depth=float(rng.uniform(*SHADE_DEPTH)))


def one_coloured(look: Look, seed: int) -> Look:
    """`look` with all 24 points of one colour, that of a set of checkers (the light set's
    on MONO_LIGHT of the looks): cream points under white checkers, as on image032's board,
    where only the checkers' shape tells them from the points."""
    rng = np.random.default_rng([seed, 29])
    colour = look.checkers[0] if rng.random() < MONO_LIGHT else look.checkers[1]
    return replace(look, points=tuple(synth.jitter(rng, colour, 6) for _ in range(2)))


def write_shards(frames: int, first: int, out: Path, arrays) -> None:
    """Shards of SHARD frames each from seed `first` on, `arrays(seeds)` giving a shard's
    named arrays, skipping the shards already on disk (so rendering resumes)."""
    out.mkdir(parents=True, exist_ok=True)
    for start in range(first, first + frames, SHARD):
        path = out / f"shard_{start}.npz"
        if path.exists():
            continue
        t = time.time()
        np.savez_compressed(path.with_suffix(".tmp.npz"), **arrays(range(start, start + SHARD)))
        path.with_suffix(".tmp.npz").rename(path)
        print(f"{path.name}: {SHARD} frames in {time.time() - t:.0f} s", flush=True)


def render_shards(frames: int, first: int, looks: tuple[str, ...], out: Path,
                  **options: bool) -> None:
    """Shards of rendered frames' patches, signed counts and looks (`write_shards`), drawn
    with `frame_patches`'s `options`."""
    def arrays(seeds: range) -> dict[str, np.ndarray]:
        pairs = [frame_patches(seed, looks, **options) for seed in seeds]
        return {"patches": np.stack([p for p, _ in pairs]),
                "counts": np.stack([c for _, c in pairs]),
                "looks": np.array([looks[seed // LOOK_FRAMES % len(looks)] for seed in seeds])}

    write_shards(frames, first, out, arrays)


def with_references(frames: np.ndarray) -> np.ndarray:
    """Each frame's 26 patches (F, 26, H, W, 3) beside their bare references, as the net takes
    them: (F * 26, H, W, 6)."""
    return np.concatenate([beside_references(p) for p in frames]).reshape(-1, HEIGHT, WIDTH, 6)


def adapted(frames: np.ndarray, counts: np.ndarray, rng, drawn: bool = False) -> np.ndarray:
    """Frames (F, 26, H, W, 3) beside references as a reader adapted to the board sees them:
    ADAPTED of them beside `board_references` of another frame of their look (frames come in
    groups of LOOK_FRAMES on one look: the other frame plays the calibration's start frame),
    its light changed a little (the room's light drifts between calibration and play); the
    rest beside their own `references`. Frames of boards `drawn` at random (each a board of
    its own, no other frame of it to adapt on) all beside their own. (F * 26, H, W, 6)."""
    if drawn:
        return with_references(frames)
    out = []
    for f, patches in enumerate(frames):
        group = f // LOOK_FRAMES * LOOK_FRAMES
        other = group + (f - group + int(rng.integers(1, LOOK_FRAMES))) % LOOK_FRAMES
        if rng.random() >= ADAPTED or other >= len(frames):
            out.append(beside_references(patches))
            continue
        stored = board_references(frames[other], counts[other]).astype(np.float32)
        stored = stored * rng.uniform(0.85, 1.15) + rng.uniform(-10, 10)
        out.append(beside_references(patches, np.clip(stored, 0, 255).astype(np.uint8)))
    return np.concatenate(out)


def load(folder: Path, real: tuple[np.ndarray, np.ndarray] | None = None
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every cached patch beside its reference (N, H, W, 6; `adapted`), its signed count and
    its look, filled in shard by shard (the patches of 10,000 frames take 6 GB), then the
    `real` patches and counts (`real_patches`; look "real") if given."""
    shards = sorted(folder.glob("shard_*[0-9].npz"))
    if not shards:
        raise SystemExit(f"no shards in {folder}: run the render step first")
    sizes = [np.load(p)["counts"].size for p in shards]
    extra, extra_counts = real if real else (np.empty((0, HEIGHT, WIDTH, 6), np.uint8), [])
    patches = np.empty((sum(sizes) + len(extra), HEIGHT, WIDTH, 6), np.uint8)
    patches[sum(sizes):] = extra
    counts, looks = [], []
    rng = np.random.default_rng(2)
    for path, at in zip(shards, np.cumsum([0, *sizes[:-1]]), strict=True):
        shard = np.load(path)
        patches[at:at + shard["counts"].size] = adapted(shard["patches"], shard["counts"], rng,
                                                        shard["looks"][0] == DRAWN)
        counts.append(shard["counts"].reshape(-1))
        looks.append(np.repeat(shard["looks"], 26))
    counts.append(np.asarray(extra_counts, np.int8))
    looks.append(np.full(len(extra), "real"))
    return patches, np.concatenate(counts), np.concatenate(looks)


def shade_row(rows: np.ndarray, rng) -> np.ndarray:
    """The 26 patches (base at the top) with the 12 of one row of points darkened from their
    base, as one long wall's shade darkens a real board's row (`synthetic.Look.shade_side`): the
    shade takes SHADE_DEPTH of the light at the field's edge and fades out SHADE_REACH field
    heights in; the frame before the edge is shaded as deep as the edge."""
    edge = BEFORE / (BEFORE + LENGTH) * HEIGHT
    reach = float(rng.uniform(*SHADE_REACH)) / (BEFORE + LENGTH) * HEIGHT
    near = np.clip(1 - np.maximum(np.arange(HEIGHT) - edge, 0) / reach, 0, 1)
    gain = 1 - float(rng.uniform(*SHADE_DEPTH)) * near
    row = slice(0, 12) if rng.random() < 0.5 else slice(12, 24)
    out = rows.copy()
    out[row] = np.clip(rows[row] * gain[None, :, None, None] + 0.5, 0, 255).astype(rows.dtype)
    return out


def real_photos(folds: set[int]):
    """Each labelled real photo in `folds` and each of its copies with corners: (its entry,
    the entry as that copy sees it, the image, a minimal calibration through the labelled
    corners, which of the 24 points are labelled for sure, the 26 rows' signed counts)."""
    import cv2

    from bgboard.benchmarks.label_real_boards import PHOTOS, copy_entries, load_labels

    for entry in load_labels():
        if entry["partial"] or entry["fold"] not in folds:
            continue
        uncertain = set(entry.get("uncertain_points", ()))
        keep = np.array([i + 1 not in uncertain for i in range(24)])
        for seen in (entry, *copy_entries(entry)):
            image = cv2.imread(str(PHOTOS / "images" / seen["copy"]))
            minimal = {"version": 1, "image_size": seen["image_size"],
                       "corners_px": seen["corners_px"], "geometry": seen["geometry"]}
            yield entry, seen, image, minimal, keep, np.array([*seen["points"], 0, 0], np.int8)


def real_patches(folds: set[int], cuts: int = REAL_CUTS, pasted: int = 0,
                 shade: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The point patches of the labelled real photos in `folds`, and their signed counts:
    `cuts` cuts of each photo (and each copy), the first through its labelled corners, the
    others through corners moved by about REAL_JITTER of the photo's width (as clicks or a
    found field would place them), so that each cut shows the photo a little differently;
    a `shade` share of the moved cuts with one row in a wall's shade (`shade_row`); then `pasted`
    cuts more of each with real checkers pasted on its bare points (`pasted.composite`: its
    own checkers or another photo's of these folds)."""
    from bgboard.benchmarks.pasted import composite

    rng = np.random.default_rng(1)
    photos, donors = real_photos_with_sprites(folds, 1 if pasted else 0)
    patches, counts = [], []
    for image, minimal, keep, labelled, own in photos:
        bare = np.r_[(labelled[:24] == 0) & keep, False, False]
        for cut in range(cuts + pasted):
            view = FieldView(from_dict(real_cut(minimal, image, cut, rng)))
            rows, signed = Columns(view).cut(image), labelled
            if cut >= cuts:
                rows, signed = composite(rows, labelled, bare, view, donors, own, rng)
            elif cut and shade and rng.random() < shade:
                rows = shade_row(rows, rng)
            patches.append(with_references(rows[None])[:24][keep])
            counts.append(signed[:24][keep])
    return np.concatenate(patches), np.concatenate(counts)


def real_photos_with_sprites(folds: set[int], scale: int, length: float = LENGTH
                             ) -> tuple[list[tuple], list[dict]]:
    """`real_photos`' (image, minimal calibration, sure points, signed counts, its board's
    checkers) and every board's checkers: `pasted.sprites` of each photo's chosen copy, cut
    from patches `scale` times the checker net's reaching `length` (scale 0: none)."""
    from bgboard.benchmarks.label_real_boards import PHOTOS, checker_centres
    from bgboard.benchmarks.pasted import sprites

    photos, donors = [], []
    for entry, seen, image, minimal, keep, labelled in real_photos(folds):
        if seen is entry:
            own = None
        if own is None and scale:  # the board's checkers, from its chosen copy
            columns = Columns(FieldView(from_dict(minimal)), scale, length)
            boxes = checker_centres(PHOTOS / "labels" / (Path(seen["copy"]).stem + ".txt"),
                                    tuple(seen["image_size"]))
            own = sprites(columns.cut(image), columns, labelled, boxes)
            donors.append(own)
        photos.append((image, minimal, keep, labelled, own))
    return photos, donors


def real_cut(minimal: dict, image: np.ndarray, cut: int, rng) -> dict:
    """The calibration of a real photo's `cut`: the first through its labelled corners, the
    others through corners moved by about REAL_JITTER of the photo's width."""
    return jittered(minimal, rng, REAL_JITTER * image.shape[1]) if cut else minimal


def quantize(model: Path, out: Path) -> None:
    """An 8-bit copy of `model` (ONNX QLinear operators, which OpenCV's DNN runs): weights
    per output channel, activations scaled to the ranges met on QUANT_FRAMES renders."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    seeds = iter(range(QUANT_SEED, QUANT_SEED + QUANT_FRAMES))

    class Renders(CalibrationDataReader):
        def get_next(self) -> dict | None:
            seed = next(seeds, None)
            if seed is None:
                return None
            patches = frame_patches(seed, TRAINED)[0]
            return {"patch": net_input(beside_references(patches))}

    out.parent.mkdir(parents=True, exist_ok=True)
    quantize_static(str(model), str(out), Renders(), quant_format=QuantFormat.QOperator,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    per_channel=True)
    print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("render", "train", "score", "quantize"))
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--first", type=int, default=400_000, help="first seed")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--tall", action="store_true",
                        help="render positions with a stack of 8-15 checkers a side")
    parser.add_argument("--big", action="store_true",
                        help=f"render checkers {BIG[0]}-{BIG[1]} of a column wide, as real ones")
    parser.add_argument("--towers", action="store_true",
                        help=f"render a stack of {TOWERS_LEAST}-15 a side, piled as towers")
    parser.add_argument("--walls", action="store_true",
                        help="render each board as a box whose walls stand above the field "
                             "(the near ones hide the edge's checkers in part)")
    parser.add_argument("--shade", action="store_true",
                        help="render one long wall's shade over its row, checkers included")
    parser.add_argument("--mono", action="store_true",
                        help="render all 24 points in the colour of a set of checkers")
    parser.add_argument("--looks", default=",".join(TRAINED),
                        help="the looks to render, comma-separated (default: every trained "
                             f"one), or {DRAWN}: every frame a board drawn at random "
                             "(vision.synthetic.drawn)")
    parser.add_argument("--real-folds", default="", metavar="FOLDS",
                        help="train also on the real photos of these folds, e.g. 1,2,3,4")
    parser.add_argument("--real-cuts", type=int, default=REAL_CUTS,
                        help=f"cuts of each real photo an epoch (default {REAL_CUTS})")
    parser.add_argument("--pasted", type=int, default=0, metavar="N",
                        help="N cuts more of each real photo with real checkers pasted on its "
                             "bare points (benchmarks/pasted.py; default none)")
    parser.add_argument("--real-shade", type=float, default=0.0, metavar="SHARE",
                        help="this share of each real photo's moved cuts with one row in a "
                             "wall's shade (shade_row; default none)")
    parser.add_argument("--device", default="cpu",
                        help="where to train: cpu (default) or a PyTorch device such as cuda")
    parser.add_argument("--threads", type=int, default=1,
                        help="CPU threads to train with (default 1: another job beside it)")
    parser.add_argument("--seed", type=int, default=0,
                        help="train: seed of the net's first weights, batches and their changes")
    parser.add_argument("--widths",
                        help="the net's four convolutions' channels, e.g. 16,24,32,48 "
                             "(default: the shipped net's, checker_net.WIDTHS)")
    parser.add_argument("--net", type=Path, metavar="FILE.onnx",
                        help="quantize: the trained net to copy in 8 bits")
    args = parser.parse_args()
    if args.step == "quantize":
        if args.net is None or not args.net.is_file():
            parser.error(f"quantize: no net {args.net} (say --net FILE.onnx)")
        quantize(args.net, args.out)
    elif args.step == "render":
        looks = tuple(args.looks.split(","))
        if set(looks) - set(TRAINED) and looks != (DRAWN,):
            parser.error(f"--looks: choose from {', '.join(TRAINED)}, or {DRAWN} alone")
        render_shards(args.frames, args.first, looks, args.cache / "train", tall=args.tall,
                      big=args.big, walls=args.walls, towers=args.towers, shade=args.shade,
                      mono=args.mono)
    elif args.step == "train":
        from bgboard.benchmarks import checker_net  # the PyTorch half

        real = None
        if args.real_folds:
            folds = {int(f) for f in args.real_folds.split(",")}
            real = real_patches(folds, args.real_cuts, args.pasted, args.real_shade)
            print(f"{len(real[0])} real patches ({args.real_cuts} cuts of each photo, "
                  f"{args.pasted} with real checkers pasted on)")
        patches, counts, _ = load(args.cache / "train", real)
        widths = checker_net.WIDTHS
        if args.widths:
            widths = tuple(int(w) for w in args.widths.split(","))
        if len(widths) != 4:
            parser.error("--widths: four numbers, e.g. 16,24,32,48")
        checker_net.train(patches, counts, args.epochs, args.cache, args.out, args.device,
                          widths, args.threads, args.seed)
    else:
        render_shards(args.frames, args.first, FAMILIES, args.cache / f"score_{args.first}")
        from bgboard.benchmarks import checker_net

        checker_net.score(*load(args.cache / f"score_{args.first}"), args.out)


if __name__ == "__main__":
    main()
