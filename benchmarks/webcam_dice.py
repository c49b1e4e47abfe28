"""Dice at board-camera scale: the field-dice value reader (the one `read` and `record` use)
on ../shared/data/dice-webcam, 396 real webcam photos of ivory dice whose top faces are
30-60 px, as a camera above a board sees them.

    python benchmarks/webcam_dice.py                   # both splits, the reader's figures
    python benchmarks/webcam_dice.py --list            # every die read wrong or not read
    python benchmarks/webcam_dice.py --sheet /tmp/s    # contact sheets to check labels by eye
    python benchmarks/webcam_dice.py --reader DIR/field_dice_read.onnx   # another reader

The split is fixed: the source repository's own (`train_*`, 310 photos, may be trained on;
`valid_*`, 86 photos, never). Labels found wrong by eye are mended by
benchmarks/data/webcam_dice_fixes.json (each mend says why), and the figures count the mended
labels. Each labelled die is read as `vision.dice.find_field_dice` reads a place its finder
marks (`best_reading`: at 0.75, 1 and 1.5 times the expected size, eight views when unsure,
then the any-photo readers where still unsure), the expected size being the labelled box's,
the photo taken as the top-down view (the webcam looks almost straight down). A die counts as
right when it is reported (as find_field_dice would: P(die) x P(value) >= SURE) with the
labelled value, wrong when reported with another, and not read otherwise.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

from bgboard.vision import dice as fd
from bgboard.vision import models

FOLDER = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice-webcam"
FIXES = Path(__file__).resolve().parent / "data" / "webcam_dice_fixes.json"
SPLITS = ("train", "valid")
FACE = 1.7  # a die's top face / its labelled box's side: the boxes hold the pips, not the face
# (by eye on a grid over 20 dice of both splits)
PIP_BOX = 20.0  # a box smaller than this (px) holds a 1's pip only: the die's side is then the
# median of the photo's other boxes (else of all boxes)
TOP_DOWN = SimpleNamespace(rect_to_image=np.eye(3))  # the photo is its own top-down view


@dataclass(frozen=True)
class Die:
    """One labelled die: its photo, centre and top face's side in pixels, and value."""

    photo: str
    index: int
    x: float
    y: float
    side: float
    value: int


def split_of(photo: str) -> str:
    return photo.split("_", 1)[0]


def load(folder: Path = FOLDER, fixes: Path = FIXES) -> list[Die]:
    """Every labelled die, the mends applied: `{"PHOTO": {"INDEX": VALUE or null, ...,
    "why": "..."}}` (null: no die there)."""
    mends = json.loads(fixes.read_text()) if fixes.exists() else {}
    labels = {path.stem: np.loadtxt(path, ndmin=2) * [1, 640, 480, 640, 480]
              for path in sorted((folder / "labels").glob("*.txt"))}
    faces = np.concatenate([np.sqrt(rows[:, 3] * rows[:, 4]) for rows in labels.values()])
    typical = float(np.median(faces[faces >= PIP_BOX]))
    dice = []
    for photo, rows in labels.items():
        sides = np.sqrt(rows[:, 3] * rows[:, 4])
        whole = sides[sides >= PIP_BOX]
        face = float(np.median(whole)) if len(whole) else typical
        mend = mends.get(photo, {})
        for i, ((c, cx, cy, _, _), side) in enumerate(zip(rows, sides, strict=True)):
            value = mend.get(str(i), int(c) + 1)
            if value is not None:
                dice.append(Die(photo, i, cx, cy, FACE * (side if side >= PIP_BOX else face),
                                value))
    return dice


def by_photo(dice: list[Die], folder: Path = FOLDER) -> Iterator[tuple[np.ndarray, list[Die]]]:
    """Each photo that `dice` lie on, read once, with its dice."""
    groups: dict[str, list[Die]] = {}
    for d in dice:
        groups.setdefault(d.photo, []).append(d)
    for photo, group in groups.items():
        yield cv2.imread(str(folder / "images" / f"{photo}.jpg")), group


