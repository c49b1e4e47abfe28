"""Dice in real board photos: the field-dice reader (the one `read` uses) and the any-photo
reader (`bgboard dice`) against the dice labelled by eye in benchmarks/data/real_dice.json.

    python benchmarks/real_dice.py [--fold N ...] [--list] [--nets DIR | --cv DIR]

Each labelled photo (its chosen copy in ../shared/data/real-boards) is read twice: by
`vision.dice.find_field_dice` through the photo's labelled corners (real_boards.json), as
`read` does, and by `vision.dice_photo.find_dice` on the whole photo. A die read counts for
the labelled die or cube whose box holds its centre. Printed per reader: the dice on the
field whose value is labelled, found, and found with the right value; dice with no readable
value found; cubes taken for a die; false dice (read where no die or cube lies). The field
reader is scored only on dice inside the field (it looks nowhere else; photos whose field is
not wholly in view have no corners and are left to the other reader); the any-photo reader on
every labelled die. `--list` prints every labelled die with both readings. `--cv DIR` reads
each fold K's photos with the field nets in DIR/K (trained without fold K: a figure on photos
never trained on, over all folds).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from bgboard.benchmarks.label_real_boards import PHOTOS, calibration, load_labels
from bgboard.benchmarks.real_boards import OneLineParser, pct
from bgboard.calibration.file import Calibration
from bgboard.calibration.rectify import FieldView
from bgboard.vision import dice, dice_photo

LABELS = Path(__file__).resolve().parent / "data" / "real_dice.json"
INSIDE = 0.02  # a die this far (field share) outside the field's edge still lies on it


def load(path: Path = LABELS) -> list[dict]:
    """The labelled photos, each with its board entry (fold, corners) under "board"."""
    boards = {e["name"]: e for e in load_labels()}
    return [{**photo, "board": boards[photo["name"]]}
            for photo in json.loads(path.read_text())["photos"]]


def on_field(cal: Calibration, xy) -> bool:
    """Whether an image point lies on the playing field (within INSIDE of its edge)."""
    (fx, fy), = cal.px_to_field([xy])
    return -INSIDE <= fx <= 1 + INSIDE and -INSIDE <= fy <= 1 + INSIDE


def owner(labelled: list[dict], xy) -> int | None:
    """Index of the labelled die or cube whose box holds `xy` (the nearest if several)."""
    best, index = np.inf, None
    for i, d in enumerate(labelled):
        (cx, cy), (w, h) = d["xy"], d["size"]
        if abs(xy[0] - cx) <= w / 2 and abs(xy[1] - cy) <= h / 2:
            distance = np.hypot(xy[0] - cx, xy[1] - cy)
            if distance < best:
                best, index = distance, i
    return index


def matched(labelled: list[dict], read: list[tuple[tuple[float, float], int]]) -> tuple:
    """Per labelled die the value read on it (None: not found), and how many reads fell on
    no labelled die (false dice)."""
    values: list[int | None] = [None] * len(labelled)
    false = 0
    for xy, value in read:
        i = owner(labelled, xy)
        if i is None:
            false += 1
        elif values[i] is None:
            values[i] = value
    return values, false


def read_field(image: np.ndarray, view: FieldView,
               models: tuple | None = None) -> list[tuple[tuple[float, float], int]]:
    found = dice.find_field_dice(image, view.warp_half(image), view, models)
    at = view.cal.field_to_px([view.to_field(d["at"]) for d in found]) if found else []
    return [(tuple(xy), d["value"]) for xy, d in zip(at, found, strict=True)]


def read_photo(image: np.ndarray) -> list[tuple[tuple[float, float], int]]:
    return [((x + w / 2, y + h / 2), d["value"])
            for d in dice_photo.find_dice(image) for x, y, w, h in [d["box_px"]]]


def tally(photos: list[dict], key: str) -> dict[str, int]:
    t = dict.fromkeys(("dice", "found", "right", "unlabelled", "unlabelled_found", "cubes",
                       "cubes_read", "false", "read"), 0)
    for photo in photos:
        for d, value in zip(photo["dice"], photo[key], strict=True):
            if not d["scored"][key]:
                continue
            if d["kind"] == "cube":
                t["cubes"] += 1
                t["cubes_read"] += value is not None
            elif d["value"] is None:
                t["unlabelled"] += 1
                t["unlabelled_found"] += value is not None
            else:
                t["dice"] += 1
                t["found"] += value is not None
                t["right"] += value == d["value"]
        t["false"] += photo[f"{key}_false"]
        t["read"] += sum(v is not None for v in photo[key]) + photo[f"{key}_false"]
    return t


def measure(photos: list[dict], models: tuple | None = None) -> list[dict]:
    """Both readers' values per labelled die of each photo, and their false dice (the field
    reader's nets: `models`, else the shipped ones)."""
    out = []
    for photo in photos:
        image = cv2.imread(str(PHOTOS / "images" / photo["copy"]))
        if image is None:
            raise SystemExit(f"real_dice.py: cannot read {photo['copy']}")
        board = photo["board"]
        view = FieldView(calibration(board)) if "corners_px" in board else None
        field_values, field_false = matched(
            photo["dice"], read_field(image, view, models) if view else [])
        photo_values, photo_false = matched(photo["dice"], read_photo(image))
        labelled = [{**d, "scored": {"field": bool(view) and on_field(view.cal, d["xy"]),
                                     "photo": True}}
                    for d in photo["dice"]]
        out.append({**photo, "dice": labelled, "field": field_values, "field_false": field_false,
                    "photo": photo_values, "photo_false": photo_false})
    return out


