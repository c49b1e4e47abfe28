"""The field finder on the labelled real board photos: is the playing field found where the
labels put its corners?

    python benchmarks/real_fields.py [--copies] [--list] [--finder classic|net] [--net FILE]
        [--refiner FILE|none] [--renders N [--walls [--low]] [--trays]] [--starts] [--sure]

Each whole-field photo of benchmarks/data/real_boards.json (its chosen copy; with `--copies`
also the other copies whose corners the labels carry: turned, sheared or cropped versions)
goes to `vision.corners.find_field`, which knows nothing of the labels. A field counts as
found right when every found corner lies within a third of a point's width of the labelled
one (issue 26's aim: 95% of real photos), the corners matched in the naming that fits best:
of all eight for the classic finder, of the four its bar ends leave for the learned one
(`--finder net`, its corners placed again by the refiner when one is installed or given with
`--refiner`); which of those is right is orientation's work, measured apart. Printed: per
fold and overall, photos found at all, found right, and the median corner error of those
found, in point widths; `--list` gives each photo's error.

`--sure` measures `corners_sure` (controller.corners_sure) as `bgboard read` gives it with no
calibration: per photo the corners' error, the second look, whether the start position is
read and whether they are said sure; per fold, photos said sure and sure but more than a third
of a point off, each fold doubted with `AGREE` chosen on the other four (`--renders N`: the
renders too, with the installed `AGREE`).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bgboard.benchmarks.label_real_boards import PHOTOS, calibration, copy_entries, load_labels
from bgboard.benchmarks.real_boards import OneLineParser
from bgboard.calibration.file import CORNERS
from bgboard.controller.corners_sure import AGREE, SHARE, evidence
from bgboard.controller.photo import read_photo
from bgboard.vision import field_finder
from bgboard.vision.corners import START, find_field, labellings

RIGHT = 1 / 3  # the largest corner error, in point widths, of a field found right
RENDER_SEED = 700_000  # renders measured: apart from train_field_corners.py's (600000 on)


def corner_error(namings, entry: dict) -> float:
    """The largest distance from a found corner to its labelled one, in the labelled field's
    point widths, the found corners taken in the naming (of `namings`) that fits best."""
    cal = calibration(entry)
    truth = np.array([cal.corners_px[k] for k in CORNERS], float)
    width = (np.linalg.norm(truth[0] - truth[1]) + np.linalg.norm(truth[3] - truth[2])) / 2
    point = width * cal.geometry.column_width
    return min(float(np.linalg.norm(np.array([named[k] for k in CORNERS]) - truth, axis=1).max())
               for named in namings) / point


def namings(image: np.ndarray, finder: str, net: Path, refiner: Path | None = None):
    """The namings of the corners a finder finds (None: no field found): the classic finder's
    eight, the net's four (those its bar ends allow), its corners placed again by `refiner`
    (None: not)."""
    if finder == "classic":
        found = find_field(image)
        return None if found is None else list(labellings(found))
    field = field_finder.find(image, net, refiner)
    return None if field is None else field.namings()


def twin(path: Path | None, fold) -> Path | None:
    """The net trained with `fold` held out: `path` with {fold} in its name filled in."""
    return None if path is None else Path(str(path).format(fold=fold))


def measure(entries: list[dict], finder: str = "classic", net: Path = field_finder.MODEL,
            refiner: Path | None = None) -> list[dict]:
    """Each photo's corner error in point widths (None: no field found)."""
    results = []
    for entry in entries:
        image = cv2.imread(str(PHOTOS / "images" / entry["copy"]))
        if image is None:
            raise SystemExit(f"real_fields.py: cannot read {entry['copy']}")
        found = namings(image, finder, twin(net, entry["fold"]), twin(refiner, entry["fold"]))
        results.append({"name": entry["name"], "copy": entry["copy"], "fold": entry["fold"],
                        "error": None if found is None else corner_error(found, entry)})
    return results


def measure_renders(frames: int, finder: str, net: Path, refiner: Path | None = None,
                    walls: bool = False, trays: bool = False, low: bool = False) -> list[dict]:
    """The same on renders of the looks held out of training (seeds from RENDER_SEED on, apart
    from the training renders'), their family as the "fold", read by fold 0's nets (no fold
    ever trained on them); with `walls`, each board a box whose walls show (`low`: seen from a
    camera low beside it), with `trays` bear-off trays of every kind beside the field (as
    `train_field_corners.py render --walls --low --trays` draws them)."""
    results = []
    for family, image, entry in held_out_renders(frames, walls, trays, low):
        found = namings(image, finder, twin(net, 0), twin(refiner, 0))
        results.append({"name": entry["name"], "fold": family,
                        "error": None if found is None else corner_error(found, entry)})
    return results


