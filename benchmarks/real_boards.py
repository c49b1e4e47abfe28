"""Today's reader on the labelled real board photos, field corners given: the yardstick.

    python benchmarks/real_boards.py [--fold N ...] [--worst N] [--show DIR] [--copies]
        [--checkers net|colour] [--net FILE.onnx] [--pile-net FILE.onnx]
        [--auto [--finder-net FILE.onnx]]
    python benchmarks/real_boards.py --same-board [--net FILE.onnx] [--pile-net FILE.onnx]

Reads every whole-field photo of benchmarks/data/real_boards.json (its chosen copy from
../shared/data/real-boards) with `bgboard.vision.read.Reader` through the minimal calibration
users give (only `version`, `image_size`, `corners_px`, `geometry`) and prints Markdown tables:
points right, boards whole, checkers per colour found / missed / false, the bar, per fold and
overall, and the worst photos. Points and bars that the labels mark uncertain are not scored;
a board counts as whole only on photos with no uncertain label. `--show DIR` writes one PNG per
photo: the warped field with the grid and `truth/reading` per point, mismatches in red.
With the net reader it also prints how often a point's likeliest reading is right against the
probability `point_options` gives it, in bands of that probability (honest uncertainty).
`--copies` also reads the other copies whose corners the labels carry (`copy_corners`: turned,
sheared or grey versions of the same photos) and prints their figures apart: they are the same
positions, so they say how the reading holds up to such changes, not more photos.
`--checkers net --net 'cache/fold{fold}.onnx'` reads each photo with the net trained without
its fold: the cross-validated figure of the learned reader; `--pile-net` likewise chooses the
pile counter (`vision.piles`; a name that is no file: none).
`--same-board` reads each photo of a board that has several labelled photos (SAME_BOARDS)
unadapted and adapted on each other photo of that board, as `bgboard calibrate` adapts the
reader on the start frame (the other photo's bare rows as references).
`--auto` reads each photo as `bgboard read PHOTO` does with no calibration (the field found,
its corners named by the position: controller.photo) and scores the first reading it gives
where the labels show the start position; a photo with no start position is scored in the
labels' naming (the labeller's choice of p1, which no photo tells) and how often the first
reading is named so is counted apart; a photo whose field is not found scores none of its
points. `--finder-net FILE.onnx` (with
`{fold}` as for `--net`) tries a learned field finder that is not installed.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from bgboard.benchmarks.label_real_boards import (
    PHOTOS,
    calibration,
    copy_entries,
    draw_field,
    load_labels,
    warp_field,
)
from bgboard.calibration.rectify import FieldView
from bgboard.vision.column_reader import MODEL, ColumnReader
from bgboard.vision.columns import Columns, board_references
from bgboard.vision.piles import MODEL as PILES
from bgboard.vision.read import CHECKER_READERS, Reader

COLOURS = ("white", "black")
SURENESS = (0.5, 0.8, 0.9, 0.99, 0.999)  # bounds of the reliability table's rows
SINGULAR = {"photos": "photo", "copies": "copy"}
RED, WHITE, GREY = (0, 0, 255), (255, 255, 255), (160, 160, 160)
SAME_BOARDS = (  # labelled photos of one board (by eye: the same woods, green felt on the bar)
    ("IMG_D7333873CCD9-1_jpeg", "image016-_png", "image017-_png"),
)


class OneLineParser(argparse.ArgumentParser):
    """Usage errors on one line, exit code 2 (as the bgboard CLI)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def tally(truth: list[int], reading: list[int], skip: set[int]) -> dict[str, int]:
    """Checkers per colour found / missed / false over the points not in `skip` (1-based):
    per point, found = the smaller of the true and read counts of that colour, missed = what
    the reading lacks, false = what it has too many."""
    counts: dict[str, int] = defaultdict(int)
    for point, (t, r) in enumerate(zip(truth, reading, strict=True), start=1):
        if point in skip:
            continue
        for colour, sign in (("white", 1), ("black", -1)):
            want, got = max(sign * t, 0), max(sign * r, 0)
            counts[f"{colour} found"] += min(want, got)
            counts[f"{colour} missed"] += max(want - got, 0)
            counts[f"{colour} false"] += max(got - want, 0)
    return counts