def report(results: list[dict]) -> None:
    print(f"## Dice in real board photos: {len(results)} photos, "
          f"{sum(len(p['dice']) for p in results)} labelled boxes\n")
    print("| reader | dice right (of labelled values) | dice found | no readable value: found "
          "| cubes read as a die | false dice (of dice read) |")
    print("|---|---|---|---|---|---|")
    names = {"field": "field dice (`read`, corners given; dice on the field)",
             "photo": "any-photo (`bgboard dice`; every die)"}
    for key, name in names.items():
        t = tally(results, key)
        print(f"| {name} | {pct(t['right'], t['dice'])} | {pct(t['found'], t['dice'])} | "
              f"{pct(t['unlabelled_found'], t['unlabelled'])} | {pct(t['cubes_read'], t['cubes'])}"
              f" | {pct(t['false'], t['read'])} |")


def listing(results: list[dict]) -> None:
    print("\n| photo | die at | size | label | field reader | any-photo reader |")
    print("|---|---|---|---|---|---|")
    for p in results:
        for d, f, a in zip(p["dice"], p["field"], p["photo"], strict=True):
            label = "cube" if d["kind"] == "cube" else d["value"] or "?"
            field = f if d["scored"]["field"] else "(off the field)"
            print(f"| {p['name']} | {d['xy'][0]},{d['xy'][1]} | {max(d['size'])} | {label} | "
                  f"{field if field is not None else '-'} | {a if a is not None else '-'} |")


def nets(parser, folder: Path, option: str) -> tuple:
    """The field finder and reader in `folder` as OpenCV runs them."""
    files = [folder / name for name in dice.NETS]
    if not all(f.is_file() for f in files):
        parser.error(f"{option}: {folder} lacks {' or '.join(dice.NETS)}")
    return tuple(cv2.dnn.readNetFromONNX(str(f)) for f in files)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="real_dice.py", description=__doc__.splitlines()[0])
    parser.add_argument("--fold", type=int, action="append", choices=range(5),
                        help="only the photos of this fold of real_boards.json (repeatable)")
    parser.add_argument("--list", action="store_true", help="print every labelled die")
    parser.add_argument("--nets", type=Path, metavar="DIR",
                        help="the field reader's nets from DIR (field_find.onnx, "
                             "field_read.onnx) instead of the shipped ones")
    parser.add_argument("--cv", type=Path, metavar="DIR",
                        help="each fold K read by the field nets in DIR/K (trained without it)")
    args = parser.parse_args(argv)
    if not PHOTOS.is_dir():
        parser.exit(2, f"real_dice.py: the photos are not at {PHOTOS}\n")
    photos = [p for p in load() if not args.fold or p["board"]["fold"] in args.fold]
    if args.nets and args.cv:
        parser.error("--nets and --cv: give one")
    if args.cv:
        results = []
        for fold in sorted({p["board"]["fold"] for p in photos}):
            models = nets(parser, args.cv / str(fold), "--cv")
            results += measure([p for p in photos if p["board"]["fold"] == fold], models)
    else:
        results = measure(photos, nets(parser, args.nets, "--nets") if args.nets else None)
    report(results)
    if args.list:
        listing(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
