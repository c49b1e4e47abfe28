"""`bgboard moves` and `bgboard show`, run as a user runs them (a subprocess)."""

from __future__ import annotations

import json

import pytest

from cli_helpers import bgboard


def test_moves_json_matches_design_md():
    out = bgboard("moves", "start", "--dice", "31", "--json")
    assert out.returncode == 0
    plays = json.loads(out.stdout)
    assert len(plays) == 16
    assert {"move": "8/5 6/5", "position_id": "sGfwATDgc/ABMA"} in plays
    assert all(set(p) == {"move", "position_id"} for p in plays)


def test_moves_text_lists_move_and_position_id():
    out = bgboard("moves", "start", "--dice", "3-1")
    lines = out.stdout.splitlines()
    assert len(lines) == 16
    assert ["8/5", "6/5", "sGfwATDgc/ABMA"] in [line.split() for line in lines]


def test_moves_takes_dice_from_an_xgid():
    out = bgboard("moves", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "--json")
    assert len(json.loads(out.stdout)) == 8


def test_a_dance_is_an_empty_list():
    out = bgboard("moves", "AwAAAP8fAAADAA", "--dice", "11", "--json")
    assert (out.returncode, json.loads(out.stdout)) == (0, [])


def test_batch_reads_lines_and_reports_bad_ones_in_place():
    out = bgboard("moves", "--batch", "-",
                  stdin="start 66\n4HPwATDgc/ABMA 55\nnonsense\nstart 71\n")
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [len(x) for x in lines[:2]] == [11, 4]
    assert lines[2] == {"error": "line 3: expected 'POSITION AB', got 'nonsense'"}
    assert lines[3] == {"error": "line 4: dice '71' must be two digits from 1 to 6, like 31"}
    assert out.returncode == 2


def test_batch_from_a_file(tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text("start 31\nsGfwATDgc/ABMA 64\n")
    out = bgboard("moves", "--batch", str(path))
    assert [len(json.loads(line)) for line in out.stdout.splitlines()] == [16, 11]


@pytest.mark.parametrize(("args", "message"), [
    (["moves", "4HPwATDgc/ABM", "--dice", "31"],
     "bgboard moves: error: '4HPwATDgc/ABM' is not a Position ID (14 characters), a gnubg ID "
     "or an XGID"),
    (["moves", "4HPwATDgc/AB!A", "--dice", "31"],
     "bgboard moves: error: Position ID '4HPwATDgc/AB!A' is not 14 Base64 characters"),
    (["moves", "start", "--dice", "7"],
     "bgboard moves: error: dice '7' must be two digits from 1 to 6, like 31"),
    (["moves", "start"],
     "bgboard moves: error: no dice: give the roll with --dice, e.g. --dice 31"),
    (["moves", "--batch", "/no/such/file"],
     "bgboard moves: error: [Errno 2] No such file or directory: '/no/such/file'"),
    (["show", "AQAAAAAAAgAAAA"],
     "bgboard show: error: Position ID 'AQAAAAAAAgAAAA' puts both sides on point 24"),
    (["moves", "start", "--dice"],
     "bgboard moves: error: argument --dice: expected one argument (see --help)"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    out = bgboard(*args)
    assert (out.returncode, out.stderr) == (2, message + "\n")


def test_show_prints_a_board_with_pips():
    out = bgboard("show", "sGfwATDgc/ABMA")
    assert out.returncode == 0
    assert " Pips: O (White) 167, X (Black) 163" in out.stdout
    assert " Position ID: sGfwATDgc/ABMA" in out.stdout


def test_a_closed_pipe_stops_quietly():
    import subprocess

    from cli_helpers import BGBOARD

    shell = f"{' '.join(BGBOARD)} moves --batch - | head -c 10 > /dev/null"
    lines = "start 11\n" * 3000
    run = subprocess.run(["bash", "-o", "pipefail", "-c", shell], input=lines,
                         capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stderr) == (141, "")