def score(entry: dict, obs: dict) -> dict:
    """One photo's figures: points scored and right, wrong points, bar, whole board, tallies."""
    skip = set(entry.get("uncertain_points", []))
    truth, reading = entry["points"], obs["points"]
    scored = [p for p in range(1, 25) if p not in skip]
    wrong = [p for p in scored if truth[p - 1] != reading[p - 1]]
    bar_certain = not entry.get("uncertain_bar", False)
    bar_right = obs["bar"] == entry["bar"] if bar_certain else None
    certain = bar_certain and not skip
    options = obs.get("point_options")
    sure = [(options[p - 1][0][1], p not in wrong) for p in scored] if options else []
    return {"name": entry["name"] + copy_tag(entry), "fold": entry["fold"], "points": len(scored),
            "right": len(scored) - len(wrong), "wrong": wrong, "bar right": bar_right,
            "whole": (not wrong and bar_right) if certain else None,
            "tally": tally(truth, reading, skip), "sure": sure}


def read_photo(entry: dict, checkers: str = "net", net: Path = MODEL,
               pile_net: Path = PILES) -> tuple[np.ndarray, dict]:
    """The entry's copy of the photo and its reading through its minimal calibration by the
    checker reader `checkers` (colour, or net with the ONNX file `net` and the pile counter
    `pile_net`)."""
    image = cv2.imread(str(PHOTOS / "images" / entry["copy"]))
    return image, Reader(calibration(entry), checkers, net, pile_net=pile_net).read(image)


def show(entry: dict, image: np.ndarray, obs: dict, result: dict, out: Path) -> Path:
    """Write DIR/NAME.png: the warped field with `truth/reading` per point (red: wrong, grey:
    the label is uncertain) and the bar in a band below."""
    cal = calibration(entry)
    skip = set(entry.get("uncertain_points", []))
    texts = {}
    for p in range(1, 25):
        t, r = entry["points"][p - 1], obs["points"][p - 1]
        colour = GREY if p in skip else (RED if p in result["wrong"] else WHITE)
        texts[p] = (f"{t}/{r}", colour)
    field = draw_field(warp_field(image, cal), cal.geometry, texts)
    band = np.zeros((40, field.shape[1], 3), np.uint8)
    bar_colour = {None: GREY, True: WHITE, False: RED}[result["bar right"]]
    bar_text = (f"{result['name']}  truth/reading  bar white {entry['bar']['white']}/"
                f"{obs['bar']['white']} black {entry['bar']['black']}/{obs['bar']['black']}")
    cv2.putText(band, bar_text, (8, 27), cv2.FONT_HERSHEY_SIMPLEX, 0.6, bar_colour, 1,
                cv2.LINE_AA)
    path = out / f"{result['name']}.png"
    cv2.imwrite(str(path), np.vstack([field, band]))
    return path


def copy_tag(entry: dict) -> str:
    """"" for a photo's chosen copy, "-" and the start of the copy's hash for another copy
    (an entry from `copy_entries` with the chosen copy's name added as "chosen")."""
    if entry.get("chosen", entry.get("copy")) == entry.get("copy"):
        return ""
    return "-" + Path(entry["copy"]).stem.split(".rf.")[1][:8]


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}% ({a}/{b})" if b else "-"


def summary_row(label: str, results: list[dict]) -> str:
    """One Markdown row: photos, points right, boards whole, bar right, checkers per colour."""
    points = sum(r["points"] for r in results)
    right = sum(r["right"] for r in results)
    judged = [r for r in results if r["whole"] is not None]
    whole = sum(bool(r["whole"]) for r in judged)
    bars = [r for r in results if r["bar right"] is not None]
    bar_right = sum(bool(r["bar right"]) for r in bars)
    cells = [label, str(len(results)), pct(right, points), pct(whole, len(judged)),
             pct(bar_right, len(bars))]
    for colour in COLOURS:
        t = defaultdict(int)
        for r in results:
            for k, v in r["tally"].items():
                t[k] += v
        cells.append(f"{t[colour + ' found']} / {t[colour + ' missed']} / {t[colour + ' false']}")
    return "| " + " | ".join(cells) + " |"


def report(title: str, results: list[dict], worst: int, unit: str = "photos") -> None:
    """Print the Markdown tables: per fold and overall, then the worst `unit`."""
    print(f"## {title}\n")
    print(f"| fold | {unit} | points right | boards whole | bar right "
          "| light found / missed / false | dark found / missed / false |")
    print("|---|---|---|---|---|---|---|")
    for fold in sorted({r["fold"] for r in results}):
        print(summary_row(str(fold), [r for r in results if r["fold"] == fold]))
    print(summary_row("all", results))
    print(f"\n### The {min(worst, len(results))} worst {unit}\n")
    print(f"| {SINGULAR[unit]} | fold | points right | wrong points |\n|---|---|---|---|")
    for r in sorted(results, key=lambda r: (r["right"] - r["points"], r["name"]))[:worst]:
        wrong = ", ".join(map(str, r["wrong"])) or "-"
        print(f"| {r['name']} | {r['fold']} | {r['right']}/{r['points']} | {wrong} |")