def held_out_renders(frames: int, walls: bool = False, trays: bool = False, low: bool = False):
    """Each render of `measure_renders` as its family, its image and its label (an entry of
    the name, corners, image size and geometry)."""
    from bgboard.benchmarks.train_field_corners import boxed, trayed
    from bgboard.vision.synthetic import render
    from bgboard.vision.synthetic.looks import HELD_OUT, family_scene

    for i in range(frames):
        family, seed = HELD_OUT[i % len(HELD_OUT)], RENDER_SEED + i
        scene = family_scene(seed, family)
        scene = trayed(scene, seed) if trays else scene
        shot = render(boxed(scene, seed, low) if walls else scene, seed)
        yield family, shot.image, {"name": str(seed), **{
            k: shot.calibration[k] for k in ("corners_px", "image_size", "geometry")}}


def sure(image: np.ndarray, entry: dict) -> dict:
    """The corners `bgboard read` finds in a photo by itself: their error (in the naming that
    fits best; None: no field found) and the evidence `corners_sure` weighs."""
    try:
        found = read_photo(image)
    except ValueError:
        return {"error": None, "evidence": None}
    return {"error": corner_error([r["corners_px"] for r in found.readings], entry),
            "evidence": evidence(image, found)}


def measure_sure(entries: list[dict]) -> list[dict]:
    """`sure` on each labelled photo."""
    return [{"name": e["name"], "copy": e["copy"], "fold": e["fold"],
             **sure(cv2.imread(str(PHOTOS / "images" / e["copy"])), e)} for e in entries]


def agree_without(results: list[dict], fold=None) -> float:
    """`AGREE` chosen on the photos of the folds but `fold` (None: all) as the installed one
    was: SHARE of the least second look of a photo found more than a third of a point off
    whose reading is not the start position (infinite where there is none)."""
    looks = [r["evidence"].second_look for r in results
             if r["fold"] != fold and r["evidence"] and r["error"] > RIGHT
             and not r["evidence"].start]
    return SHARE * min(looks, default=float("inf"))


def sure_row(label: str, results: list[dict], agree: float) -> str:
    said = [r for r in results if r["evidence"] and r["evidence"].sure(agree)]
    wrong = sum(r["error"] > RIGHT for r in said)
    right = sum(r["error"] is not None and r["error"] <= RIGHT for r in results)
    return (f"| {label} | {len(results)} | {agree:.3f} | {len(said)} | {wrong} | {right} |")


def report_sure(title: str, results: list[dict], agrees: dict) -> None:
    """The table of `corners_sure` by fold, each fold doubted with its own `AGREE`, and every
    photo's corner error and evidence."""
    print(f"## {title}\n")
    print("| fold | photos | AGREE (point widths) | said sure | sure but more than 1/3 point "
          "off | corners within 1/3 point |")
    print("|---|---|---|---|---|---|")
    folds = sorted({r["fold"] for r in results})
    for fold in folds:
        print(sure_row(str(fold), [r for r in results if r["fold"] == fold], agrees[fold]))
    said = sum(bool(r["evidence"]) and r["evidence"].sure(agrees[r["fold"]]) for r in results)
    wrong = sum(bool(r["evidence"]) and r["evidence"].sure(agrees[r["fold"]])
                and r["error"] > RIGHT for r in results)
    right = sum(r["error"] is not None and r["error"] <= RIGHT for r in results)
    print(f"| all | {len(results)} | - | {said} | {wrong} | {right} |")
    print("\n| photo | fold | corner error (points) | second look (points) | start position | "
          "sure |\n|---|---|---|---|---|---|")
    for r in results:
        seen = r["evidence"]
        if seen is None:
            print(f"| {r.get('copy', r['name'])} | {r['fold']} | not found | - | - | no |")
            continue
        print(f"| {r.get('copy', r['name'])} | {r['fold']} | {r['error']:.2f} | "
              f"{seen.second_look:.3f} | "
              f"{'yes' if seen.start else 'no'} | "
              f"{'yes' if seen.sure(agrees[r['fold']]) else 'no'} |")


def calibrate_starts(entries: list[dict]) -> list[dict]:
    """`bgboard calibrate`'s corners (found, then named by the start position) on the
    labelled photos of the start position; the error in the exact naming (None: refused)."""
    from bgboard.calibration.geometry import FieldGeometry
    from bgboard.controller.calibrating import found_corners

    results = []
    for entry in entries:
        if entry["points"] != list(START):
            continue
        image = cv2.imread(str(PHOTOS / "images" / entry["copy"]))
        try:
            named = found_corners(image, FieldGeometry(**entry["geometry"]))
        except ValueError:
            named = None
        results.append({"name": entry["name"], "fold": entry["fold"],
                        "error": None if named is None else corner_error([named], entry)})
    return results


