"""Vision accuracy and speed: synthetic frames over many looks, the real dice photos, ms/frame.

    python benchmarks/vision.py [--images 1000] [--dice-photos DIR] [--speed-frames 200]
    python benchmarks/vision.py --looks all --images 100 [--corners-only] [--misses]
    python benchmarks/vision.py --drawn --images 100 --speed-frames 0

Each synthetic frame is a random position (with dice, sometimes cocked, sometimes a hand) on
a random look; its calibration is learned from a start-position frame of the same board
(the same drawing of the look, camera and light, its own sensor noise), as `bgboard calibrate`
would (`--corners-only`: only the corners and geometry are given, as
users and outside tests give them; `--adapt`: the reader is then adapted to the look on that
start frame where it reads it mostly right, as `bgboard calibrate` does). `--looks` draws the
named looks of `vision.synthetic.looks` instead, `--images` frames of each, and reports them apart.
`--drawn` draws boards at random (`vision.synthetic.drawn`): `--images` frames of drawn boards
and as many of each family held out of the draw (tournament felt, logo, marble), reported apart.
Prints Markdown tables (they go into docs/vision.md); `--misses` also lists every point read
wrong, with the reader's likeliest readings there.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from bgboard.calibration.file import from_dict
from bgboard.controller.calibrating import ADAPT_FROM
from bgboard.vision import dice
from bgboard.vision.column_reader import MODEL
from bgboard.vision.columns import adapted
from bgboard.vision.dice_photo import find_dice
from bgboard.vision.learn import learn
from bgboard.vision.piles import MODEL as PILES
from bgboard.vision.read import CHECKER_READERS, Reader
from bgboard.vision.synthetic import COVERED, START_POINTS, Scene, covered, random_scene, render
from bgboard.vision.synthetic.drawn import DRAWN_HELD_OUT, drawn_scene, held_out_scene
from bgboard.vision.synthetic.looks import FAMILIES, HELD_OUT, family_scene

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def look_name(look) -> str:
    quality = "sharp" if not (look.blur or look.jpeg) else "blur/jpeg"
    return f"{look.texture}, {quality}"


def match_dice(truth: list[dict], seen: list[dict], aspect: float) -> list[tuple[dict, dict]]:
    """Pairs (true die, die seen) lying within 3% of the field of each other."""
    pairs, used = [], set()
    for t in truth:
        for j, d in enumerate(seen):
            dx = d["field_xy"][0] - t["field_xy"][0]
            dy = (d["field_xy"][1] - t["field_xy"][1]) / aspect
            if j not in used and np.hypot(dx, dy) < 0.03:
                used.add(j)
                pairs.append((t, d))
                break
    return pairs


def wrong_points(obs: dict, truth: dict) -> list[dict]:
    """Each point (1-24) and bar the reader got wrong in one frame: what it holds, what was
    read, and the reader's likeliest readings there (`point_options`; none for the bar)."""
    options = obs.get("point_options") or [[]] * 24
    wrong = [{"where": str(i + 1), "truth": t, "read": r,
              "options": [(n, round(float(p), 2)) for n, p in options[i][:2]]}
             for i, (r, t) in enumerate(zip(obs["points"], truth["points"], strict=True))
             if r != t]
    wrong += [{"where": f"bar {side}", "truth": truth["bar"][side], "read": obs["bar"][side],
               "options": []} for side in ("white", "black")
              if obs["bar"][side] != truth["bar"][side]]
    return wrong


DRAWN = "drawn"  # --looks' name for boards drawn at random (`vision.synthetic.drawn`)


def scene_of(name: str, seed: int) -> Scene:
    """A scene of the named look: a family of `vision.synthetic.looks`, a board drawn at
    random (DRAWN), or one of a family held out of the draw ("held out: NAME")."""
    if name == DRAWN:
        return drawn_scene(seed, hand=0.1, cocked=0.15)
    if name.startswith("held out: "):
        return held_out_scene(seed, name.removeprefix("held out: "), hand=0.1, cocked=0.15)
    return family_scene(seed, name, hand=0.1, cocked=0.15)


