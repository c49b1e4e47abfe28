"""Whole games filmed with the project's renderer (looks, hands, hits, bear-off, opening ties,
cocked dice, the cube) and recorded from video files by `bgboard record`: every turn right,
and GNU Backgammon imports every match file."""

from __future__ import annotations

import functools
import subprocess
import sys

import pytest

from bgboard.calibration.file import from_dict
from bgboard.controller.recorder import record
from bgboard.controller.script import (
    film_calibration,
    film_match,
    learned_calibration,
    render_frames,
    write_video,
)
from bgboard.engine.game import Match
from bgboard.engine.matfile import read_mat
from bgboard.vision.read import Reader
from controller_helpers import noisy
from film_media import write_calibration, write_events
from gnubg_cli import expected_gnubg_actions, gnubg_actions, gnubg_import

SEEDS = (2, 3, 4, 7, 8)
FILMS = {seed: film_match(seed, games=1) for seed in SEEDS}


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    """Per film: its video, calibration and events files."""
    root = tmp_path_factory.mktemp("films")
    out = {}
    for seed, film in FILMS.items():
        out[seed] = (write_video(film, root / f"game{seed}.avi", seed, workers=2),
                     write_calibration(film, root / f"cal{seed}.json", seed),
                     write_events(film, root / f"events{seed}.jsonl"))
    return out


def actions(match: Match):
    return [[(a.color, a.kind, a.dice, a.play.move if a.play else None, a.cube)
             for a in g.record] for g in match.games]


def test_the_films_cover_what_a_game_holds():
    records = [a for film in FILMS.values() for a in film.match.games[0].record]
    assert any(a.play and any(s.hit for s in a.play.steps) for a in records)
    assert any(a.play and any(s.start == 25 for s in a.play.steps) for a in records)
    assert any(a.play and any(s.end == 0 for s in a.play.steps) for a in records)
    assert any(a.kind == "double" for a in records)
    openings = [film.shots for film in FILMS.values()]
    assert any(sum(1 for s in shots[:8] if len(s.dice) == 2) > 1 for shots in openings)
    assert any(d.cocked for film in FILMS.values() for s in film.shots for d in s.dice)


def test_bgboard_record_gets_every_turn_of_five_filmed_games(media, tmp_path):
    written = []
    for seed, (video, cal, events) in media.items():
        out = tmp_path / f"game{seed}.mat"
        result = subprocess.run(
            [sys.executable, "-m", "bgboard.controller.cli", "record", str(video),
             "--calibration", str(cal), "--out", str(out), "--events", str(events),
             "--journal", str(tmp_path / f"game{seed}.jsonl")],
            capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, result.stderr
        assert actions(read_mat(out.read_text()).match) == actions(FILMS[seed].match), seed
        written.append(out)
    for found, seed in zip(gnubg_import(written, tmp_path), media, strict=True):
        assert gnubg_actions(found) == expected_gnubg_actions(FILMS[seed].match)


@functools.cache
def read_observations(seed: int) -> tuple[dict, ...]:
    """The Observation of every frame (each distinct picture read once)."""
    film = FILMS[seed]
    reader = Reader(from_dict(learned_calibration(film, seed)))
    last, obs, out = None, None, []
    for frame in render_frames(film, seed):
        if frame is not last:
            last, obs = frame, reader.read(frame)
        out.append(obs)
    return tuple(out)


@pytest.mark.parametrize("seed", SEEDS)
def test_noise_still_gives_every_turn(seed):
    film = FILMS[seed]
    result = record(noisy(list(read_observations(seed)), seed), lambda o: o,
                    calibration=film_calibration(film), buttons=film.buttons)
    assert actions(result.match) == actions(film.match)
