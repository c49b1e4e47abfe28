"""`bgboard record --observations`: the recorder fed by any reader's Observations (one JSON a
line with "t"), from a file or standard input; a bad line stops it with one line naming it,
exit 2, and what was recorded before it is kept."""

from __future__ import annotations

import json

import pytest

from bgboard.controller.demo.film import film_calibration, film_match
from bgboard.controller.turns.journal import read_journal, rebuild
from bgboard.engine.matfile import read_mat
from cli_helpers import bgboard

FILM = film_match(1, games=1)  # White's home on White's right: White's right half x < 0.5


def lines(obs: list[dict]) -> str:
    return "".join(json.dumps({**o, "t": round(i / 10, 1)}) + "\n" for i, o in enumerate(obs))


def moves(match) -> list[tuple]:
    return [(a.color, a.dice, a.play.move if a.play else None)
            for a in match.games[0].record if a.kind == "move"]


@pytest.fixture(scope="module")
def stream(tmp_path_factory):
    path = tmp_path_factory.mktemp("obs") / "game.jsonl"
    path.write_text(lines(FILM.observations()))
    return path


def test_a_film_is_recorded_from_its_observations_with_the_board_side(stream, tmp_path):
    out = tmp_path / "game.mat"
    run = bgboard("record", "--observations", str(stream), "--out", str(out), "--home", "right")
    assert run.returncode == 0, run.stderr
    assert moves(read_mat(out.read_text()).match) == moves(FILM.match)


def test_the_side_may_come_from_a_calibration_and_the_stream_from_stdin(stream, tmp_path):
    cal = tmp_path / "cal.json"
    cal.write_text(json.dumps(film_calibration(FILM)))
    out = tmp_path / "game.mat"
    run = bgboard("record", "--observations", "-", "--calibration", str(cal), "--out",
                  str(out), stdin=stream.read_text())
    assert run.returncode == 0, run.stderr
    assert moves(read_mat(out.read_text()).match) == moves(FILM.match)


def test_the_wrong_side_records_no_turn(stream, tmp_path):
    out = tmp_path / "game.mat"
    run = bgboard("record", "--observations", str(stream), "--out", str(out), "--home", "left")
    assert run.returncode == 0, run.stderr
    assert moves(read_mat(out.read_text()).match) == []


@pytest.mark.parametrize(("line", "reason"), [
    ("{not json", "not JSON (Expecting property name enclosed in double quotes)"),
    ('[1, 2]', 'expected a JSON object (an Observation with "t")'),
    ('{"points": []}', '"t" must be a number'),
    ('{"t": 99, "points": [0, 1]}', '"points" must be 24 whole numbers'),
    ('{"t": 99, "points": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,'
     ' 0, 0], "bar": {"white": -1, "black": 0}}', '"bar" must be {"white": n, "black": n}'),
    ('{"t": 0, "points": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,'
     ' 0, 0], "bar": {"white": 0, "black": 0}}', "t 0 is before the line above (110.0)"),
])
def test_a_bad_line_is_named_exit_2_and_the_turns_before_it_are_kept(stream, tmp_path, line,
                                                                      reason):
    first = stream.read_text().splitlines()[:1101]  # the first turns of the game
    out, journal = tmp_path / "game.mat", tmp_path / "journal.jsonl"
    run = bgboard("record", "--observations", "-", "--out", str(out),
                  "--journal", str(journal), stdin="\n".join([*first, line, *first]) + "\n")
    assert (run.returncode, run.stderr) == (
        2, f"bgboard record: error: stdin: line 1102: {reason}\n")
    recorded = moves(rebuild(read_journal(journal))[0])
    assert len(recorded) == 37
    assert recorded == moves(FILM.match)[:37] == moves(read_mat(out.read_text()).match)


@pytest.mark.parametrize(("args", "reason"), [
    ([], "give either VIDEO_OR_DIR or --observations FILE.jsonl"),
    (["game.mp4"], "a video needs --calibration CAL"),
    (["game.mp4", "--calibration", "cal.json", "--home", "left"],
     "--home is for --observations (a video's side comes from --calibration)"),
    (["--observations", "-", "--calibration", "cal.json", "--home", "left"],
     "give --home or --calibration, not both"),
])
def test_the_sources_must_be_one_video_or_one_stream(tmp_path, args, reason):
    run = bgboard("record", *args, "--out", str(tmp_path / "x.mat"))
    assert (run.returncode, run.stderr) == (2, f"bgboard record: error: {reason}\n")
