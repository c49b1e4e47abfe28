"""benchmarks/faults.py: the films held out of training are whole games in their looks,
and the field watch's changes are scored as the issue asks (a bump's own change within a
second is followed; every other "moved" is false)."""

import numpy as np
import pytest

from bgboard.benchmarks import faults, films


def test_the_held_out_films_are_the_looks_they_are_named_for():
    assert films.look_of("game2") is None
    assert films.look_of("logo").pattern == "logo" and films.look_of("marble").pattern == "marble"
    plain = films.look_of("plain")
    assert (plain.texture, plain.grain, plain.pattern) == ("plain", 0.0, "none")
    corners = np.float64(films.look_of("turned").corners)
    along = corners[1] - corners[0]  # p1 -> p12, level in an upright camera's picture
    assert 5 < abs(np.degrees(np.arctan2(along[1], along[0])) % 90) < 85


def test_a_bumps_own_change_is_followed_and_any_other_is_false():
    said = [{"frame": 102, "moved": True, "shift": 30.0}, {"frame": 40, "moved": True,
                                                            "shift": 12.0},
            {"frame": 150, "moved": False, "shift": float("inf")}]
    bump = faults.Watched.of(said, "bump", 200)
    assert (bump.false, bump.bumps, bump.followed) == (1, 1, 1)
    late = faults.Watched.of([{"frame": 111, "moved": True, "shift": 30.0}], "bump", 200)
    assert (late.false, late.bumps, late.followed) == (1, 1, 0)
    light = faults.Watched.of(said, "light", 200)
    assert (light.false, light.bumps, light.followed) == (2, 0, 0)


def test_an_arm_over_the_edge_covers_the_edge_not_the_field():
    image = np.full((720, 1280, 3), 128, np.uint8)
    corners = ((1000, 600), (280, 600), (280, 120), (1000, 120))
    changed = (faults.arm_over_edge(image, np.random.default_rng(3), corners) != image).any(2)
    inner = np.zeros((720, 1280), bool)
    inner[260:460, 440:840] = True  # the field's middle
    assert changed.sum() > 5000 and not changed[inner].any()


def test_the_true_observations_record_film_2_whole_with_a_die_misread(monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["faults.py", "--films", "game2", "--truth", "--nobody",
                                     "--kinds", "none", "c"])
    faults.main()
    rows = [line.split()[:10] for line in capsys.readouterr().out.splitlines()[2:]]
    # frames, fault, film, actions, right, unsure, wrong, missing, to last, moved
    assert rows == [["none", kind, film, "41", "41", "0", "0", "0", "yes", "0"]
                    for kind in ("none", "c") for film in ("game2", "all")]


def test_true_observations_take_no_frame_fault(monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["faults.py", "--truth", "--frames", "bump"])
    with pytest.raises(SystemExit) as stop:
        faults.main()
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "faults.py: error: --truth: the true Observations have no frames to fault "
        "(--frames none)")
