"""Train the doubling-cube nets (finder on the wide half-size view, reader on frame patches).

    pip install torch==2.13.0 onnx        # training only: bgboard runs the nets with OpenCV
    pip install pillow                    # only for train --typefaces
    python benchmarks/train_cube.py render --frames 3000 --cache benchmarks/cache/cube
    python benchmarks/train_cube.py train --cache benchmarks/cache/cube --out vision/models
    python benchmarks/train_cube.py measure            # renders held out, real board photos

Material: frames rendered by `vision.synthetic` from seeds 300000 on, alternately on random looks
and on the trained looks of `vision.synthetic.looks` (never the held-out logo and marble), each with
up to two dice and, in nine frames of ten, the cube where players leave it
(`synthetic.random_cube`). Each frame is kept in `--cache` as the finder's input (`cube.wide_half`)
with the cube's centre there, and the reader's patches: the cube seen six times (placed and
sized as the finder and the sizes read might), the dice and eight random places (no cube).
Once the finder is trained, its false marks on the frames become more "no cube" patches.
`measure` reads frames never trained on: seeds 0-299 on the held-out looks and on random
ones (`--renders`), and the real board photos whose cube is labelled in
benchmarks/data/real_dice.json (none of them trained on).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from bgboard.benchmarks.augment import recolour
from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision import cube as vc
from bgboard.vision import dice as fd
from bgboard.vision import models
from bgboard.vision.dice_photo import crop
from bgboard.vision.synthetic import random_cube, random_dice, random_scene, render
from bgboard.vision.synthetic.looks import HELD_OUT, TRAINED, family_scene

FIRST_SEED = 300_000
PLACES = 8  # random "no cube" patches per frame
SEEN = 6  # patches of the cube per frame
WINDOW = (176, 256)  # finder training window (h, w), half-size pixels
BOARD_REPEAT = 10  # times each real board photo's patches are seen an epoch
FONT_DIRS = ("/usr/share/fonts/truetype", "/usr/share/gnubg/fonts")
TEXT = -1  # a reader item to print text on (`with_text`): no cube


def scene_for(seed: int, held_out: bool = False):
    """The frame of `seed`: a random look or a (trained or held-out) named one, up to two
    dice, and the cube in nine frames of ten."""
    rng = np.random.default_rng(seed + 7)
    looks = HELD_OUT if held_out else TRAINED
    scene = random_scene(seed, hand=0.05) if seed % 2 else \
        family_scene(seed, looks[seed // 2 % len(looks)], hand=0.05)
    dice = random_dice(rng, scene.look, scene.points, scene.bar, 0.1, int(rng.integers(0, 3)))
    cube = random_cube(rng, scene.look) if rng.random() < 0.9 else None
    return replace(scene, dice=dice, cube=cube), rng


def cube_centre(truth: dict, view: FieldView) -> tuple[np.ndarray, float] | None:
    """The cube's centre (rectified px; its frame box's middle) and side (rectified px)."""
    if "cube" not in truth:
        return None
    box = truth["cube"]["box_px"]
    return box_middle(view, box), rect_side(view, box)


def box_middle(view: FieldView, box) -> np.ndarray:
    """The middle of a frame box (x, y, w, h) in rectified pixels."""
    x, y, w, h = box
    centre = np.linalg.solve(view.rect_to_image, [x + w / 2, y + h / 2, 1.0])
    return centre[:2] / centre[2]


def rect_side(view: FieldView, box) -> float:
    """The side of the cube a frame box holds, in rectified pixels: the box's larger side
    there, times 0.85 (the box of a turned cube, or of a 3D one with its sides, is larger
    than its top)."""
    x, y, w, h = box
    corners = cv2.perspectiveTransform(np.float32([[[x, y], [x + w, y + h]]]),
                                       np.linalg.inv(view.rect_to_image))[0]
    return float(np.abs(corners[1] - corners[0]).max()) * 0.85


def patches_of(image, view, cube, dice_rect, rng) -> tuple[np.ndarray, np.ndarray]:
    """The reader's patches of one frame and their labels (0: no cube, 1-6: FACES)."""
    out, labels = [], []
    side = vc.CUBE_SIZE * view.h
    if cube is not None:
        (centre, true_side), face = cube
        for _ in range(SEEN):
            at = centre + rng.normal(0, 0.12, 2) * true_side
            out.append(vc.cube_patch(image, view, at, true_side * rng.uniform(0.8, 1.25)))
            labels.append(vc.FACES.index(face) + 1)
    x0, y0, w, h = vc.wide_box(view)
    places = [*dice_rect, *(np.array([x0, y0]) + rng.uniform(0, 1, 2) * (w, h)
                            for _ in range(PLACES))]
    for at in places:
        if cube is None or np.hypot(*(at - cube[0][0])) > 0.8 * cube[0][1]:
            out.append(vc.cube_patch(image, view, at, side * rng.uniform(0.75, 1.35)))
            labels.append(0)
    return np.stack(out), np.array(labels, np.int64)


