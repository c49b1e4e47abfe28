"""Train the field-dice nets (finder on the half-size field, reader on frame patches).

    pip install torch==2.13.0 onnx        # training only: bgboard runs the nets with OpenCV
    python benchmarks/train_field_dice.py --frames 3000 --cache /tmp/field-frames
    python benchmarks/vision.py           # then measure on seeds 0-999 (never trained on)

Material: frames rendered by `vision.synthetic` from seeds 100000 on, each with one to six dice
(a quarter of them leaning; in half the frames also against or on checkers, as dice lie while
the checkers move) and sometimes a hand; with `--look-frames N`, N more from seeds 200000 on in
the trained looks of `synthetic.looks` in turn (3D dice and glossy checkers, piles, inlays,
leather...; never the held-out logo and marble); with `--big-frames N`, N more from seeds 250000
on whose dice are 1.2-2.8 times the renderer's size, as real dice are on small boards (half on
those looks); with `--drawn-frames N`, N more from seeds 270000 on, each on a board drawn at
random (`vision.synthetic.drawn`, never its held-out families); with `--webcam N`, the reader
also learns N times over from the real webcam dice of benchmarks/webcam_dice.py's training split
(never its `valid_*` photos); with `--all-sizes`, the reader learns each die at every size
`vision.dice` reads it at; with `--lamp SHARE`, that share of both nets' samples is lit as under
a lamp switched on (`augment.lit`: pips washed out). The benchmark reads seeds 0-999 and
2000-2299, so every figure it prints is on frames never trained on. Frames are kept in `--cache`
and reused. The finder learns die centres on the half-size field as `read` warps it (through
corners jittered by a pixel, as a calibration may be off); the reader learns "no die" / 1-6 and
leaning on patches around the dice, around random places, and around the places where the
trained finder marks a die that is not there.
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from bgboard.benchmarks import train_dice_photo as tdp
from bgboard.benchmarks.augment import as_in_frame, lit
from bgboard.benchmarks.field_dice_frames import (
    BIG_SEED,
    DRAWN_SEED,
    FIRST_SEED,
    LOOK_SEED,
    load_frame,
    make_frame,
)
from bgboard.benchmarks.train_dice_photo import block, fit, recolour
from bgboard.calibration.rectify import FieldView
from bgboard.vision import dice as fd
from bgboard.vision import models
from bgboard.vision.dice_photo import crop

CROP = 128  # finder training window, half-size pixels
REAL_REPEAT = 20  # times each real board photo is seen an epoch (30 photos beside 3,000 frames)
BOARD_PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-boards"


def turn(image: np.ndarray, k: int, flip: bool) -> np.ndarray:
    return np.ascontiguousarray(np.rot90(image[:, ::-1] if flip else image, k))


def finder_sample(half: np.ndarray, centres: np.ndarray, size: float, rng, lamp: float = 0.0):
    """A window of the half-size field, turned and recoloured (the share `lamp` of them lit,
    `augment.lit`), and its targets per cell: a peak at each die's centre cell, the centre's
    offset in that cell, and where it is."""
    h, w = half.shape[:2]
    x0, y0 = rng.integers(0, max(1, w - CROP + 1)), rng.integers(0, max(1, h - CROP + 1))
    window = cv2.copyMakeBorder(half[y0:y0 + CROP, x0:x0 + CROP], 0, max(0, CROP - h + y0), 0,
                                max(0, CROP - w + x0), cv2.BORDER_REPLICATE)
    cells = CROP // fd.STRIDE
    heat, dx, dy, mask = (np.zeros((cells, cells), np.float32) for _ in range(4))
    grid = np.arange(cells) + 0.5
    sigma = max(0.5, size / fd.STRIDE / 3)
    for cx, cy in centres:
        u, v = (cx - x0) / fd.STRIDE, (cy - y0) / fd.STRIDE
        if not (0 <= u < cells and 0 <= v < cells):
            continue
        heat = np.maximum(heat, np.exp(-((grid[None] - u) ** 2 + (grid[:, None] - v) ** 2)
                                       / (2 * sigma ** 2)))
        heat[int(v), int(u)] = 1.0
        dx[int(v), int(u)], dy[int(v), int(u)], mask[int(v), int(u)] = u % 1, v % 1, 1
    k, flip = int(rng.integers(4)), bool(rng.random() < 0.5)
    # offsets turn with the window: a mirror maps x to 1 - x, a quarter turn (x, y) to (y, 1 - x)
    if flip:
        dx = (1 - dx) * mask
    for _ in range(k):
        dx, dy = dy, (1 - dx) * mask
    targets = [turn(a, k, flip) for a in (heat, dx, dy, mask)]
    if lamp and rng.random() < lamp:  # no draw without: the recipes before draw as they did
        window = lit(window, rng)
    return fd.net_input(turn(recolour(window, rng), k, flip))[0], np.stack(targets)


def reader_places(rows: np.ndarray, view, die_rect: float, rng, extra=()) -> list[tuple]:
    """(centre, value, cocked) of reader patches: each die four times (placed as the finder
    might), random places of the field and `extra` places away from every die (value 0)."""
    places = [((x, y) + rng.normal(0, 0.12, 2) * die_rect, int(v), int(c))
              for x, y, v, c in rows for _ in range(4)]
    spots = [(view.m + rng.uniform(0, view.w), view.m + rng.uniform(0, view.h)) for _ in range(6)]
    for spot in [*spots, *extra]:
        if not len(rows) or np.hypot(*(rows[:, :2] - spot).T).min() > 0.8 * die_rect:
            places.append((np.asarray(spot, float), 0, 0))
    return places


def reader_sample(patch: np.ndarray, value: int, cocked: int, rng, lamp: float = 0.0):
    """A patch turned, sometimes recoloured or blurred, the share `lamp` of them lit (a lamp
    switched on washes pips out: `augment.lit`), and its target (value, leaning)."""
    k, flip = int(rng.integers(4)), bool(rng.random() < 0.5)
    if lamp and rng.random() < lamp:  # no draw without: the recipes before draw as they did
        patch = lit(patch, rng)
    if rng.random() < 0.5:
        patch = recolour(patch, rng)
    if rng.random() < 0.2:
        patch = cv2.GaussianBlur(patch, (3, 3), rng.uniform(0.5, 1.0))
    return fd.net_input(turn(patch, k, flip))[0], np.float32([value, cocked])


def load_photos(fold: int | None) -> tuple[list, list]:
    """The real dice photos as (photo, dice rows: cx, cy, side px, value), split into those
    to train on and those of `fold` (a fifth of them, in name order) to measure on."""
    photos = [(image, dice) for _, image, dice in tdp.load_photos(tdp.PHOTOS)]
    if fold is None:
        return photos, []
    lo, hi = fold * len(photos) // 5, (fold + 1) * len(photos) // 5
    return photos[:lo] + photos[hi:], photos[lo:hi]


def webcam_photos() -> list[tuple]:
    """The webcam dice photos of the fixed split's training side (benchmarks/webcam_dice.py:
    `train_*`; `valid_*` is never trained on) as (photo, dice rows: cx, cy, side px, value),
    the labels mended as that benchmark mends them."""
    from bgboard.benchmarks import webcam_dice as wd

    dice = [d for d in wd.load() if wd.split_of(d.photo) == "train"]
    return [(image, np.array([[d.x, d.y, d.side, d.value] for d in group], np.float32))
            for image, group in wd.by_photo(dice)]


def patch_side(side: float, rng, sizes: tuple = (1.0,)) -> float:
    """A reader patch's die side for a die of `side`: off by up to a tenth (as a finder's
    places and a calibration's die size are), times one of `sizes` drawn at random. With
    `vision.dice.SIZES` the reader learns dice as `vision.dice` reads them, at each size it
    tries (a reader that never saw a die read at 0.75 of its size can be surest there, and
    wrong: film 7's 3 read as 2, docs/vision-log.md)."""
    size = float(rng.choice(sizes)) if len(sizes) > 1 else sizes[0]  # one size draws nothing:
    # the recipes without --all-sizes draw as before, patch for patch
    return side * size * rng.uniform(0.9, 1.12)


def photo_patch(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    """A reader patch of a photo: `PATCH_DICE` die sides around (x, y)."""
    return crop(image, x, y, side, fd.PATCH_DICE, fd.PATCH)


def photo_items(photos, rng, in_frame: float = 0.0, sizes: tuple = (1.0,)) -> list[tuple]:
    """Reader patches of real dice (four each, placed and sized as a finder might; whether
    they lean is not labelled: -1; the share `in_frame` of them made to look as a die in a
    board frame, `augment.as_in_frame`; sized as `patch_side`) and of four places per photo
    away from every die."""
    items = []
    for image, dice in photos:
        for x, y, side, value in dice:
            for _ in range(4):
                jx, jy = rng.normal(0, 0.12, 2) * side
                placed = (x + jx, y + jy, patch_side(side, rng, sizes))
                patch = as_in_frame(image, *placed, rng, fd.PATCH, fd.PATCH_DICE) \
                    if in_frame and rng.random() < in_frame else photo_patch(image, *placed)
                items.append((patch, int(value), -1))
        h, w = image.shape[:2]
        side = float(np.median(dice[:, 2]))
        for _ in range(4):
            x, y = rng.uniform(side, w - side), rng.uniform(side, h - side)
            if np.hypot(dice[:, 0] - x, dice[:, 1] - y).min() > side:
                items.append((photo_patch(image, x, y, side), 0, -1))
    return items


def photo_figure(photos, reader) -> str:
    """How many real dice the reader reads right from patches centred on their labels."""
    right = total = 0
    for image, dice in photos:
        probs, _ = fd.read_patches(np.stack([photo_patch(image, *d[:3]) for d in dice]), reader)
        right += int(((probs[:, 0] < fd.NO_DIE) & (probs[:, 1:].argmax(1) + 1 == dice[:, 3])).sum())
        total += len(dice)
    return f"{100 * right / total:.2f}% ({right}/{total})"


def real_boards(folds: set[int]) -> list[tuple]:
    """The real board photos of `folds` whose whole field is labelled (real_boards.json) as
    (photo, view, dice rows as `load_frame` gives them, die side in rectified px): each die on
    the field that benchmarks/data/real_dice.json labels (value 0 where it cannot be read,
    leaning unknown: -1); a doubling cube is no die, and a photo with no dice teaches only
    where none are."""
    from bgboard.benchmarks.label_real_boards import calibration, load_labels
    from bgboard.benchmarks.real_dice import load as load_dice

    dice = {p["name"]: p["dice"] for p in load_dice()}
    out = []
    for entry in load_labels():
        if entry["partial"] or entry["fold"] not in folds:
            continue
        view = FieldView(calibration(entry))
        rows, sides = [], []
        for d in dice.get(entry["name"], ()):
            (cx, cy), (w, h) = d["xy"], d["size"]
            (fx, fy), = view.cal.px_to_field([(cx, cy)])
            if d["kind"] != "die" or not (0 <= fx <= 1 and 0 <= fy <= 1):
                continue
            box = view.cal.px_to_field([(cx - w / 2, cy - h / 2), (cx + w / 2, cy + h / 2)])
            dx, dy = np.abs(box[1] - box[0])
            rows.append([*view.to_rect((fx, fy)), d["value"] or 0, -1])
            sides.append(max(dx * view.w, dy * view.h))
        side = float(np.median(sides)) if sides else fd.DIE_SIZE * view.h
        out.append((cv2.imread(str(BOARD_PHOTOS / "images" / entry["copy"])), view,
                    np.array(rows, np.float32).reshape(-1, 4), side))
    return out


def real_reader_items(photos: list[tuple], finder, rng, sizes: tuple = (1.0,)
                      ) -> list[tuple]:
    """Reader patches of the real board photos (`real_boards`), REAL_REPEAT times over: the
    dice whose value is labelled, random places and the finder's false marks away from every
    die (a die whose value cannot be read is neither a value nor "no die": left out), sized
    as `patch_side`."""
    items = []
    for image, view, rows, side in photos:
        extra = mistakes(view.warp_half(image), rows, side, finder)
        for _ in range(REAL_REPEAT):
            for centre, value, cocked in reader_places(rows[rows[:, 2] > 0], view, side, rng,
                                                       extra):
                if value == 0 and len(rows) and \
                        np.hypot(*(rows[:, :2] - centre).T).min() <= 0.8 * side:
                    continue
                items.append((fd.die_patch(image, view, centre,
                                            patch_side(side, rng, sizes)), value, cocked))
    return items


class Finder(nn.Module):
    """Score (0-1) that a die is centred in each 4x4-pixel cell, and where in the cell."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(*block(3, 8, 2), *block(8, 16, 2), *block(16, 16),
                                  *block(16, 16, dilation=2), *block(16, 16, dilation=4))
        self.head = nn.Conv2d(16, 3, 1)
        nn.init.constant_(self.head.bias, -2.0)

    def forward(self, x):
        return torch.sigmoid(self.head(self.body(x)))


def reader_body(cells: int, outputs: int) -> nn.Sequential:
    """The patch readers' layers (dice here, the cube in train_cube.py): convolutions pooled
    down to a map of `cells` places of 48 features, then one linear layer to `outputs`."""
    return nn.Sequential(*block(3, 16), nn.MaxPool2d(2), *block(16, 32), *block(32, 32),
                         nn.MaxPool2d(2), *block(32, 48), nn.MaxPool2d(3),
                         nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * cells, outputs))


class Reader(nn.Module):
    """Probabilities of no die (0) and of 1-6 for the die in a patch's middle, and that it
    leans. The last layer sees a 3x3 map of features, so it knows where the pips are."""

    def __init__(self):
        super().__init__()
        self.body = reader_body(9, 8)

    def forward(self, x):
        out = self.body(x)
        return torch.cat([torch.softmax(out[:, :7], 1), torch.sigmoid(out[:, 7:])], 1)


def finder_loss(out, target):
    """CenterNet's focal loss on the score map, plus L1 on the offsets at the centres."""
    p, y, mask = out[:, 0].clamp(1e-4, 1 - 1e-4), target[:, 0], target[:, 3]
    pos = (y == 1).float()
    focal = -(pos * (1 - p) ** 2 * torch.log(p)
              + (1 - pos) * (1 - y) ** 4 * p ** 2 * torch.log(1 - p)).sum()
    offset = (mask[:, None] * (out[:, 1:] - target[:, 1:3]).abs()).sum()
    return (focal + offset) / pos.sum().clamp(min=1)


def reader_loss(out, target):
    """The value's log loss, plus twice the leaning one on dice whose leaning is known."""
    value, cocked = target[:, 0].long(), target[:, 1]
    known = ((value > 0) & (cocked >= 0)).float()
    lean = nn.functional.binary_cross_entropy(out[:, 7].clamp(1e-6, 1 - 1e-6),
                                              cocked.clamp(min=0), reduction="none")
    return (nn.functional.nll_loss(torch.log(out[:, :7].clamp(min=1e-6)), value)
            + 2 * (known * lean).sum() / known.sum().clamp(min=1))


def from_onnx(model: nn.Module, path: Path) -> nn.Module:
    """`model` holding the weights of the ONNX net at `path` (as `export` wrote it), to be
    fine-tuned: the export folded each batch norm into its convolution, so each conv-norm
    pair becomes one convolution with a bias (the norm an identity: the same net, and one
    whose statistics stay put on a few real photos)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy())
               for t in graph.initializer}
    convs = iter([node.input[1:] for node in graph.node if node.op_type == "Conv"])
    for layers in (m for m in model.modules() if isinstance(m, nn.Sequential)):
        for i, layer in enumerate(layers):
            if isinstance(layer, nn.Conv2d):
                names = next(convs)
                if layer.bias is None:
                    layers[i] = nn.Conv2d(layer.in_channels, layer.out_channels,
                                          layer.kernel_size, layer.stride, layer.padding,
                                          layer.dilation)
                layers[i].weight.data, layers[i].bias.data = (weights[n] for n in names)
            elif isinstance(layer, nn.BatchNorm2d):
                layers[i] = nn.Identity()
    named = {k: v for k, v in weights.items() if not k.startswith("onnx::")}
    model.load_state_dict(named, strict=False)
    return model


def initial(model: nn.Module, folder: Path | None, name: str) -> nn.Module:
    """`model` afresh, or holding the net `name` in `folder` to fine-tune."""
    return model if folder is None else from_onnx(model, folder / name)


def export(model, path: Path, shape: tuple) -> cv2.dnn.Net:
    """The model written as ONNX, and read back as OpenCV runs it."""
    torch.onnx.export(model, torch.zeros(*shape), str(path), input_names=["image"],
                      output_names=["out"], dynamo=False,
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}})
    return cv2.dnn.readNetFromONNX(str(path))


def mistakes(half: np.ndarray, rows: np.ndarray, die_rect: float, finder) -> list:
    """Where the trained finder marks a die that is not there (rectified px)."""
    centres = 2 * fd.find_centres(half, finder)
    return [c for c in centres
            if not len(rows) or np.hypot(*(rows[:, :2] - c).T).min() > 0.8 * die_rect]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/field-frames"))
    parser.add_argument("--look-frames", type=int, default=0, metavar="N",
                        help="N frames more on the trained board looks of vision.synthetic.looks "
                             "(glossy 3D checkers, piles, inlays, leather...; never the "
                             "held-out logo and marble), seeds 200000 on")
    parser.add_argument("--big-frames", type=int, default=0, metavar="N",
                        help="N frames more whose dice are 1.2-2.8 times the renderer's size "
                             "(as real dice are on small boards), half on the trained looks, "
                             "seeds 250000 on")
    parser.add_argument("--drawn-frames", type=int, default=0, metavar="N",
                        help="N frames more on boards drawn at random (vision.synthetic.drawn: "
                             "every frame a board of its own, the held-out families never), "
                             "seeds 270000 on")
    parser.add_argument("--epochs", type=int, default=60, help="finder epochs")
    parser.add_argument("--reader-epochs", type=int, default=15)
    parser.add_argument("--out", type=Path, default=models.FOLDER)
    parser.add_argument("--skip-finder", action="store_true",
                        help="keep the finder in --out, train the reader only")
    parser.add_argument("--photos", action="store_true",
                        help="the reader learns from the real dice photos too")
    parser.add_argument("--in-frame", type=float, default=0.0, metavar="SHARE",
                        help="with --photos: this share of the real dice patches made to look "
                             "as dice in a board frame (turned, fewer pixels, slanted, softer, "
                             "JPEG)")
    parser.add_argument("--hold-out", type=int, metavar="FOLD",
                        help="with --photos: leave out this fifth of the photos, measure on it")
    parser.add_argument("--real-boards", default="", metavar="FOLDS",
                        help="both nets learn from the real board photos of these folds too "
                             "(real_boards.json's folds, e.g. 1,2,3,4; measure on the others "
                             "with benchmarks/real_dice.py --fold)")
    parser.add_argument("--webcam", type=int, default=0, metavar="N",
                        help="the reader learns from the webcam dice photos' training split "
                             "too (../shared/data/dice-webcam train_*, dice at board-camera "
                             "scale), N times over")
    parser.add_argument("--all-sizes", action="store_true",
                        help="the reader learns each die at every size vision.dice reads it "
                             "at (SIZES times the expected size), not only at the expected one")
    parser.add_argument("--lamp", type=float, default=0.0, metavar="SHARE",
                        help="this share of both nets' samples lit as under a lamp switched on "
                             "(brighter, more so towards one side, whites washed out)")
    parser.add_argument("--init", type=Path, metavar="DIR",
                        help="fine-tune: start both nets from field_find.onnx and "
                             "field_read.onnx in DIR (e.g. the shipped ones) instead of afresh")
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    parser.add_argument("--seed", type=int, default=0,
                        help="the reader's draws (patches placed, order, changes): readers "
                             "trained alike from other seeds give it a second look")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    torch.set_num_threads(1)
    args.cache.mkdir(parents=True, exist_ok=True)
    seeds = [*range(FIRST_SEED, FIRST_SEED + args.frames),
             *range(LOOK_SEED, LOOK_SEED + args.look_frames),
             *range(BIG_SEED, BIG_SEED + args.big_frames),
             *range(DRAWN_SEED, DRAWN_SEED + args.drawn_frames)]
    start = time.perf_counter()
    for i, seed in enumerate(seeds):
        if not (args.cache / f"{seed}.json").exists():
            make_frame(seed, args.cache)
        if i % 250 == 0:
            print(f"frames: {i}/{len(seeds)}, {time.perf_counter() - start:.0f} s", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    boards = real_boards({int(f) for f in args.real_boards.split(",")}) if args.real_boards \
        else []
    if boards:
        print(f"real board photos: {len(boards)}, dice on their fields: "
              f"{sum(len(rows) for _, _, rows, _ in boards)}", flush=True)
    if args.skip_finder:
        finder = cv2.dnn.readNetFromONNX(str(args.out / "field_find.onnx"))
    else:
        items = []
        for seed in seeds:
            image, view, rows, die_rect = load_frame(seed, args.cache)
            items.append((view.warp_half(image), rows[:, :2] / 2, die_rect / 2))
        for image, view, rows, side in boards:
            items += [(view.warp_half(image), rows[:, :2] / 2, side / 2)] * REAL_REPEAT
        model = fit(initial(Finder(), args.init, "field_find.onnx"),
                    partial(finder_sample, lamp=args.lamp), items, args.epochs, finder_loss, 16,
                    0, args.lr)
        finder = export(model, args.out / "field_find.onnx", (1, 3, CROP, CROP))
    rng = np.random.default_rng(1 + args.seed)
    sizes = fd.SIZES if args.all_sizes else (1.0,)
    items = []
    for seed in seeds:
        image, view, rows, die_rect = load_frame(seed, args.cache)
        extra = mistakes(view.warp_half(image), rows, die_rect, finder)
        for centre, value, cocked in reader_places(rows, view, die_rect, rng, extra):
            items.append((fd.die_patch(image, view, centre, patch_side(die_rect, rng, sizes)),
                          value, cocked))
    train_photos, test_photos = load_photos(args.hold_out) if args.photos else ([], [])
    items += photo_items(train_photos, rng, args.in_frame, sizes) \
        + real_reader_items(boards, finder, rng, sizes)
    webcam = webcam_photos() if args.webcam else []
    for _ in range(args.webcam):
        items += photo_items(webcam, rng, sizes=sizes)
    print(f"reader patches: {len(items)}, no die: {sum(v == 0 for _, v, _ in items)}", flush=True)
    model = fit(initial(Reader(), args.init, "field_read.onnx"),
                partial(reader_sample, lamp=args.lamp), items, args.reader_epochs, reader_loss,
                64, args.seed, args.lr)
    reader = export(model, args.out / "field_read.onnx", (1, 3, fd.PATCH, fd.PATCH))
    if test_photos:
        print(f"real dice of fold {args.hold_out}, never trained on, read right: "
              f"{photo_figure(test_photos, reader)}")
    print(f"done in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
