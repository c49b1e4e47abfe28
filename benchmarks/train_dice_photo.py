"""Train the any-photo dice nets (a finder and value readers); cross-validate them by photo.

    pip install torch==2.13.0 onnx        # training only: bgboard runs the nets with OpenCV
    python benchmarks/train_dice_photo.py            # 5-fold figures on photos never trained on
    python benchmarks/train_dice_photo.py --ship     # train on all photos, write vision/models/
    python benchmarks/train_dice_photo.py --ship --nets DIR  # the same, nets kept in DIR
    python benchmarks/train_dice_photo.py --nets DIR # keep each fold's nets, reuse those there
    python benchmarks/train_dice_photo.py --readers 1 --nets DIR  # only the first reader of each
    python benchmarks/train_dice_photo.py --seed 10  # another run of the recipe, other seeds

Each fold (and the shipped set) has one finder and `--readers` value readers, trained alike
from different seeds on the same dice; `vision.dice_photo` averages their probabilities.
With `--nets`, a kept finder is reused and only missing readers are trained.

Material: the real photos in shared/data/dice-photos (YOLO labels) plus synthetic photos from
`vision.synthetic.dice_photo` (seeds 1000+). Folds are contiguous runs of the photos sorted by name,
so photos taken one after another stay on one side. Figures are counted by benchmarks/vision.py
`real_dice`, the official count, run on each fold's held-out photos.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from bgboard.benchmarks import vision as bench
from bgboard.benchmarks.augment import recolour
from bgboard.vision import dice_photo as dp
from bgboard.vision.models import FOLDER as MODELS
from bgboard.vision.models import photo_input
from bgboard.vision.synthetic import dice_photo

PHOTOS = bench.SHARED / "data" / "dice-photos"
SYNTH_SEEDS = range(1000, 1040)


def load_photos(folder: Path) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(name, image, dice) per photo; dice rows are cx, cy, side (pixels) and value."""
    photos = []
    for path in sorted((folder / "images").glob("*.jpg")):
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        rows = np.loadtxt(folder / "labels" / (path.stem + ".txt"), ndmin=2)
        dice = np.c_[rows[:, 1] * w, rows[:, 2] * h, np.sqrt(rows[:, 3] * w * rows[:, 4] * h),
                     rows[:, 0] + 1]
        photos.append((path.stem, image, dice))
    return photos


def synthetic_photos() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Rendered photos of 1-12 dice, in the same form as `load_photos`."""
    photos = []
    for seed in SYNTH_SEEDS:
        values = np.random.default_rng(seed).integers(1, 7, seed % 12 + 1)
        image, truth = dice_photo(values, seed)
        dice = [(x + w / 2, y + h / 2, np.sqrt(w * h) / 1.2, t["value"])  # box of a turned die
                for t in truth for x, y, w, h in [t["box_px"]]]
        photos.append((f"synth{seed}", image, np.array(dice)))
    return photos


def turn(arrays: list[np.ndarray], rng) -> list[np.ndarray]:
    """The same random quarter turn and mirror of each array (a die's value survives both)."""
    k, flip = rng.integers(4), rng.random() < 0.5
    return [np.ascontiguousarray(np.rot90(a[:, ::-1] if flip else a, k)) for a in arrays]


def finder_sample(image, dice, rng, size: int = 160):
    """A finder input (a zoomed, turned, recoloured window of the photo seen at about the
    finder's scale) and its targets:
    a peak of height 1 at each die's centre cell and the die's side in cells."""
    h, w = image.shape[:2]
    scale = dp.FIND_PX / max(h, w) * rng.uniform(0.75, 1.3)
    big = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    x0 = rng.integers(0, max(1, big.shape[1] - size + 1))
    y0 = rng.integers(0, max(1, big.shape[0] - size + 1))
    fill = np.median(big.reshape(-1, 3), axis=0)
    window = np.empty((size, size, 3), np.uint8)
    window[:] = fill
    part = big[y0:y0 + size, x0:x0 + size]
    window[:part.shape[0], :part.shape[1]] = part
    cells = size // dp.STRIDE
    heat, side, mask = (np.zeros((cells, cells), np.float32) for _ in range(3))
    grid = np.arange(cells) + 0.5
    for cx, cy, s, _ in dice:
        u, v, c = np.array([cx * scale - x0, cy * scale - y0, s * scale]) / dp.STRIDE
        if not (0 <= u < cells and 0 <= v < cells):
            continue
        sigma = max(0.5, c / 5)
        g = np.exp(-((grid[None] - u) ** 2 + (grid[:, None] - v) ** 2) / (2 * sigma ** 2))
        heat = np.maximum(heat, g)
        heat[int(v), int(u)] = 1.0
        near = g > 0.3
        side[near], mask[near] = c, 1.0
    window, heat, side, mask = turn([recolour(window, rng), heat, side, mask], rng)
    return photo_input(window)[0], np.stack([heat, side, mask])


def negatives(image, dice, rng, count: int = 8) -> list[tuple[float, float, float, int]]:
    """Die-sized places away from every die, drawn where the photo differs most from its
    surroundings (tray edges, buttons, shadows): what the finder may take for a die. Value 0."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    contrast = np.abs(grey - cv2.blur(grey, (31, 31))).ravel() ** 2 + 1
    side = float(np.median(dice[:, 2])) if len(dice) else 40.0
    picks = rng.choice(contrast.size, 20 * count, p=contrast / contrast.sum())
    ys, xs = np.divmod(picks, image.shape[1])
    far = [(x + 0.5, y + 0.5) for x, y in zip(xs, ys, strict=True)
           if not len(dice) or np.hypot(dice[:, 0] - x, dice[:, 1] - y).min() > side]
    return [(x, y, side, 0) for x, y in far[:count]]


def reader_sample(image, die, rng):
    """A value reader input: the die's crop, placed and sized as a finder might, turned;
    its class is the value, 0 where there is no die."""
    cx, cy, s, value = die
    j = rng.uniform(-0.12, 0.12, 2) * s
    patch = dp.crop(image, cx + j[0], cy + j[1], s * rng.uniform(0.85, 1.18))
    if rng.random() < 0.5:
        patch = recolour(patch, rng)
    if rng.random() < 0.2:
        patch = cv2.GaussianBlur(patch, (3, 3), 0)
    return photo_input(turn([patch], rng)[0])[0], int(value)


def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU()]


class Finder(nn.Module):
    """Score (0-1) that a die is centred in each 4x4-pixel cell, and its side in cells."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(*block(3, 16, 2), *block(16, 32, 2), *block(32, 32),
                                  *block(32, 32, dilation=2), *block(32, 32, dilation=4))
        self.head = nn.Conv2d(32, 2, 1)
        nn.init.constant_(self.head.bias, -2.0)

    def forward(self, x):
        out = self.head(self.body(x))
        return torch.cat([torch.sigmoid(out[:, :1]), nn.functional.softplus(out[:, 1:]) * 4], 1)


