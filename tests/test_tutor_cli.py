"""`bgboard hint` and `bgboard review`, run as a user runs them (a subprocess)."""

from __future__ import annotations

import json

import pytest

from bgboard.engine.analysis import installed
from bgboard.engine.board import BLACK
from bgboard.engine.game import Match
from bgboard.engine.matfile import write_mat
from cli_helpers import bgboard

pytestmark = pytest.mark.skipif(installed()[:2] != ["gnubg-nn", "gnubg"],
                                reason="needs gnubg-nn and gnubg (the test extra and CI have both)")



def test_hint_json_is_design_md_and_says_the_engine():
    out = bgboard("hint", "start", "--dice", "31", "--json")
    assert out.returncode == 0
    plays = json.loads(out.stdout)
    assert len(plays) == 16
    assert all(set(p) == {"move", "position_id", "equity"} for p in plays)
    assert plays[0]["move"] == "8/5 6/5" and plays[0]["position_id"] == "sGfwATDgc/ABMA"
    assert plays[0]["equity"] == pytest.approx(0.159, abs=0.001)
    assert out.stderr == "engine: gnubg-nn, 2-ply\n"


@pytest.mark.parametrize("engine, dice, best", [("gnubg-nn", "42", ["8/4", "6/4"]),
                                              ("gnubg", "42", ["8/4", "6/4"]),
                                              ("builtin", "42", ["8/4", "6/4"])])
def test_hint_with_each_engine(engine, dice, best):
    out = bgboard("hint", "4HPwATDgc/ABMA:cAkAAAAAAAAA", "--dice", dice, "--engine", engine,
                  "--ply", "0")
    lines = out.stdout.splitlines()
    label = "builtin (weak: a rough guide only)" if engine == "builtin" else engine
    assert lines[0] == f"engine: {label}, 0-ply"
    assert lines[1].split()[:3] == ["1.", *best]


def test_hint_cube_advice():
    out = bgboard("hint", "3N3BAQDu7g4AAA", "--cube", "--json", "--engine", "gnubg")
    advice = json.loads(out.stdout)
    assert (advice["action"], advice["take"], advice["double_pass"]) == ("double, pass", False,
                                                                         1.0)
    assert advice["probabilities"]["win"] == pytest.approx(0.969, abs=0.001)


def test_hint_dice_from_the_xgid():
    out = bgboard("hint", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "--json",
                  "--engine", "gnubg-nn", "--ply", "0")
    assert len(json.loads(out.stdout)) == 8


@pytest.mark.parametrize("args, message", [
    (["start"], "no dice: give the roll with --dice"),
    (["start", "--dice", "71"], "dice '71' must be two digits from 1 to 6"),
    (["start", "--dice", "31", "--engine", "builtin", "--ply", "2"],
     "--ply 2: the builtin engine evaluates 0 to 0 plies"),
])
def test_hint_bad_input_is_one_line_and_exit_2(args, message):
    out = bgboard("hint", *args)
    assert out.returncode == 2
    assert len(out.stderr.splitlines()) == 1 and message in out.stderr


def test_unknown_engine_is_a_usage_error():
    out = bgboard("hint", "start", "--dice", "31", "--engine", "jellyfish")
    assert out.returncode == 2 and "invalid choice: 'jellyfish'" in out.stderr


@pytest.fixture
def mat_file(tmp_path):
    """A short game: White opens 31 with 24/20 (a blunder), later doubles, Black takes."""
    match = Match(length=5)
    game = match.new_game()
    game.opening(3, 1)
    game.move("24/20")
    game.roll(6, 4)
    game.move("24/14")
    game.double()
    game.take()
    game.roll(5, 2)
    game.move("13/8 13/11")
    game.resign(BLACK, 1)
    path = tmp_path / "game.mat"
    path.write_text(write_mat(match, ("Ann", "Bob")))
    return path


def test_review_gives_each_turns_loss_and_best_play(mat_file):
    out = bgboard("review", str(mat_file), "--engine", "gnubg-nn", "--ply", "0", "--json")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    first = rows[0]
    assert (first["game"], first["turn"], first["player"], first["move"], first["best"],
            first["verdict"]) == (1, 1, "white", "24/20", "8/5 6/5", "very bad")
    assert first["equity_loss"] == pytest.approx(0.174, abs=0.001)
    kinds = [(r["turn"], r["player"], r["move"]) for r in rows]
    assert kinds == [(1, "white", "24/20"), (2, "black", "no double"), (2, "black", "24/14"),
                     (3, "white", "double"), (3, "black", "take"), (3, "white", "13/11* 13/8")]
    double = rows[3]
    assert double["best"] == "no double" and double["equity_loss"] > 0


def test_review_text_summary(mat_file):
    out = bgboard("review", str(mat_file), "--engine", "builtin")
    lines = out.stdout.splitlines()
    assert lines[0] == "engine: builtin (weak: a rough guide only), 0-ply"
    assert lines[1].startswith("game 1 turn   1 white 31 24/20")
    assert lines[-2].startswith("Ann (white): 3 decisions")
    assert lines[-1].startswith("Bob (black): 3 decisions")


def test_review_of_a_bad_file_names_it(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text(" 1 point match\n\n Game 1\n A : 0      B : 0\n  1) 31: 24/18\n")
    out = bgboard("review", str(bad))
    assert out.returncode == 2
    assert out.stderr.startswith(f"bgboard review: error: {bad}: line 5")
