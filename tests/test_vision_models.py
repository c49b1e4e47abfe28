"""vision.models: every shipped model named once, loaded once, and a file missing or unreadable
is one clear line (for `bgboard`, exit code 2), never an OpenCV traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from bgboard.vision import dice, dice_photo, models
from bgboard.vision.synthetic import random_scene, render

PACKAGE = Path(models.__file__).resolve().parents[1]  # the bgboard package (the repo root)


def test_every_model_in_the_folder_is_named_and_loads():
    assert sorted(models.SHIPPED) == sorted(p.name for p in models.FOLDER.iterdir()
                                            if p.suffix == ".onnx")
    assert len(set(models.SHIPPED)) == len(models.SHIPPED)
    for name in models.SHIPPED:
        net = models.shipped(name)
        assert isinstance(net, cv2.dnn.Net)
        assert models.shipped(name) is net  # loaded once
        assert models.is_shipped(models.FOLDER / name)


def test_the_readers_load_the_named_files_in_order():
    assert dice_photo.readers() == tuple(models.shipped(n) for n in models.DICE_VALUES)
    assert dice.nets() == (models.shipped(models.FIELD_FIND), models.shipped(models.FIELD_READ))


def test_net_input_is_nchw_centred_on_zero():
    image = np.arange(2 * 3 * 4 * 3, dtype=np.uint8).reshape(2, 3, 4, 3)
    x = models.net_input(image)
    assert x.shape == (2, 3, 3, 4) and x.dtype == np.float32 and x.flags.c_contiguous
    assert x[1, 2, 0, 3] == np.float32(image[1, 0, 3, 2]) * np.float32(1 / 255) - 0.5
    assert models.net_input(image[0]).shape == (1, 3, 3, 4)
    y = models.photo_input(image[0])
    assert y.shape == (1, 3, 3, 4)
    assert (y[0] == (image[0].astype(np.float32) / 255 - 0.5).transpose(2, 0, 1)).all()


def test_a_missing_model_is_one_line(tmp_path):
    with pytest.raises(models.ModelError) as err:
        models.shipped(models.CHECKERS, tmp_path)
    assert str(err.value) == f"model {tmp_path / models.CHECKERS} is missing"
    assert isinstance(err.value, ValueError)  # the CLI's bad input: one line, exit code 2


@pytest.mark.parametrize("content", [b"", b"not a net"])
def test_an_unreadable_model_is_one_line(tmp_path, content):
    (tmp_path / models.HANDS).write_bytes(content)
    with pytest.raises(models.ModelError) as err:
        models.shipped(models.HANDS, tmp_path)
    assert str(err.value) == f"model {tmp_path / models.HANDS} is unreadable"


def test_only_shipped_models_may_be_absent_by_choice(tmp_path):
    assert not models.wanted(tmp_path / "piles.onnx")  # another counter, not there: none
    assert models.wanted(models.FOLDER / models.PILES_FAR)
    assert not models.wanted(models.FOLDER / "no_such_counter.onnx")
    assert not models.is_shipped(tmp_path / models.PILES)


def copied_package(tmp_path: Path) -> Path:
    """A copy of the installed package (without its tests, benchmarks and docs) under
    tmp_path/bgboard: what a user's broken install looks like."""
    shutil.copytree(PACKAGE, tmp_path / "bgboard", ignore=shutil.ignore_patterns(
        ".*", "tests", "benchmarks", "docs", "cache", "*.egg-info", "__pycache__"))
    return tmp_path / "bgboard" / "vision" / "models"


@pytest.mark.parametrize("broken", ["missing", "unreadable"])
def test_bgboard_read_without_its_checker_model_is_one_line_and_exit_2(tmp_path, broken):
    folder = copied_package(tmp_path)
    model = folder / models.CHECKERS
    if broken == "missing":
        model.unlink()
    else:
        model.write_bytes(b"not a net")
    shot = render(random_scene(3))
    image, cal = tmp_path / "frame.png", tmp_path / "cal.json"
    cv2.imwrite(str(image), shot.image)
    cal.write_text(json.dumps(shot.calibration))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "bgboard.controller.cli", "read", str(image),
                          "--calibration", str(cal)], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path, env=env)
    assert run.returncode == 2
    assert run.stderr == (f"bgboard read: error: model {model} is {broken}: "
                          "reinstall bgboard\n")
    assert run.stdout == ""
