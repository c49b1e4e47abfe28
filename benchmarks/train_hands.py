"""Train the hand net (`vision.hand.seen_alone`): a small net that says whether a hand or an
arm is over the field in one photo judged alone.

    python benchmarks/train_hands.py render --frames 2000        # renders into the cache
    python benchmarks/train_hands.py real                        # the real photos' views
    python benchmarks/train_hands.py train --real-folds 1,2,3,4  # -> vision/models/hands.onnx
    python benchmarks/train_hands.py train --real-folds 0,2,3,4 --out DIR/h1.onnx  # fold 1's twin
    python benchmarks/train_hands.py score --nets 'DIR/h{fold}.onnx'   # the five twins

A stream of frames is judged against the last frame seen clear (`vision.hand.HandFinder`); a
photo read alone has nothing to compare with, and a real board's frame band is no one
colour, so the band judged alone flags most real photos. The net sees what `HandFinder`
sees, the half-size rectified field and the band around it (`FieldView.warp_half`), shrunk
to `vision.hand.NET_SIZE`, and gives the odds of a hand. Its examples: renders of the
trained looks (seeds 800000 on, half of them with an arm; never the held-out looks), cut
through corners moved a pixel or two, cached in shards of 100 frames (rendering resumes
where it stopped); and the labelled real board photos of `--real-folds` (each chosen copy
and every other copy with corners), REAL_CUTS views of each as a camera sees the board a
moment later (`real_hands.later`), every other one with an arm drawn over the field
(`vision.synthetic.draw_arm`, as the renders draw it), through corners moved about 4 px (cached
once for every fold; training takes the folds named). There is no real photo of a hand over
a real board here: the real boards teach the net what is no hand, the drawn arms what is
one. Training flips the pictures either way and scales their light and contrast; it keeps
their colours (skin is an arm's surest sign: swapping the channels, as the checker net's
training does, left half the renders' arms unseen). Needs PyTorch and onnx (`pip install
torch==2.13.0 onnx`); the nets are run with OpenCV's DNN.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from bgboard.benchmarks.train_checkers import jittered, write_shards
from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision.hand import NET_MODEL, net_view
from bgboard.vision.models import net_input
from bgboard.vision.synthetic import render
from bgboard.vision.synthetic.looks import HELD_OUT, TRAINED, family_scene

CACHE = Path(__file__).resolve().parent / "cache" / "hands"
SCORE_SEEDS = {"held-out looks": (HELD_OUT, 900_000), "trained looks": (TRAINED, 910_000)}
FIRST = 800_000  # render seeds (apart from every other training script's)
REAL_CUTS = 60  # views of each real photo (and copy), half of them with an arm
REAL_JITTER = 0.006  # a real view's corners move this share of the photo's width (about 4 px)


def frame_view(seed: int, looks: tuple[str, ...] = TRAINED, moved: bool = True
               ) -> tuple[np.ndarray, bool]:
    """One rendered frame of one of `looks` (in turn by seed) as the hand net sees it, and
    whether an arm is in it (half the frames); through corners moved a pixel or two when
    `moved`."""
    shot = render(family_scene(seed, looks[seed % len(looks)], hand=0.5), seed)
    minimal = {k: shot.calibration[k] for k in ("version", "image_size", "corners_px",
                                                "geometry")}
    cal = from_dict(jittered(minimal, np.random.default_rng(seed)) if moved else minimal)
    return net_view(FieldView(cal).warp_half(shot.image)), bool(shot.truth["hand"])


def render_shards(frames: int, first: int, out: Path) -> None:
    """Shards of rendered frames' views and whether each has an arm (`write_shards`)."""
    def arrays(seeds: range) -> dict[str, np.ndarray]:
        pairs = [frame_view(seed) for seed in seeds]
        return {"views": np.stack([v for v, _ in pairs]), "hands": np.array([h for _, h in pairs])}

    write_shards(frames, first, out, arrays)


def real_views(cuts: int, seed: int = 0) -> dict[str, np.ndarray]:
    """`cuts` views of each labelled real photo (and copy), every other one with an arm drawn
    over the field, each a moment later and through corners moved about REAL_JITTER of the
    photo's width: the views, whether each has an arm, and each one's fold."""
    from bgboard.benchmarks.label_real_boards import PHOTOS, copy_entries, load_labels
    from bgboard.benchmarks.real_hands import later, with_arm

    rng = np.random.default_rng(seed)
    views, hands, folds = [], [], []
    for entry in load_labels():
        if entry["partial"]:
            continue
        for seen in (entry, *copy_entries(entry)):
            image = cv2.imread(str(PHOTOS / "images" / seen["copy"]))
            minimal = {"version": 1, "image_size": seen["image_size"],
                       "corners_px": seen["corners_px"], "geometry": seen["geometry"]}
            for cut in range(cuts):
                arm = cut % 2 == 1
                shown = with_arm(image, seen["corners_px"], rng) if arm else later(image, rng)
                moved = jittered(minimal, rng, REAL_JITTER * image.shape[1])
                views.append(net_view(FieldView(from_dict(moved)).warp_half(shown)))
                hands.append(arm)
                folds.append(entry["fold"])
        print(f"{entry['name']}: {len(views)} views", flush=True)
    return {"views": np.stack(views), "hands": np.array(hands), "folds": np.array(folds)}