def row(label: str, results: list[dict]) -> str:
    errors = [r["error"] for r in results if r["error"] is not None]
    right = sum(e <= RIGHT for e in errors)
    median = f"{np.median(errors):.2f}" if errors else "-"
    n = len(results)
    return (f"| {label} | {n} | {len(errors)} | {100 * right / n:.1f}% ({right}/{n}) | "
            f"{median} |")


def report(title: str, results: list[dict]) -> None:
    print(f"## {title}\n")
    print("| fold | photos | field found | found right (corners within 1/3 point) | "
          "median corner error of those found (points) |")
    print("|---|---|---|---|---|")
    for fold in sorted({r["fold"] for r in results}):
        print(row(str(fold), [r for r in results if r["fold"] == fold]))
    print(row("all", results))


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="real_fields.py", description=__doc__.splitlines()[0])
    parser.add_argument("--copies", action="store_true",
                        help="also the other copies the labels carry corners for")
    parser.add_argument("--list", action="store_true", help="print each photo's corner error")
    parser.add_argument("--starts", action="store_true",
                        help="also bgboard calibrate's corners on the start-position photos")
    parser.add_argument("--renders", type=int, default=0, metavar="N",
                        help="also N renders of the looks held out of training")
    parser.add_argument("--walls", action="store_true",
                        help="those renders as boxes whose walls show beside the field")
    parser.add_argument("--low", action="store_true",
                        help="with --walls: those boxes seen from a camera low beside them")
    parser.add_argument("--trays", action="store_true",
                        help="those renders with bear-off trays of every kind beside the field")
    parser.add_argument("--sure", action="store_true",
                        help="also corners_sure as bgboard read gives it, cross-validated by "
                             "fold (with --renders: on the renders too)")
    parser.add_argument("--finder", choices=("classic", "net"), default="classic",
                        help="the classic finder (quadrilaterals on colour edges; default) or "
                             "the learned one (vision.field_finder)")
    parser.add_argument("--net", type=Path, default=field_finder.MODEL, metavar="FILE.onnx",
                        help="the learned finder's net; {fold} in the name is each photo's "
                             "fold, to cross-validate nets trained with that fold held out")
    parser.add_argument("--refiner", default=str(field_finder.REFINER), metavar="FILE.onnx",
                        help="the net that places the learned finder's corners again "
                             "(default the installed one; none: not placed again); {fold} as "
                             "for --net")
    args = parser.parse_args(argv)
    if not PHOTOS.is_dir():
        parser.exit(2, f"real_fields.py: the photos are not at {PHOTOS}\n")
    refiner = None if args.refiner == "none" else Path(args.refiner)
    if refiner and refiner != field_finder.REFINER:
        missing = [twin(refiner, f) for f in range(5) if not twin(refiner, f).is_file()]
        if missing:
            parser.exit(2, f"real_fields.py: no refiner {missing[0]}\n")
    labelled = [e for e in load_labels() if not e["partial"]]
    entries = labelled + ([c for e in labelled for c in copy_entries(e)] if args.copies else [])
    try:
        results = measure(entries, args.finder, args.net, refiner)
    except ValueError as exc:  # no such net
        parser.exit(2, f"real_fields.py: {exc}\n")
    report(f"Field found in real board photos by the {args.finder} finder: {len(results)} "
           f"{'photos and copies' if args.copies else 'photos'}", results)
    if args.starts:
        print()
        report("bgboard calibrate on the real start-position photos (error in the naming it "
               "chose)", calibrate_starts(labelled))
    if args.renders:
        print()
        report(f"Field found in renders of the held-out looks by the {args.finder} finder: "
               f"{args.renders} renders{' with walls' if args.walls else ''}"
               f"{' seen from low' if args.walls and args.low else ''}"
               f"{' with trays' if args.trays else ''}",
               measure_renders(args.renders, args.finder, args.net, refiner, args.walls,
                               args.trays, args.low))
    if args.sure:
        print()
        found = measure_sure(entries)
        report_sure("corners_sure on the real photos, each fold's AGREE chosen on the other "
                    "four", found, {f: agree_without(found, f) for f in range(5)})
        if args.renders:
            print()
            shots = [{**sure(image, entry), "name": entry["name"], "fold": family}
                     for family, image, entry in held_out_renders(
                         args.renders, args.walls, args.trays, args.low)]
            report_sure(f"corners_sure on {args.renders} renders of the held-out looks, the "
                        f"installed AGREE", shots, {r["fold"]: AGREE for r in shots})
    if args.list:
        print("\n| photo | fold | corner error (points) |\n|---|---|---|")
        for r in results:
            error = "not found" if r["error"] is None else f"{r['error']:.2f}"
            print(f"| {r['copy']} | {r['fold']} | {error} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