def reliability(results: list[dict]) -> None:
    """Print how often a point's likeliest reading is right against the probability the
    reader gives it (`point_options`), in bands of that probability: honest uncertainty says
    about as often as it is."""
    sure = np.array([s for r in results for s in r["sure"]], float).reshape(-1, 2)
    print("\n### How sure and how right: each point's likeliest reading\n")
    print("| its probability | points | right | mean probability |\n|---|---|---|---|")
    bounds = (0.0, *SURENESS, np.inf)
    for low, high in zip(bounds[:-1], bounds[1:], strict=True):
        band = sure[(sure[:, 0] >= low) & (sure[:, 0] < high)]
        label = f"{low:g} and more" if high == np.inf else f"{low:g} to {high:g}"
        mean = f"{band[:, 0].mean():.3f}" if len(band) else "-"
        print(f"| {label} | {len(band)} | {pct(int(band[:, 1].sum()), len(band))} | {mean} |")


def not_found(entry: dict) -> dict:
    """The figures of a photo whose field was not found: none of its points right."""
    skip = set(entry.get("uncertain_points", []))
    scored = [p for p in range(1, 25) if p not in skip]
    return {"name": entry["name"] + copy_tag(entry), "fold": entry["fold"],
            "points": len(scored), "right": 0, "wrong": scored, "bar right": False,
            "whole": False, "tally": tally(entry["points"], [0] * 24, skip), "found": False,
            "sure": []}


def read_found(entry: dict, checkers: str, finder: Path | None, net: Path = MODEL
               ) -> tuple[np.ndarray, dict | None, bool | None]:
    """The entry's photo, the reading `bgboard read` gives with no calibration (None: no field
    found) and whether it is the first reading (None where the labels show the start
    position): the first one there, whose naming the photo tells; else the one named as the
    labels are, whose naming is the labeller's choice (`no_start_naming`), not something a
    photo without the start position can tell. `net`: the checker net."""
    from bgboard.controller.photo import read_photo as read_any
    from bgboard.controller.photo import shows_start

    image = cv2.imread(str(PHOTOS / "images" / entry["copy"]))
    try:
        readings = read_any(image, checkers, finder=finder, checker_net=net).readings
    except ValueError:
        return image, None, None
    if shows_start(entry):
        return image, readings[0], None
    named = no_start_naming(entry, readings)
    return image, named, named is readings[0]


def no_start_naming(entry: dict, readings: list[dict]) -> dict:
    """The reading whose named corners lie nearest the labelled ones."""
    def gap(reading: dict) -> float:
        return sum(float(np.hypot(*np.subtract(reading["corners_px"][k], entry["corners_px"][k])))
                   for k in entry["corners_px"])
    return min(readings, key=gap)


def measure(entries: list[dict], show_dir: Path | None, checkers: str = "net",
            net: Path = MODEL, finder: str | None = None, pile_net: Path = PILES) -> list[dict]:
    """Read and score each labelled photo copy (with its corners, or `finder` "auto" or the
    learned finder's net: found in the photo); picture it into `show_dir` if given. `net` and
    `pile_net` (with its corners) may name each photo's fold as `{fold}`."""
    results = []
    for entry in entries:
        fold = entry["fold"]
        fold_net = Path(str(net).format(fold=fold))
        if finder:
            net_file = None if finder == "auto" else Path(finder.format(fold=fold))
            image, obs, first = read_found(entry, checkers, net_file, fold_net)
            if obs is None:
                results.append(not_found(entry))
                continue
            entry = {**entry, "corners_px": obs["corners_px"]}
        else:
            image, obs = read_photo(entry, checkers, fold_net,
                                    Path(str(pile_net).format(fold=fold)))
            first = None
        results.append({**score(entry, obs), "found": True})
        if first is not None:
            results[-1]["first named as labelled"] = first
        if show_dir:
            show(entry, image, obs, results[-1], show_dir)
    return results


