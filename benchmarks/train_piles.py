"""Train the pile counter: a small net that counts the checkers of a tall pile again, on a
patch of the pile's column with twice the checker net's pixels each way (`vision.piles`).

    python benchmarks/train_piles.py render --frames 6000        # tall rows into the cache
    python benchmarks/train_piles.py render --frames 4000 --first 760000 --drawn  # drawn boards
    python benchmarks/train_piles.py train --epochs 16 --threads 2 --out FILE.onnx
    python benchmarks/train_piles.py train --real-folds 1,2,3,4 --pasted 10 \
        --init cache/piles/FILE.pt --epochs 3 --peak 1e-3   # -> vision/models/piles.onnx
    python benchmarks/train_piles.py render|train --reach 0.75 --cache cache/reach ...
        # the far counter, its patch reaching past the middle -> vision/models/piles_far.onnx

The checker net reads each column at 32 pixels across a point; a checker stacked on another a
tenth of a diameter off shows there by a rim two or three pixels wide, and the net reads
most towers of six to nine as five (docs/vision-log.md). Frames are drawn as the checker net's
(`train_checkers.frame_view`, the trained looks of `vision.synthetic.looks`, seeds 700000 and up), a
third of them with every pile of six or more stacked as towers, a third with a tall stack a
side, a third random positions (players' piles on half the looks). Of each frame only the
rows holding at least LEAST checkers are kept: their patch at twice the pixels, beside the
checker net's bare reference of the row (`train_checkers.adapted`: the frame's, or a board's
as an adapted reader keeps it), which the counter sees enlarged to its size. Shards of 100
frames are cached, so rendering resumes; training checkpoints every epoch and resumes too.
The shipped counter is the render-trained one fine-tuned with the real photos' tall rows
(`real_rows`: some cut with real checkers pasted on, piled taller than any photo shows).
Needs PyTorch and onnx; bgboard runs the exported net with OpenCV.
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

import numpy as np

from bgboard.benchmarks.train_checkers import (
    CACHE,
    DRAWN,
    LOOK_FRAMES,
    frame_view,
    real_cut,
    real_photos_with_sprites,
    with_references,
    write_shards,
)
from bgboard.benchmarks.train_checkers import adapted as beside_adapted
from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision.columns import Columns
from bgboard.vision.piles import MODEL, REACH, SCALE, enlarge
from bgboard.vision.synthetic.looks import TRAINED

LEAST = 3  # the fewest checkers a row kept for training holds
FIRST = 700_000  # first training seed
KINDS = ({"towers": True}, {"tall": True}, {})  # drawn in turn, one per look of LOOK_FRAMES


def kind(seed: int) -> dict[str, bool]:
    """The `frame_view` options of the frame of `seed`: KINDS in turn, look by look."""
    return KINDS[seed // LOOK_FRAMES % len(KINDS)]


def shard_rows(seeds: range, big: bool = False, reach: float = REACH,
               drawn: bool = False) -> dict[str, np.ndarray]:
    """The tall rows of the frames of `seeds` (their checkers as large as real ones when
    `big`; each frame a board drawn at random when `drawn`, else the trained looks): their
    patches at SCALE reaching `reach` field heights from the base, their bare references (at
    the checker net's size) and their signed counts."""
    looks = (DRAWN,) if drawn else TRAINED
    small, large, counts, keep = [], [], [], []
    for seed in seeds:
        image, cal, signed = frame_view(seed, looks, big=big, **kind(seed))
        view = FieldView(cal)
        small.append(Columns(view).cut(image))
        counts.append(signed)
        keep.append(np.flatnonzero(np.abs(signed) >= LEAST))
        if len(keep[-1]):
            large.append(Columns(view, SCALE, reach).cut(image, keep[-1]))
    refs = beside_adapted(np.stack(small), np.stack(counts), np.random.default_rng(seeds[0]),
                          drawn)
    refs = refs[..., 3:].reshape(len(seeds), 26, *refs.shape[1:3], 3)
    return {"patches": np.concatenate(large),
            "refs": np.concatenate([r[k] for r, k in zip(refs, keep, strict=True)]),
            "counts": np.concatenate([c[k] for c, k in zip(counts, keep, strict=True)])}


def real_rows(folds: set[int], cuts: int, pasted: int = 0, reach: float = REACH
              ) -> dict[str, np.ndarray]:
    """The tall rows of the labelled real photos in `folds` (and their copies), as
    `shard_rows` gives a shard's: `cuts` cuts of each, the first through its labelled corners,
    the others through corners moved as the checker net's real cuts are
    (`train_checkers.real_cut`), then `pasted` cuts more of each with real checkers pasted on
    its bare points at the counter's scale (`pasted.composite`: piles of up to seven, as
    players pile them, which no labelled photo shows); each row beside the photo's own bare
    references, its patch reaching `reach` field heights."""
    from bgboard.benchmarks.pasted import composite

    rng = np.random.default_rng(1)
    photos, donors = real_photos_with_sprites(folds, SCALE if pasted else 0, reach)
    patches, refs, counts = [], [], []
    for image, minimal, keep, labelled, own in photos:
        sure = np.r_[keep, False, False]
        for cut in range(cuts + pasted):
            view = FieldView(from_dict(real_cut(minimal, image, cut, rng)))
            large, signed = Columns(view, SCALE, reach).cut(image), labelled
            if cut >= cuts:
                large, signed = composite(large, labelled, sure & (labelled == 0), view, donors,
                                          own, rng, reach)
            rows = np.flatnonzero(sure & (np.abs(signed) >= LEAST))
            refs.append(with_references(Columns(view).cut(image)[None])[rows][..., 3:])
            patches.append(large[rows])
            counts.append(signed[rows])
    return {"patches": np.concatenate(patches), "refs": np.concatenate(refs),
            "counts": np.concatenate(counts)}


def load(folder: Path, real: dict[str, np.ndarray] | None = None
         ) -> tuple[np.ndarray, np.ndarray]:
    """Every cached tall row beside its reference enlarged (N, H, W, 6), filled in shard by
    shard (40,000 rows take 3.4 GB), then the `real` rows (`real_rows`) if given; and each
    row's signed count."""
    paths = sorted(folder.glob("shard_*[0-9].npz"))
    if not paths:
        raise SystemExit(f"no shards in {folder}: run the render step first")
    parts = [np.load(path) for path in paths] + ([real] if real else [])
    counts = [part["counts"] for part in parts]
    rows = np.empty((sum(map(len, counts)), *parts[0]["patches"].shape[1:3], 6), np.uint8)
    at = 0
    for part, signed in zip(parts, counts, strict=True):
        rows[at:at + len(signed), ..., :3] = part["patches"]
        rows[at:at + len(signed), ..., 3:] = enlarge(part["refs"])
        at += len(signed)
    return rows, np.concatenate(counts)


def train(folder: Path, epochs: int, out: Path, threads: int, seed: int,
          real: dict[str, np.ndarray] | None = None, init: Path | None = None,
          peak: float = 3e-3) -> None:
    """Train the pile counter on the cached rows and the `real` ones (resuming from <folder's
    parent>/<out's name>.pt; starting from the net of checkpoint `init` if given) with
    `threads` CPU threads and a rate rising to `peak`, then export it to `out` as ONNX."""
    import torch
    from torch import nn

    from bgboard.benchmarks.checker_net import PileNet, export, fit

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    net = PileNet()
    if init:
        net.load_state_dict(torch.load(init)["net"])
    rows, counts = load(folder, real)
    print(f"{len(rows)} tall rows; counts {np.bincount(np.abs(counts), minlength=16)}",
          flush=True)

    def scored(logits: torch.Tensor, target: torch.Tensor) -> tuple:
        return nn.functional.cross_entropy(logits, target), (logits.argmax(1) == target).sum()

    fit(net, torch.from_numpy(rows), torch.from_numpy(np.abs(counts).astype(np.int64)), epochs,
        folder.parent / f"{out.stem}.pt", scored, seed, peak)
    export(net, out, rows.shape[1:3], ("count",))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("render", "train"))
    parser.add_argument("--frames", type=int, default=6000)
    parser.add_argument("--big", action="store_true",
                        help="render checkers as large as real ones (train_checkers.BIG)")
    parser.add_argument("--drawn", action="store_true",
                        help="render every frame on a board drawn at random "
                             "(vision.synthetic.drawn, its held-out families never)")
    parser.add_argument("--first", type=int, default=FIRST, help="first seed")
    parser.add_argument("--reach", type=float, default=REACH,
                        help="field heights the counter's patch shows from the row's base "
                             f"(default {REACH}: to the field's middle)")
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--cache", type=Path, default=CACHE.parent / "piles")
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--threads", type=int, default=1,
                        help="CPU threads to train with (default 1: another job beside it)")
    parser.add_argument("--seed", type=int, default=0, help="train: seed of the net and batches")
    parser.add_argument("--real-folds", default="", metavar="FOLDS",
                        help="train: also the tall rows of the real photos of these folds, "
                             "e.g. 1,2,3,4")
    parser.add_argument("--real-cuts", type=int, default=20,
                        help="train: cuts of each real photo (default 20)")
    parser.add_argument("--pasted", type=int, default=0, metavar="N",
                        help="train: N cuts more of each real photo with real checkers pasted "
                             "on its bare points (benchmarks/pasted.py; default none)")
    parser.add_argument("--init", type=Path, metavar="FILE.pt",
                        help="train: start from this checkpoint's net (to fine-tune)")
    parser.add_argument("--peak", type=float, default=3e-3,
                        help="train: the highest learning rate (default 0.003)")
    args = parser.parse_args()
    if args.step == "render":
        write_shards(args.frames, args.first, args.cache / "train",
                     partial(shard_rows, big=args.big, reach=args.reach, drawn=args.drawn))
    else:
        real = None
        if args.real_folds:
            real = real_rows({int(f) for f in args.real_folds.split(",")}, args.real_cuts,
                             args.pasted, args.reach)
            print(f"{len(real['counts'])} real tall rows ({args.real_cuts} cuts of each photo, "
                  f"{args.pasted} with real checkers pasted on)")
        train(args.cache / "train", args.epochs, args.out, args.threads, args.seed, real,
              args.init, args.peak)


if __name__ == "__main__":
    main()
