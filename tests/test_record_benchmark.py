"""benchmarks/record.py records each video in a process of its own (record_one.py), by this
tree or by another checkout put first on the import path."""

import json
from pathlib import Path

from bgboard.benchmarks import record
from bgboard.controller.demo.film import Film, Shot, film_calibration, write_video
from bgboard.engine.board import START_POINTS
from bgboard.vision.synthetic import Look

ROOT = Path(__file__).resolve().parents[1]


def test_a_video_is_recorded_alike_by_this_tree_and_by_a_checkout_given_as_a_path(tmp_path):
    film = Film(look=Look(), shots=[Shot(START_POINTS, (0, 0), frames=12)])
    video = Path(write_video(film, tmp_path / "still.avi"))
    video.with_suffix(".json").write_text(json.dumps(film_calibration(film)))
    video.with_suffix(".buttons.json").write_text("{}")
    now = record.recorded(video, None)
    other = record.recorded(video, record.package_link(ROOT, tmp_path))
    assert (now["frames"], now["actions"]) == (other["frames"], other["actions"]) == (12, [])
    assert now["cpu"] > 0 and other["cpu"] > 0
