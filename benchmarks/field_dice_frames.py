"""The field-dice nets' rendered training frames (benchmarks/train_field_dice.py), apart from
the training so that they can be made and tested without PyTorch: a frame (PNG) and what is in
it (JSON) per seed, in a cache folder.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from bgboard.calibration.file import from_dict
from bgboard.calibration.rectify import FieldView
from bgboard.vision import dice as fd
from bgboard.vision.synthetic import Scene, random_dice, random_scene, render
from bgboard.vision.synthetic.drawn import drawn_scene
from bgboard.vision.synthetic.looks import TRAINED, family_scene

FIRST_SEED = 100_000
LOOK_SEED = 200_000  # frames on the trained looks of `vision.synthetic.looks` (--look-frames)
BIG_SEED = 250_000  # frames whose dice are larger than the field's expected ones (--big-frames)
DRAWN_SEED = 270_000  # frames on boards drawn at random, `vision.synthetic.drawn` (--drawn-frames)
BIG = (1.2, 2.8)  # those dice's sides, times the renderer's: real dice are 0.8-2.6 times the
# expected size (real_dice.json's boxes, median 1.6: small boards and tournament dice)


def frame_scene(seed: int) -> Scene:
    """The scene a training frame starts from, before its dice: a random look below
    `LOOK_SEED`, then the trained looks of `synthetic.looks` in turn; from `BIG_SEED` on, even
    seeds on those looks and odd ones on random ones; from `DRAWN_SEED` on, a board drawn at
    random (its held-out families never)."""
    if seed >= DRAWN_SEED:
        return drawn_scene(seed, hand=0.05)
    looks = LOOK_SEED <= seed < BIG_SEED or seed >= BIG_SEED and seed % 2 == 0
    return family_scene(seed, TRAINED[seed % len(TRAINED)], hand=0.05) if looks else \
        random_scene(seed, hand=0.05)


def make_frame(seed: int, folder: Path) -> None:
    """Render one training frame of `frame_scene(seed)` into `folder`: the frame (PNG) and
    what is in it (JSON); from `BIG_SEED` on, its dice `BIG` times its look's size; a drawn
    board's dice their look's own size (its `die_size` kept, as a calibration would say it)."""
    rng = np.random.default_rng(seed)
    scene, big, drawn = frame_scene(seed), BIG_SEED <= seed < DRAWN_SEED, seed >= DRAWN_SEED
    if big:
        grown = scene.look.die_size * float(np.exp(rng.uniform(*np.log(BIG))))
        scene = replace(scene, look=replace(scene.look, die_size=grown))
    count = int(rng.integers(1, 7))
    if rng.random() < 0.5:  # dice clear of the checkers, as thrown
        dice = random_dice(rng, scene.look, scene.points, scene.bar, 0.25, count)
    else:  # also against or on them, as left while the checkers move
        dice = random_dice(rng, scene.look, [0] * 24, {}, 0.25, count)
    rendered = render(replace(scene, dice=dice), seed)
    cal = rendered.calibration
    for k, xy in cal["corners_px"].items():
        cal["corners_px"][k] = [round(v + rng.normal(0, 1.0), 1) for v in xy]
    cv2.imwrite(str(folder / f"{seed}.png"), rendered.image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    (folder / f"{seed}.json").write_text(json.dumps({
        "calibration": cal, "dice": rendered.truth["dice"],
        "die_size": scene.look.die_size if big or drawn else None}))


def load_frame(seed: int, folder: Path) -> tuple:
    """(frame, view, dice rows: centre x, y in rectified px, value, cocked; die side, rect px:
    the expected one, or the frame's own where its dice were drawn larger)."""
    meta = json.loads((folder / f"{seed}.json").read_text())
    view = FieldView(from_dict(meta["calibration"]))
    rows = np.array([[*view.to_rect(d["field_xy"]), d["value"], d["cocked"]]
                     for d in meta["dice"]], np.float32).reshape(-1, 4)
    return cv2.imread(str(folder / f"{seed}.png")), view, rows, \
        (meta.get("die_size") or fd.DIE_SIZE) * view.h