def read(dice: list[Die], folder: Path = FOLDER, reader=None) -> list[int | None]:
    """The value each die is reported with (None: not reported), in the order of `dice`."""
    reader = reader or fd.nets()[1]
    values: dict[Die, int | None] = {}
    for image, group in by_photo(dice, folder):
        for d in group:
            centre = np.array([[d.x, d.y]])
            probs, _, sizes = fd.best_reading(image, TOP_DOWN, centre, d.side, reader)
            probs = fd.with_photo_readers(image, TOP_DOWN, centre, sizes, probs)[0]
            reported = probs[0] < fd.NO_DIE and fd.surety(probs[None])[0] >= fd.SURE
            values[d] = int(probs[1:].argmax()) + 1 if reported else None
    return [values[d] for d in dice]


def tile(image: np.ndarray, d: Die) -> np.ndarray:
    """One die's crop (twice its labelled side, 128 px) with its label and photo:index."""
    r = max(d.side, 8.0)
    a = np.float32([[128 / (2 * r), 0, 64 - d.x * 128 / (2 * r)],
                    [0, 128 / (2 * r), 64 - d.y * 128 / (2 * r)]])
    out = cv2.copyMakeBorder(cv2.warpAffine(image, a, (128, 128)), 0, 22, 0, 0,
                             cv2.BORDER_CONSTANT, value=(255, 255, 255))
    name = d.photo.replace("train_dice_", "t").replace("valid_valid_", "v")
    cv2.putText(out, f"{d.value} {name}:{d.index}", (2, 144), cv2.FONT_HERSHEY_SIMPLEX,
                0.42, (0, 0, 200), 1)
    return out


def sheets(dice: list[Die], out: Path, folder: Path = FOLDER, per_sheet: int = 120) -> None:
    """Crops of every labelled die (`tile`), 12 to a row, for checking the labels by eye."""
    out.mkdir(parents=True, exist_ok=True)
    made = {d: tile(image, d) for image, group in by_photo(dice, folder) for d in group}
    tiles = [made[d] for d in dice]
    blank = np.full_like(tiles[0], 255)
    for k in range(0, len(tiles), per_sheet):
        page = tiles[k:k + per_sheet]
        page += [blank] * (-len(page) % 12)
        rows = [np.hstack(page[i:i + 12]) for i in range(0, len(page), 12)]
        cv2.imwrite(str(out / f"sheet{k // per_sheet:02d}.jpg"), np.vstack(rows))


def report(dice: list[Die], values: list[int | None], listing: bool) -> None:
    print(f"{'split':>6} {'photos':>7} {'dice':>5} {'right':>6} {'wrong':>6} {'not read':>9}")
    for split in SPLITS:
        pairs = [(d, v) for d, v in zip(dice, values, strict=True) if split_of(d.photo) == split]
        right = sum(v == d.value for d, v in pairs)
        wrong = sum(v is not None and v != d.value for d, v in pairs)
        photos = len({d.photo for d, _ in pairs})
        print(f"{split:>6} {photos:7d} {len(pairs):5d} {right:6d} {wrong:6d} "
              f"{len(pairs) - right - wrong:9d}   {100 * right / max(1, len(pairs)):.1f}% right")
    if listing:
        for d, v in zip(dice, values, strict=True):
            if v != d.value:
                print(f"{d.photo}:{d.index} labelled {d.value}, read {v or '-'} "
                      f"(side {d.side:.0f} px)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reader", type=Path, help="another field-dice value reader (.onnx)")
    parser.add_argument("--list", action="store_true", help="every die read wrong or not read")
    parser.add_argument("--sheet", type=Path, help="write contact sheets of the labels here")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    dice = load()
    if args.sheet:
        sheets(dice, args.sheet)
        print(f"{len(dice)} dice on {-(-len(dice) // 120)} sheets in {args.sheet}")
        return
    reader = models.load(args.reader) if args.reader else None
    report(dice, read(dice, reader=reader), args.list)


if __name__ == "__main__":
    main()