def scenes(n: int, first: int, looks: list[str] | None):
    """(look name or None, seed, scene): n random looks, or n of each named look."""
    if not looks:
        return [(None, seed, random_scene(seed, hand=0.1, cocked=0.15))
                for seed in range(first, first + n)]
    return [(name, seed, scene_of(name, seed))
            for name in looks for seed in range(first, first + n)]


def synthetic(n: int, first: int = 0, looks: list[str] | None = None,
              corners_only: bool = False, checker_reader: str = "net",
              adapt: bool = False, net: Path = MODEL, pile_net: Path = PILES) -> dict:
    stats = defaultdict(float)
    by_look: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    frames, misses = [], []
    for family, seed, scene in scenes(n, first, looks):
        start = render(Scene(START_POINTS, look=scene.look), seed, shot=1)  # the same board
        cal = from_dict(start.calibration)
        if not corners_only:
            try:
                cal = learn(start.image, cal)
            except ValueError:
                stats["calibration failed"] += 1
        if adapt:  # as `bgboard calibrate`: when the start frame reads mostly right
            points = Reader(cal, checker_reader, net, pile_net=pile_net
                            ).read(start.image)["points"]
            if sum(a == b for a, b in zip(points, START_POINTS, strict=True)) >= ADAPT_FROM:
                cal = adapted(start.image, cal, [*START_POINTS, 0, 0])
        rendered = render(scene, seed)
        reader = Reader(cal, checker_reader, net, pile_net=pile_net)
        obs = reader.read(rendered.image)
        frames.append((reader, rendered.image))
        truth = rendered.truth
        if truth["hand"]:
            stats["hand frames"] += 1
            stats["hand flagged"] += obs["hand"]
            continue
        stats["frames"] += 1
        stats["false hand"] += obs["hand"]
        hits = [a == b for a, b in zip(obs["points"], truth["points"], strict=True)]
        right = sum(hits)
        stats["points"] += 24
        stats["points right"] += right
        exact = right == 24 and obs["bar"] == truth["bar"]
        stats["boards exact"] += exact
        shown = [not c for c in covered(scene.look, scene.points)]  # every checker shows
        stats["points shown"] += sum(shown)
        stats["points shown right"] += sum(h for h, s in zip(hits, shown, strict=True) if s)
        stats["boards shown"] += all(shown)
        stats["boards shown exact"] += all(shown) and exact
        stats["confident"] += obs["confidence"] >= 0.5
        stats["confident exact"] += exact and obs["confidence"] >= 0.5
        stats["wrong"] += not exact
        stats["wrong flagged low"] += (not exact) and obs["confidence"] < 0.5
        name = family or look_name(scene.look)
        misses += [{"look": name, "seed": seed, **w} for w in wrong_points(obs, truth)]
        by_look[name][0] += exact
        by_look[name][1] += 1
        by_look[name][2] += right
        pairs = match_dice(truth["dice"], obs["dice"], scene.look.aspect)
        stats["dice"] += len(truth["dice"])
        stats["dice right"] += sum(t["value"] == d["value"] for t, d in pairs)
        stats["dice seen"] += len(obs["dice"])
        stats["false dice"] += len(obs["dice"]) - len(pairs)
        if len(truth["dice"]) == 2 and not any(t["cocked"] for t in truth["dice"]):
            stats["pairs"] += 1  # a roll: read whole when both dice and nothing else are seen
            stats["pairs right"] += len(obs["dice"]) == 2 and all(
                t["value"] == d["value"] for t, d in pairs) and len(pairs) == 2
        stats["cocked"] += sum(t["cocked"] for t in truth["dice"])
        stats["cocked flagged"] += sum(t["cocked"] and d["cocked"] for t, d in pairs)
        stats["flat"] += sum(not t["cocked"] for t in truth["dice"])
        stats["flat flagged"] += sum((not t["cocked"]) and d["cocked"] for t, d in pairs)
    return {"stats": stats, "by_look": by_look, "frames": frames, "misses": misses}