def make_frame(seed: int, folder: Path) -> None:
    """Render one frame and keep what training needs (`seed`.npz, `seed`.jpg)."""
    scene, rng = scene_for(seed)
    rendered = render(scene, seed)
    view = FieldView(from_dict(rendered.calibration))
    found = cube_centre(rendered.truth, view)
    cube = (found, scene.cube.face) if found else None
    dice_rect = [box_middle(view, d["box_px"]) for d in rendered.truth["dice"]]
    patches, labels = patches_of(rendered.image, view, cube, dice_rect, rng)
    x0, y0, _, _ = vc.wide_box(view)
    centre = (found[0] - (x0, y0)) / 2 if found else np.zeros(2)
    np.savez_compressed(folder / f"{seed}.npz", half=vc.wide_half(rendered.image, view),
                        centre=centre, side=found[1] / 2 if found else 0.0,
                        has=found is not None, patches=patches, labels=labels)
    cv2.imwrite(str(folder / f"{seed}.jpg"), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    (folder / f"{seed}.json").write_text(json.dumps(rendered.calibration))


def render_frames(args) -> None:
    args.cache.mkdir(parents=True, exist_ok=True)
    todo = [s for s in range(FIRST_SEED, FIRST_SEED + args.frames)
            if not (args.cache / f"{s}.npz").exists()]
    print(f"{len(todo)} frames to render into {args.cache}", flush=True)
    start = time.time()
    with Pool(args.jobs) as pool:
        for i, _ in enumerate(pool.imap_unordered(_make, [(s, args.cache) for s in todo]), 1):
            if i % 200 == 0:
                print(f"  {i}/{len(todo)} in {time.time() - start:.0f} s", flush=True)


def _make(job) -> None:
    make_frame(*job)


def window(half, centre, has, rng) -> tuple[np.ndarray, np.ndarray]:
    """A WINDOW of the wide view (padded where it is smaller), holding the cube, if there is
    one, two times in three; and the cube's centre in it."""
    h, w = half.shape[:2]
    image = cv2.copyMakeBorder(half, 0, max(0, WINDOW[0] - h), 0, max(0, WINDOW[1] - w),
                               cv2.BORDER_REPLICATE)
    top, left = (max(0, n - m) for n, m in zip(image.shape[:2], WINDOW, strict=False))
    y0, x0 = int(rng.integers(0, top + 1)), int(rng.integers(0, left + 1))
    if has and rng.random() < 2 / 3:
        x0 = int(np.clip(centre[0] - rng.uniform(8, WINDOW[1] - 8), 0, left))
        y0 = int(np.clip(centre[1] - rng.uniform(8, WINDOW[0] - 8), 0, top))
    return image[y0:y0 + WINDOW[0], x0:x0 + WINDOW[1]], centre - (x0, y0)


def finder_sample(half, centre, side, has, rng):
    """A window of the wide view, recoloured, maybe turned half round and mirrored, and its targets
    per cell (as train_field_dice's: a peak at the cube's cell, the offset in it)."""
    image, centre = window(half, centre, has, rng)
    ch, cw = WINDOW[0] // fd.STRIDE, WINDOW[1] // fd.STRIDE
    heat, dx, dy, mask = (np.zeros((ch, cw), np.float32) for _ in range(4))
    u, v = centre / fd.STRIDE
    if has and 0 <= u < cw and 0 <= v < ch:
        sigma = max(0.5, side / fd.STRIDE / 3)
        heat = np.exp(-((np.arange(cw)[None] + 0.5 - u) ** 2
                        + (np.arange(ch)[:, None] + 0.5 - v) ** 2) / (2 * sigma ** 2))
        heat = heat.astype(np.float32)
        r, c = int(v), int(u)
        heat[r, c], dx[r, c], dy[r, c], mask[r, c] = 1.0, u % 1, v % 1, 1
    if rng.random() < 0.5:  # half a turn: x to 1 - x and y to 1 - y in the cell
        dx, dy = ((1 - dx) * mask)[::-1, ::-1], ((1 - dy) * mask)[::-1, ::-1]
        image, heat, mask = image[::-1, ::-1], heat[::-1, ::-1], mask[::-1, ::-1]
    if rng.random() < 0.5:  # mirrored: x to 1 - x
        dx = ((1 - dx) * mask)[:, ::-1]
        image, heat, mask, dy = image[:, ::-1], heat[:, ::-1], mask[:, ::-1], dy[:, ::-1]
    targets = np.stack([np.ascontiguousarray(a) for a in (heat, dx, dy, mask)])
    return fd.net_input(np.ascontiguousarray(recolour(image, rng)))[0], targets


def reader_net():
    """The cube reader, afresh (PyTorch)."""
    import torch
    from torch import nn

    from bgboard.benchmarks.train_field_dice import reader_body

    class Reader(nn.Module):
        """Probabilities of no cube (0) and of each number on top for the cube in a 48x48
        patch's middle; the last layer sees a 4x4 map of features, so it knows the digits'
        order."""

        def __init__(self):
            super().__init__()
            self.body = reader_body(16, 7)

        def forward(self, x):
            return torch.softmax(self.body(x), 1)

    return Reader()


def reader_sample(patch, label, rng):
    """A patch turned a quarter any number of times (the number reads in any turn; never
    mirrored), maybe recoloured and blurred; a TEXT one gets text printed on it (`with_text`)
    and is "no cube"."""
    if label == TEXT:
        patch, label = with_text(patch, rng), 0
    if rng.random() < 0.5:
        patch = recolour(patch, rng)
    if rng.random() < 0.2:
        patch = cv2.GaussianBlur(patch, (3, 3), rng.uniform(0.5, 1.0))
    return fd.net_input(np.ascontiguousarray(np.rot90(patch, int(rng.integers(4)))))[0], label


def reader_loss(out, target):
    import torch

    return torch.nn.functional.nll_loss(torch.log(out.clamp(min=1e-6)), target)


def false_marks(folder: Path, seeds, finder) -> list[tuple]:
    """Reader patches ("no cube") where the trained finder marks a cube that is not there."""
    items = []
    for seed in seeds:
        data = np.load(folder / f"{seed}.npz")
        view = FieldView(from_dict(json.loads((folder / f"{seed}.json").read_text())))
        x0, y0, _, _ = vc.wide_box(view)
        marks = 2 * fd.find_centres(data["half"], finder) + (x0, y0)
        truth = 2 * data["centre"] + (x0, y0)
        far = [m for m in marks if not data["has"] or np.hypot(*(m - truth)) > 2 * data["side"]]
        if far:
            image = cv2.imread(str(folder / f"{seed}.jpg"))
            items += [(vc.cube_patch(image, view, m, vc.CUBE_SIZE * view.h * s), 0)
                      for m in far for s in vc.SIZES]
    return items


def dice_photo_items(rng) -> list[tuple]:
    """"No cube" patches of the 200 real dice photos (../shared/data/dice-photos; none is a
    board photo): each die twice, seen at the sizes the reader sees dice at on a board."""
    from bgboard.benchmarks.train_dice_photo import PHOTOS, load_photos

    return [(crop(image, x + dx * side, y + dy * side, side * rng.uniform(0.9, 1.7),
                  vc.PATCH_CUBES, vc.PATCH), 0)
            for _, image, dice in load_photos(PHOTOS) for x, y, side, _ in dice
            for dx, dy in rng.normal(0, 0.1, (2, 2))]


def with_text(patch: np.ndarray, rng) -> np.ndarray:
    """The patch with a few random letters and digits printed on it, turned any way, as a
    watermark, a maker's mark or a label is (text is no cube: only a number on a cube's face
    is)."""
    chars = "ABCDEFGHKLMNOPRSTUXYZabdeghkmnorstx0123456789#|"
    text = "".join(rng.choice(list(chars), int(rng.integers(3, 9))))
    font = int(rng.choice([0, 1, 2, 3, 4, 16]))
    thick = int(rng.integers(1, 4))
    (w, h), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = rng.uniform(0.4, 1.4) * vc.PATCH / w
    ink = np.zeros((vc.PATCH, vc.PATCH), np.uint8)
    org = (int(rng.integers(-vc.PATCH // 3, vc.PATCH // 3)),
           int(vc.PATCH / 2 + rng.uniform(-0.3, 0.5) * vc.PATCH))
    cv2.putText(ink, text, org, font, scale, 255, thick, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((vc.PATCH / 2, vc.PATCH / 2), rng.uniform(0, 360), 1.0)
    alpha = cv2.warpAffine(ink, turn, (vc.PATCH, vc.PATCH))[..., None] / 255.0
    alpha *= rng.uniform(0.3, 1.0)
    colour = rng.uniform(0, 255, 3) if rng.random() < 0.5 else np.full(3, rng.uniform(180, 255))
    return (patch * (1 - alpha) + colour * alpha).astype(np.uint8)


def typeface_items(count: int, backgrounds: list, rng) -> list[tuple]:
    """`count` reader patches of a cube face whose number is set in a real typeface (the
    machine's bold TrueType fonts: real cubes' numbers are bold serif or sans, not OpenCV's
    stroke fonts), turned any way, slightly slanted, sized as the reader sees cubes, on a
    "no cube" patch of `backgrounds`; needs Pillow (pip install pillow, training only)."""
    from PIL import Image, ImageDraw, ImageFont

    fonts = sorted(str(f) for d in FONT_DIRS for f in Path(d).glob("**/*Bold*.ttf"))
    items = []
    for _ in range(count):
        face = int(rng.choice(vc.FACES))
        body, ink = (tuple(int(v) for v in rng.uniform(0, 255, 3)) for _ in range(2))
        if rng.random() < 0.6:
            body, ink = (tuple(int(v) for v in np.full(3, rng.uniform(200, 255))),
                         tuple(int(v) for v in np.full(3, rng.uniform(0, 60))))
        side = 96
        sprite = Image.new("RGB", (side, side), body)
        draw = ImageDraw.Draw(sprite)
        font = ImageFont.truetype(str(rng.choice(fonts)), 48)
        box = draw.textbbox((0, 0), str(face), font=font)
        scale = min(0.75 * side / (box[2] - box[0]), 0.6 * side / (box[3] - box[1]))
        font = ImageFont.truetype(font.path, max(8, int(48 * scale)))
        box = draw.textbbox((0, 0), str(face), font=font)
        draw.text(((side - box[2] - box[0]) / 2, (side - box[3] - box[1]) / 2), str(face),
                  fill=ink, font=font)
        items.append((on_background(np.asarray(sprite)[..., ::-1], rng.choice(len(backgrounds)),
                                    backgrounds, rng), vc.FACES.index(face) + 1))
    return items


def on_background(sprite: np.ndarray, index: int, backgrounds: list, rng) -> np.ndarray:
    """A square face sprite laid turned, slanted and sized like a cube in a reader patch, with
    a shadow, on background `index`."""
    n, side = vc.PATCH, sprite.shape[0]
    cube = n / vc.PATCH_CUBES * rng.uniform(0.75, 1.3)
    corners = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * cube / 2
    turn = np.radians(rng.uniform(0, 360))
    corners = corners @ np.float32([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
    corners += rng.normal(0, 0.04 * cube, (4, 2)) + n / 2 + rng.normal(0, 0.08 * cube, 2)
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [side, 0], [side, side], [0, side]]),
                                    corners.astype(np.float32))
    face = cv2.warpPerspective(sprite, m, (n, n), flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(np.ones((side, side), np.float32), m, (n, n))[..., None]
    shade = np.roll(alpha, (2, 2), (0, 1)) * rng.uniform(0.1, 0.5)
    out = backgrounds[index] * (1 - shade) * (1 - alpha) + face * alpha
    out = cv2.GaussianBlur(out.astype(np.float32), (0, 0), rng.uniform(0.3, 1.2))
    return np.clip(out + rng.normal(0, 3, out.shape), 0, 255).astype(np.uint8)


def real_photos(folds=range(5)):
    """(photo's name and fold, image, view through its labelled corners, its cube as
    benchmarks/data/real_dice.json labels it or None) for the real board photos of `folds`
    whose corners are labelled (real_boards.json)."""
    from bgboard.benchmarks.label_real_boards import PHOTOS, calibration, load_labels
    from bgboard.benchmarks.real_dice import load as load_dice

    cubes = {p["name"]: d for p in load_dice() for d in p["dice"] if d["kind"] == "cube"}
    for entry in load_labels():
        if "corners_px" in entry and entry["fold"] in folds:
            image = cv2.imread(str(PHOTOS / "images" / entry["copy"]))
            yield ((entry["name"], entry["fold"]), image, FieldView(calibration(entry)),
                   cubes.get(entry["name"]))


def on_cube(px, label: dict | None) -> bool:
    """Whether frame pixel `px` lies on the labelled cube (within its box's larger side)."""
    return label is not None and np.hypot(*np.subtract(px, label["xy"])) <= max(label["size"])


def board_items(folds: set[int], finder, rng) -> list[tuple]:
    """"No cube" patches of the real board photos of `folds` (through their labelled
    corners): where the finder marks a cube and eight random places of the searched box, each
    at every size read, away from the cube benchmarks/data/real_dice.json labels."""
    items = []
    for _, image, view, label in real_photos(folds):
        x0, y0, w, h = vc.wide_box(view)
        marks = [*(2 * fd.find_centres(vc.wide_half(image, view), finder) + (x0, y0)),
                 *(np.array([x0, y0]) + rng.uniform(0, 1, (PLACES, 2)) * (w, h))]
        for at in marks:
            px = view.rect_to_image @ (*at, 1.0)
            if not on_cube(px[:2] / px[2], label):
                items += [(vc.cube_patch(image, view, at, vc.CUBE_SIZE * view.h * s), 0)
                          for s in vc.SIZES]
    return items


def train(args) -> None:
    from bgboard.benchmarks.train_dice_photo import fit
    from bgboard.benchmarks.train_field_dice import Finder, export, finder_loss, from_onnx

    seeds = sorted(int(p.stem) for p in args.cache.glob("*.npz"))
    data = [np.load(args.cache / f"{s}.npz") for s in seeds]
    print(f"{len(seeds)} frames from {args.cache}", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.init:
        finder_net = cv2.dnn.readNetFromONNX(str(args.init / vc.NETS[0]))
        (args.out / vc.NETS[0]).write_bytes((args.init / vc.NETS[0]).read_bytes())
    else:
        finder_items = [(d["half"], d["centre"], float(d["side"]), bool(d["has"]))
                        for d in data]
        finder = fit(Finder(), finder_sample, finder_items, args.finder_epochs, finder_loss,
                     16, 0)
        finder_net = export(finder, args.out / vc.NETS[0], (1, 3, 64, 64))
    items = [(p, int(label)) for d in data for p, label in zip(d["patches"], d["labels"],
                                                               strict=True)]
    hard = false_marks(args.cache, seeds, finder_net)
    rng = np.random.default_rng(2)
    dice = dice_photo_items(rng)
    texts = [(p, TEXT) for p, label in items[::4] if label == 0]
    boards = board_items(args.real_boards, finder_net, rng) if args.real_boards else []
    backgrounds = [p for p, label in items[1::7] if label == 0]
    typefaces = typeface_items(args.typefaces, backgrounds, rng) if args.typefaces else []
    print(f"{len(items)} reader patches, {len(hard)} of the finder's false marks, "
          f"{len(dice)} of real dice, {len(texts)} with text, {len(boards)} of real board "
          f"photos (folds {sorted(args.real_boards)}), {len(typefaces)} in typefaces",
          flush=True)
    reader = reader_net() if args.init is None else from_onnx(reader_net(),
                                                              args.init / vc.NETS[1])
    reader = fit(reader, reader_sample, items + hard * 2 + dice * 3 + texts + boards * BOARD_REPEAT
                 + typefaces,
                 args.reader_epochs, reader_loss, 64, 1, args.lr)
    export(reader, args.out / vc.NETS[1], (1, 3, vc.PATCH, vc.PATCH))
    print(f"wrote {args.out / vc.NETS[0]} and {args.out / vc.NETS[1]}", flush=True)


def measure_renders(count: int, models: tuple) -> dict:
    """The held-out renders read: cubes, found with the right number, right value and owner;
    frames without a cube read as having one."""
    t = dict.fromkeys(("cubes", "found", "face", "told", "empty", "false"), 0)
    for seed in range(count):
        scene, _ = scene_for(seed, held_out=seed % 2 == 0)
        rendered = render(scene, seed)
        view = FieldView(from_dict(rendered.calibration))
        got = vc.find_cube(rendered.image, view, models)
        if scene.cube is None:
            t["empty"] += 1
            t["false"] += got is not None
            continue
        t["cubes"] += 1
        centre, side = cube_centre(rendered.truth, view)
        if got is None or np.hypot(*(np.array(view.to_rect(got["field_xy"])) - centre)) > side:
            continue
        t["found"] += 1
        t["face"] += got["face"] == scene.cube.face
        want = vc.ownership(scene.cube.face, scene.cube.field_xy[1])
        t["told"] += (got["value"], got["owner"]) == (want["value"], want["owner"])
    return t


def measure_real(models_of) -> list[tuple]:
    """(photo, labelled face or None, face read or None, whether it was read where the cube
    lies) for every real board photo with labelled corners (real_boards.json), read through
    them by the nets `models_of(its fold)`: the cube that benchmarks/data/real_dice.json
    labels, or none."""
    out = []
    for (name, fold), image, view, label in real_photos():
        got = vc.find_cube(image, view, models_of(fold))
        out.append((name, label and label["face"], got and got["face"],
                    got is not None and on_cube(got["px"], label)))
    return out


def load_models(folder: Path) -> tuple:
    return tuple(cv2.dnn.readNetFromONNX(str(folder / n)) for n in vc.NETS)


def measure(args) -> None:
    models = load_models(args.models)
    t = measure_renders(args.renders, models)
    print(f"renders (seeds 0-{args.renders - 1}, half on the held-out looks {HELD_OUT}): "
          f"{t['cubes']} cubes: found {t['found']}, number right {t['face']}, value and owner "
          f"right {t['told']}; {t['empty']} frames without a cube: a cube read in {t['false']}")
    twins = {k: load_models(args.cv / str(k)) for k in range(5)} if args.cv else {}
    real = measure_real(lambda fold: twins.get(fold, models))
    cubes = [r for r in real if r[1]]
    right = sum(face == got and there for _, face, got, there in cubes)
    false = sum(got is not None and not there for _, _, got, there in real)
    print(f"real board photos ({len(real)}{', each fold read by its twin' if args.cv else ''}):"
          f" {right} of {len(cubes)} cubes read right; a cube read where none lies in {false}")
    for name, face, got, there in real:
        if face or got:
            print(f"  {name}: {face or 'no cube'} read {got if there else '-'}"
                  f"{'' if there or got is None else f' (and {got} where none lies)'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render", help="render training frames into --cache")
    r.add_argument("--frames", type=int, default=3000)
    r.add_argument("--jobs", type=int, default=2)
    t = sub.add_parser("train", help="train both nets on the frames in --cache")
    t.add_argument("--out", type=Path, default=models.FOLDER)
    t.add_argument("--finder-epochs", type=int, default=12)
    t.add_argument("--reader-epochs", type=int, default=12)
    t.add_argument("--init", type=Path, metavar="DIR",
                   help="keep DIR's finder and fine-tune its reader (instead of both afresh)")
    t.add_argument("--lr", type=float, default=3e-3, help="the reader's top learning rate")
    t.add_argument("--typefaces", type=int, default=0, metavar="N",
                   help="also N cube patches whose number is set in TrueType fonts (Pillow)")
    t.add_argument("--real-boards", type=lambda v: {int(f) for f in v.split(",")}, default=set(),
                   metavar="FOLDS", help="also learn 'no cube' from the real board photos of "
                                         "these folds of the yardstick, e.g. 1,2,3,4")
    for p in (r, t):
        p.add_argument("--cache", type=Path, default=Path("benchmarks/cache/cube"))
    m = sub.add_parser("measure", help="read held-out renders and the real photos' cubes")
    m.add_argument("--models", type=Path, default=models.FOLDER)
    m.add_argument("--renders", type=int, default=300)
    m.add_argument("--cv", type=Path, metavar="DIR",
                   help="read each fold K of the real board photos with the nets in DIR/K "
                        "(trained with --real-boards the other folds)")
    args = ap.parse_args()
    {"render": render_frames, "train": train, "measure": measure}[args.command](args)


if __name__ == "__main__":
    main()