def same_board(net: Path, pile_net: Path = PILES) -> None:
    """Print how each photo of a board with several labelled photos reads unadapted and
    adapted on each other photo of that board (its bare rows, by its labels, as the reader's
    references: `vision.columns.board_references`), through the net for the photo's fold."""
    entries = {e["name"]: e for e in load_labels()}
    print("## One board, several photos: adapted on another photo of the same board\n")
    print("| photo | fold | unadapted | adapted on | points right |\n|---|---|---|---|---|")
    totals = [0, 0, 0]  # points scored, right unadapted, right adapted (per pairing)
    for group in SAME_BOARDS:
        for name in group:
            entry = entries[name]
            image = cv2.imread(str(PHOTOS / "images" / entry["copy"]))
            view, model = FieldView(calibration(entry)), Path(str(net).format(fold=entry["fold"]))
            counter = Path(str(pile_net).format(fold=entry["fold"]))
            plain = score(entry, {"points": ColumnReader(view, model, pile_net=counter
                                                         ).read(image).points,
                                  "bar": entry["bar"]})
            for other in (entries[n] for n in group if n != name):
                seen = cv2.imread(str(PHOTOS / "images" / other["copy"]))
                on_bar = 1 if sum(other["bar"].values()) else 0  # labelled by colour, not half
                board = board_references(Columns(FieldView(calibration(other))).cut(seen),
                                         [*other["points"], on_bar, on_bar])
                points = ColumnReader(view, model, board=board, pile_net=counter
                                      ).read(image).points
                adapted = score(entry, {"points": points, "bar": entry["bar"]})
                print(f"| {name} | {entry['fold']} | {plain['right']}/{plain['points']} | "
                      f"{other['name']} | {adapted['right']}/{adapted['points']} |")
                for i, n in enumerate((plain["points"], plain["right"], adapted["right"])):
                    totals[i] += n
    print(f"| all pairings | | {pct(totals[1], totals[0])} | | {pct(totals[2], totals[0])} |")


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="real_boards.py", description=__doc__.splitlines()[0])
    parser.add_argument("--fold", type=int, action="append", choices=range(5),
                        help="only the photos of this fold (repeatable; default all)")
    parser.add_argument("--worst", type=int, default=8, help="how many worst photos to list")
    parser.add_argument("--show", type=Path, metavar="DIR", help="write a PNG per photo here")
    parser.add_argument("--copies", action="store_true",
                        help="also read the other copies the labels carry corners for")
    parser.add_argument("--checkers", choices=CHECKER_READERS, default="net",
                        help="checker reader (default net)")
    parser.add_argument("--net", type=Path, default=MODEL, metavar="FILE.onnx",
                        help="the column net --checkers net uses (default the shipped one); "
                             "{fold} in the name is each photo's fold, to cross-validate nets "
                             "trained with that fold held out")
    parser.add_argument("--pile-net", type=Path, default=PILES, metavar="FILE.onnx",
                        help="the pile counter (default the installed one, if any; {fold} as "
                             "for --net); not with --auto, which reads as `bgboard read` does")
    parser.add_argument("--same-board", action="store_true",
                        help="only: read each photo of a board with several labelled photos "
                             "adapted on each other photo of it")
    parser.add_argument("--auto", action="store_true",
                        help="find the field in each photo instead of using its corners")
    parser.add_argument("--finder-net", metavar="FILE.onnx",
                        help="with --auto: this learned field finder's net ({fold}: each "
                             "photo's fold)")
    args = parser.parse_args(argv)
    finder = (args.finder_net or "auto") if args.auto else None
    if args.auto and args.pile_net != PILES:
        parser.error("--pile-net: not with --auto")
    if not PHOTOS.is_dir():
        parser.exit(2, f"real_boards.py: the photos are not at {PHOTOS}\n")
    if args.same_board:
        same_board(args.net, args.pile_net)
        return 0
    if args.show:
        args.show.mkdir(parents=True, exist_ok=True)
    chosen = [e for e in load_labels()
              if not e["partial"] and (not args.fold or e["fold"] in args.fold)]
    results = measure(chosen, args.show, args.checkers, args.net, finder, args.pile_net)
    how = "the field found in the photo" if finder else "corners given"
    report(f"Real board photos, {how}, {args.checkers} checker reader: "
           f"{len(results)} photos", results, args.worst)
    if any(r["sure"] for r in results):
        reliability(results)
    if finder:
        print(f"\nfield found in {sum(r['found'] for r in results)} of {len(results)} photos")
        named = [r["first named as labelled"] for r in results if "first named as labelled" in r]
        print(f"photos with no start position: {len(named)} found, each scored in the labels' "
              f"naming; the first reading named so in {sum(named)}")
    if args.copies:
        copies = [{**c, "chosen": e["copy"]} for e in chosen for c in copy_entries(e)]
        results = measure(copies, args.show, args.checkers, args.net, finder, args.pile_net)
        names = len({e["name"] for e in copies})
        print()
        report(f"Other copies of {names} of those photos, corners carried over: "
               f"{len(results)} copies", results, args.worst, "copies")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