def real_dice(folder: Path) -> dict:
    stats = defaultdict(float)
    times = []
    for image_path in sorted((folder / "images").glob("*.jpg")):
        image = cv2.imread(str(image_path))
        h, w = image.shape[:2]
        label_path = folder / "labels" / (image_path.stem + ".txt")
        labels = [list(map(float, line.split())) for line in label_path.read_text().splitlines()
                  if line.strip()]
        t = time.perf_counter()
        seen = find_dice(image)
        times.append(time.perf_counter() - t)
        used = set()
        for cls, cx, cy, bw, bh in labels:
            stats["dice"] += 1
            for j, d in enumerate(seen):
                x, y, dw, dh = d["box_px"]
                if (j not in used and abs(x + dw / 2 - cx * w) < bw * w / 2
                        and abs(y + dh / 2 - cy * h) < bh * h / 2):
                    used.add(j)
                    stats["found"] += 1
                    stats["right"] += d["value"] == int(cls) + 1
                    break
        stats["seen"] += len(seen)
        stats["false"] += len(seen) - len(used)
        stats["photos"] += 1
    stats["ms"] = 1000 * float(np.median(times)) if times else 0.0
    return stats


def speed(frames, count: int) -> tuple[float, float]:
    """Median ms of `read` on one core: each frame read whole (the checker net on all 26
    patches), and read again unchanged (a still board: the net reads no patch again)."""
    cv2.setNumThreads(1)
    whole, still = [], []
    for reader, image in frames[:count]:
        if reader.columns:  # forget the frame already read: the net reads it all
            for judgements in (reader.columns.first, reader.columns.second):
                judgements.seen[:] = np.inf
        for times in (whole, still):
            t = time.perf_counter()
            reader.read(image)
            times.append(time.perf_counter() - t)
    return 1000 * float(np.median(whole)), 1000 * float(np.median(still))