class Reader(nn.Module):
    """Probabilities of no die (0) and of the values 1-6 of the die in a 48x48 crop's middle.
    The last layer sees a 4x4 map of features, not their mean, so it knows where pips are."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(*block(3, 16), nn.MaxPool2d(2),
                                  *block(16, 32), *block(32, 32), nn.MaxPool2d(2),
                                  *block(32, 48), *block(48, 48), nn.AvgPool2d(3),
                                  nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * 16, 7))

    def forward(self, x):
        return torch.softmax(self.body(x), 1)


def finder_loss(out, target):
    """CenterNet's focal loss on the score map, plus L1 on the side near centres."""
    p, y = out[:, 0].clamp(1e-4, 1 - 1e-4), target[:, 0]
    pos = (y == 1).float()
    focal = -(pos * (1 - p) ** 2 * torch.log(p)
              + (1 - pos) * (1 - y) ** 4 * p ** 2 * torch.log(1 - p)).sum()
    mask = target[:, 2]
    side = (mask * (out[:, 1] - target[:, 1]).abs()).sum() / mask.sum().clamp(min=1)
    return focal / pos.sum().clamp(min=1) + 0.1 * side


def fit(model, sample, items, epochs: int, loss, batch: int, seed: int, lr: float = 3e-3):
    """Adam with a one-cycle rate; each epoch draws one fresh sample per item."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(model.parameters(), lr)
    steps = epochs * -(-len(items) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps)
    model.train()
    for epoch in range(epochs):
        order, total = rng.permutation(len(items)), 0.0
        for i in range(0, len(order), batch):
            xs, ys = zip(*(sample(*items[j], rng) for j in order[i:i + batch]), strict=True)
            opt.zero_grad()
            value = loss(model(torch.from_numpy(np.stack(xs))), torch.from_numpy(np.stack(ys)))
            value.backward()
            opt.step()
            sched.step()
            total += value.item() * len(xs)
        print(f"  {type(model).__name__} epoch {epoch + 1}/{epochs}: loss "
              f"{total / len(items):.4f}", flush=True)
    return model.eval()


def reader_loss(out, target):
    return nn.functional.nll_loss(torch.log(out.clamp(min=1e-6)), target)


def mistakes(image, dice, finder) -> list[tuple[float, float, float, int]]:
    """Where the trained finder marks a die that is not there: hard examples of class 0."""
    return [(x, y, s, 0) for x, y, s in dp.find_centres(image, finder)
            if not len(dice) or np.hypot(dice[:, 0] - x, dice[:, 1] - y).min() > dice[:, 2].max()]


def reader_names(count: int) -> list[str]:
    """dice_value.onnx, dice_value_2.onnx, ...: the files `vision.dice_photo` loads."""
    return ["dice_value.onnx"] + [f"dice_value_{i}.onnx" for i in range(2, count + 1)]


def export(model, folder: Path, name: str, size: int):
    """A net written as ONNX to `folder`, and read back as OpenCV runs it."""
    folder.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, size, size), str(folder / name),
                      input_names=["image"], output_names=["out"], dynamo=False,
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}})
    return cv2.dnn.readNetFromONNX(str(folder / name))


def train(photos, epochs: int, readers: int, folder: Path, seed: int = 0) -> tuple:
    """The finder (seed `seed`), then the readers (seeds `seed`, `seed` + 100, ...) on the
    dice, on places like dice and on the finder's mistakes in the same photos; each net kept
    in `folder` is reused rather than trained. Returns (finder, readers) as OpenCV runs them."""
    path = folder / "dice_find.onnx"
    finder = (cv2.dnn.readNetFromONNX(str(path)) if path.exists() else
              export(fit(Finder(), finder_sample, [(im, d) for _, im, d in photos], epochs,
                         finder_loss, 8, seed), folder, path.name, dp.FIND_PX))
    rng, dice = np.random.default_rng(seed), None
    nets = []
    for i, name in enumerate(reader_names(readers)):
        if (folder / name).exists():
            nets.append(cv2.dnn.readNetFromONNX(str(folder / name)))
            continue
        dice = dice or [(im, die) for _, im, d in photos
                        for die in [*d, *negatives(im, d, rng), *mistakes(im, d, finder)]]
        model = fit(Reader(), reader_sample, dice, epochs, reader_loss, 64, seed + 100 * i)
        nets.append(export(model, folder, name, dp.CROP))
    return finder, tuple(nets)


def held_out(names: list[str], models: tuple) -> dict:
    """The official count (`real_dice`) over the named photos only, with these nets."""
    with tempfile.TemporaryDirectory() as tmp:
        for sub, ext in (("images", ".jpg"), ("labels", ".txt")):
            (Path(tmp) / sub).mkdir()
            for n in names:
                (Path(tmp) / sub / (n + ext)).symlink_to(PHOTOS / sub / (n + ext))
        bench.find_dice = lambda image: dp.find_dice(image, models)
        return bench.real_dice(Path(tmp))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=50)
    parser.add_argument("--readers", type=int, default=4, help="value readers per finder")
    parser.add_argument("--seed", type=int, default=0, help="seed of the shipped nets; fold "
                        "N's are SEED + N (another run of the same recipe: another SEED)")
    parser.add_argument("--fold", type=int, help="run only this fold")
    parser.add_argument("--ship", action="store_true", help="train on all, write vision/models")
    parser.add_argument("--nets", type=Path, help="keep the nets in NETS (a fold's in "
                        "NETS/fold<N>/) and reuse them when there: reading changes measured "
                        "without retraining")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    torch.set_num_threads(1)
    photos, synth = load_photos(PHOTOS), synthetic_photos()
    if args.ship:
        with tempfile.TemporaryDirectory() as tmp:
            folder = args.nets or Path(tmp)
            train(photos + synth, args.epochs, args.readers, folder, args.seed)
            for old in MODELS.glob("dice_*.onnx"):  # none left over
                old.unlink()
            for name in ["dice_find.onnx", *reader_names(args.readers)]:
                shutil.copy(folder / name, MODELS)
        return
    total, folds = defaultdict(float), range(args.folds) if args.fold is None else [args.fold]
    for f in folds:
        lo, hi = f * len(photos) // args.folds, (f + 1) * len(photos) // args.folds
        test, train_set = photos[lo:hi], photos[:lo] + photos[hi:]
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            models = train(train_set + synth, args.epochs, args.readers,
                           args.nets / f"fold{f}" if args.nets else Path(tmp), args.seed + f)
            s = held_out([n for n, _, _ in test], models)
        for k, v in s.items():
            total[k] += v / len(folds) if k == "ms" else v
        print(f"fold {f}: found {bench.pct(s['found'], s['dice'])}, right "
              f"{bench.pct(s['right'], s['dice'])}, false {bench.pct(s['false'], s['seen'])}, "
              f"median {s['ms']:.1f} ms, {time.perf_counter() - start:.0f} s", flush=True)
    print(f"all folds: found {bench.pct(total['found'], total['dice'])}, right "
          f"{bench.pct(total['right'], total['dice'])}, false "
          f"{bench.pct(total['false'], total['seen'])}, median {total['ms']:.1f} ms (folds' mean)")


if __name__ == "__main__":
    main()