def load(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    shards = sorted(folder.glob("shard_*[0-9].npz"))
    if not shards:
        raise SystemExit(f"no shards in {folder}: run the render step first")
    data = [np.load(p) for p in shards]
    return (np.concatenate([d["views"] for d in data]),
            np.concatenate([d["hands"] for d in data]))


def build():
    import torch.nn as nn

    def block(a: int, b: int, stride: int = 2) -> list:
        return [nn.Conv2d(a, b, 3, stride=stride, padding=1), nn.BatchNorm2d(b), nn.ReLU()]

    return nn.Sequential(*block(3, 16), *block(16, 32), *block(32, 32, 1), *block(32, 48),
                         *block(48, 48, 1), *block(48, 64), nn.Conv2d(64, 1, 1),
                         nn.AdaptiveMaxPool2d(1), nn.Flatten())


def augment(x, rng):
    """Pictures (N, 3, H, W float, centred) flipped either way, light and contrast scaled (the
    colours kept: skin is an arm's surest sign)."""
    import torch

    if rng.random() < 0.5:
        x = x.flip(3)
    if rng.random() < 0.5:
        x = x.flip(2)
    n = len(x)
    gain = torch.from_numpy(rng.uniform(0.7, 1.3, (n, 1, 1, 1)).astype(np.float32))
    shift = torch.from_numpy(rng.uniform(-0.15, 0.15, (n, 1, 1, 1)).astype(np.float32))
    return x * gain + shift


def train(views: np.ndarray, hands: np.ndarray, epochs: int, out: Path, seed: int = 0
          ) -> None:
    """Trains the net on `views` (uint8, N x H x W x 3) and whether each shows a hand, and
    writes it as ONNX."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = build()
    opt = torch.optim.Adam(model.parameters(), 2e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3,
                                                total_steps=epochs * (-(-len(views) // 64)))
    loss_of = torch.nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        t = time.time()
        order = rng.permutation(len(views))
        model.train()
        total = 0.0
        for at in range(0, len(order), 64):
            idx = order[at:at + 64]
            x = augment(torch.from_numpy(net_input(views[idx])), rng)
            loss = loss_of(model(x)[:, 0], torch.from_numpy(hands[idx].astype(np.float32)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched.last_epoch + 1 < sched.total_steps:
                sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"epoch {epoch + 1}: loss {total / len(order):.4f}, {time.time() - t:.0f} s",
              flush=True)
    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, *views.shape[1:3]), str(out),
                      input_names=["view"], output_names=["hand"], dynamo=False)
    print(f"wrote {out}")


def odds(model: Path, views: np.ndarray) -> np.ndarray:
    """The net's logit of a hand for each view, run with OpenCV's DNN as bgboard runs nets."""
    net = cv2.dnn.readNetFromONNX(str(model))
    out = []
    for at in range(0, len(views), 256):
        net.setInput(net_input(views[at:at + 256]))
        out.append(net.forward()[:, 0])
    return np.concatenate(out)


def score(nets: str, cache: Path, renders: int) -> None:
    """Prints views flagged (logit above 0): the real photos' views of each fold by the net
    trained without it (`nets` with {fold}), and `renders` frames each of the held-out and the
    trained looks through their own corners, by fold 0's net."""
    real = np.load(cache / "real.npz")
    counts = np.zeros(4, int)
    for fold in range(5):
        take = real["folds"] == fold
        flagged, hands = odds(Path(nets.format(fold=fold)), real["views"][take]) > 0, \
            real["hands"][take]
        counts += [(flagged & ~hands).sum(), (~hands).sum(), (flagged & hands).sum(), hands.sum()]
    print("| views | clear views flagged | views with an arm flagged |\n|---|---|---|")
    print(f"| real photos, each fold by its twin | {counts[0]}/{counts[1]} | "
          f"{counts[2]}/{counts[3]} |")
    for name, (looks, first) in SCORE_SEEDS.items():
        pairs = [frame_view(seed, looks, moved=False) for seed in range(first, first + renders)]
        flagged = odds(Path(nets.format(fold=0)), np.stack([v for v, _ in pairs])) > 0
        hands = np.array([h for _, h in pairs])
        print(f"| renders, {name} | {(flagged & ~hands).sum()}/{(~hands).sum()} | "
              f"{(flagged & hands).sum()}/{hands.sum()} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("render", "real", "train", "score"))
    parser.add_argument("--frames", type=int, default=1600)
    parser.add_argument("--first", type=int, default=FIRST, help="first render seed")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--out", type=Path, default=NET_MODEL)
    parser.add_argument("--nets", default=str(CACHE / "h{fold}.onnx"), metavar="FILE.onnx",
                        help="score: the nets, {fold} the fold each was trained without")
    parser.add_argument("--renders", type=int, default=200,
                        help="score: renders of each family of looks (default 200)")
    parser.add_argument("--real-folds", default="", metavar="FOLDS",
                        help="train also on the real photos of these folds, e.g. 1,2,3,4")
    parser.add_argument("--real-cuts", type=int, default=REAL_CUTS,
                        help=f"real: views of each photo (default {REAL_CUTS})")
    args = parser.parse_args()
    if args.step == "render":
        render_shards(args.frames, args.first, args.cache)
        return
    if args.step == "score":
        score(args.nets, args.cache, args.renders)
        return
    if args.step == "real":
        args.cache.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(args.cache / "real.npz", **real_views(args.real_cuts))
        return
    views, hands = load(args.cache)
    folds = [int(f) for f in args.real_folds.split(",") if f]
    if folds:
        if not (args.cache / "real.npz").is_file():
            raise SystemExit(f"no {args.cache / 'real.npz'}: run the real step first")
        real = np.load(args.cache / "real.npz")
        take = np.isin(real["folds"], folds)
        views = np.concatenate([views, real["views"][take]])
        hands = np.concatenate([hands, real["hands"][take]])
        print(f"{take.sum()} real views of folds {args.real_folds}")
    train(views, hands, args.epochs, args.out)


if __name__ == "__main__":
    main()