def pct(a: float, b: float) -> str:
    return f"{100 * a / b:.2f}% ({int(a)}/{int(b)})" if b else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--dice-photos", type=Path, default=SHARED / "data" / "dice-photos")
    parser.add_argument("--speed-frames", type=int, default=200)
    parser.add_argument("--looks", metavar="NAMES",
                        help=f"all, or some of {','.join(FAMILIES)} (comma-separated)")
    parser.add_argument("--drawn", action="store_true",
                        help="boards drawn at random (vision.synthetic.drawn), and as many of "
                             "each family held out of the draw: "
                             f"{', '.join(DRAWN_HELD_OUT)}")
    parser.add_argument("--corners-only", action="store_true",
                        help="calibrations with corners and geometry only, nothing learned")
    parser.add_argument("--checkers", choices=CHECKER_READERS, default="net",
                        help="checker reader (default net)")
    parser.add_argument("--net", type=Path, default=MODEL, metavar="FILE.onnx",
                        help="the checker net (default the shipped one)")
    parser.add_argument("--pile-net", type=Path, default=PILES, metavar="FILE.onnx",
                        help="the pile counter (default the installed one, if any; a name "
                             "that is no file: none)")
    parser.add_argument("--dice-nets", type=Path, metavar="DIR",
                        help="the field-dice nets from DIR (field_find.onnx, field_read.onnx) "
                             "instead of the shipped ones")
    parser.add_argument("--adapt", action="store_true",
                        help="adapt the reader to each look on its start frame, as `bgboard "
                             "calibrate` does")
    parser.add_argument("--misses", action="store_true",
                        help="also list every point and bar read wrong (frames without a hand)")
    args = parser.parse_args()
    looks = FAMILIES if args.looks == "all" else args.looks.split(",") if args.looks else None
    unknown = set(looks or ()) - set(FAMILIES)
    if unknown:
        parser.error(f"--looks: unknown {', '.join(sorted(unknown))}")
    if args.drawn:
        if looks:
            parser.error("--drawn and --looks draw boards in two ways: give one")
        looks = [DRAWN, *(f"held out: {name}" for name in DRAWN_HELD_OUT)]
    if args.dice_nets:
        try:
            dice.use_nets(args.dice_nets)
        except ValueError as exc:
            parser.error(f"--dice-nets: {exc}")
    cv2.setNumThreads(1)
    result = synthetic(args.images, args.first, looks, args.corners_only, args.checkers,
                       args.adapt, args.net, args.pile_net)
    s = result["stats"]
    print(f"## Synthetic frames: {args.images} (seeds {args.first}..{args.first + args.images - 1})"
          f"{' of each look' if looks else ''}"
          f"{', corners only' if args.corners_only else ''}, {args.checkers} checker reader"
          f"{', adapted on the start frame' if args.adapt else ''}\n")
    print("| measure | result | bar |\n|---|---|---|")
    print(f"| per-point count | {pct(s['points right'], s['points'])} | >= 99.9% |")
    print(f"| whole board exact (points + bar) | {pct(s['boards exact'], s['frames'])} | >= 99% |")
    print(f"| per-point count, points whose every checker shows (no checker within {COVERED} "
          f"of a diameter of one below it) | {pct(s['points shown right'], s['points shown'])} "
          "| - |")
    print(f"| whole board exact, boards whose every checker shows | "
          f"{pct(s['boards shown exact'], s['boards shown'])} | - |")
    print(f"| dice found with the right value | {pct(s['dice right'], s['dice'])} | >= 99.5% |")
    print(f"| false dice (of dice reported) | {pct(s['false dice'], s['dice seen'])} | - |")
    print(f"| rolls of two flat dice read whole (both values, nothing more) | "
          f"{pct(s['pairs right'], s['pairs'])} | >= 98% |")
    print(f"| cocked dice flagged | {pct(s['cocked flagged'], s['cocked'])} | >= 95% |")
    print(f"| flat dice flagged cocked | {pct(s['flat flagged'], s['flat'])} | - |")
    print(f"| hand frames flagged | {pct(s['hand flagged'], s['hand frames'])} | >= 99% |")
    print(f"| frames without a hand flagged as hand | {pct(s['false hand'], s['frames'])} | - |")
    print(f"| exact among confidence >= 0.5 | {pct(s['confident exact'], s['confident'])} | - |")
    print(f"| wrong boards with confidence < 0.5 | {pct(s['wrong flagged low'], s['wrong'])} "
          "| - |")
    if s["calibration failed"]:
        print(f"| start frames not learned (read with guessed colours) | "
              f"{int(s['calibration failed'])} | - |")
    print("\n| look | points right | whole board exact |\n|---|---|---|")
    for name, (ok, n, right) in sorted(result["by_look"].items()):
        held = " (held out)" if name in HELD_OUT and not args.drawn else ""
        print(f"| {name}{held} | {pct(right, 24 * n)} | {pct(ok, n)} |")
    if args.misses:
        print("\n| look | seed | point | holds | read | likeliest readings |\n"
              "|---|---|---|---|---|---|")
        for m in result["misses"]:
            options = ", ".join(f"{n} ({p})" for n, p in m["options"]) or "-"
            print(f"| {m['look']} | {m['seed']} | {m['where']} | {m['truth']} | {m['read']} | "
                  f"{options} |")
    if args.dice_photos.is_dir():
        r = real_dice(args.dice_photos)
        print(f"\n## Real dice photos: {int(r['photos'])} photos, {int(r['dice'])} labelled dice\n")
        print("| measure | result | bar |\n|---|---|---|")
        print(f"| found with the right value | {pct(r['right'], r['dice'])} | >= 95% |")
        print(f"| found (any value) | {pct(r['found'], r['dice'])} | - |")
        print(f"| false dice (of dice reported) | {pct(r['false'], r['seen'])} | <= 2% |")
        print(f"| median ms per 640x640 photo | {r['ms']:.1f} | - |")
    if not args.speed_frames:
        return
    whole, still = speed(result["frames"], args.speed_frames)
    print(f"\n## Speed\n\nmedian {whole:.1f} ms per 1280x720 frame for `read` on one core, "
          f"{still:.1f} ms when the board has not changed since the last frame "
          f"(cv2.setNumThreads(1), {min(args.speed_frames, len(result['frames']))} frames)")


if __name__ == "__main__":
    main()
