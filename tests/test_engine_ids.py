"""Position ID, Match ID and XGID: the worked examples of FORMATS.md and bad input."""

from __future__ import annotations

import pytest

from bgboard.engine.board import BLACK, START, WHITE
from bgboard.engine.ids import (
    MatchState,
    board_from_position_id,
    match_from_id,
    match_id,
    parse_position,
    position_from_id,
    position_id,
)
from engine_helpers import make


def test_start_position_id():
    assert position_id(START) == "4HPwATDgc/ABMA"
    assert position_id(START.swap_turn()) == "4HPwATDgc/ABMA"


def test_after_opening_31_the_mover_is_the_first_block():
    board = [[0, 0, 0, 0, 2, 4, 0, 2, 0, 0, 0, 0, 5] + [0] * 10 + [2, 0],
             [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2, 0]]
    assert board_from_position_id("sGfwATDgc/ABMA") == board


def test_bar_and_borne_off_example():
    pos = make({6: 13}, {24: 2}, bar_white=2)
    assert position_id(pos) == "AwAAAP8fAAADAA"
    assert position_from_id("AwAAAP8fAAADAA") == pos
    assert position_from_id("AwAAAP8fAAADAA", BLACK).bar_black == 2


@pytest.mark.parametrize(("pid", "reason"), [
    ("4HPwATDgc/ABM", "is not 14 Base64 characters"),
    ("4HPwATDgc/AB!A", "is not 14 Base64 characters"),
    ("!!!!!!!!!!!!!!", "is not 14 Base64 characters"),
    ("//////////////", "gives the player not on roll 80 checkers"),
    ("AQAAAAAAAgAAAA", "puts both sides on point 24"),
])
def test_bad_position_ids_say_why(pid, reason):
    with pytest.raises(ValueError, match=reason):
        board_from_position_id(pid)


@pytest.mark.parametrize(("mid", "fields"), [
    ("QYkqASAAIAAA", dict(cube=2, cube_owner=WHITE, dice_owner=BLACK, turn=BLACK, dice=(5, 2),
                          length=9, score=(2, 4), jacoby=True)),
    ("MIEFAAAAAAAA", dict(dice_owner=WHITE, turn=WHITE, dice=(3, 1), jacoby=True)),
    ("cAkAAAAAAAAA", dict(dice_owner=BLACK, turn=BLACK, jacoby=True)),
    ("8ImpAEAAEAAE", dict(dice_owner=BLACK, turn=BLACK, crawford=True, dice=(3, 2), length=5,
                          score=(4, 2))),
    ("ARkgASAAIAAA", dict(cube=2, cube_owner=WHITE, dice_owner=WHITE, turn=BLACK,
                          double_offered=True, length=9, score=(2, 4), jacoby=True)),
    ("EgEgASAAIAAA", dict(cube=4, cube_owner=BLACK, dice_owner=WHITE, turn=WHITE, length=9,
                          score=(2, 4), jacoby=True)),
    ("UkEgASAAIAAA", dict(cube=4, cube_owner=BLACK, dice_owner=BLACK, turn=WHITE, resign=2,
                          length=9, score=(2, 4), jacoby=True)),
])
def test_match_id_examples(mid, fields):
    state = MatchState(**fields)
    assert match_from_id(mid) == state
    assert match_id(state) == mid


def test_match_id_writes_the_larger_die_first():
    assert match_id(MatchState(dice=(1, 3), jacoby=True)) == "MIEFAAAAAAAA"


@pytest.mark.parametrize(("mid", "reason"), [
    ("QYkqASAAIAA", "is not 12 Base64"),
    ("QYkqASAAIA-A", "is not 12 Base64"),
    ("IAEAAAAAAAAA", "impossible cube owner 2"),
    ("////////////", "impossible game state 7"),
])
def test_bad_match_ids_say_why(mid, reason):
    with pytest.raises(ValueError, match=reason):
        match_from_id(mid)


def test_parse_position_accepts_every_form():
    assert parse_position("start") == (START, None)
    assert parse_position(" 4HPwATDgc/ABMA ") == (START, None)
    pos, state = parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert pos.turn is BLACK and state.dice_owner is BLACK
    pos, state = parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
    assert (pos.turn, state.dice, state.jacoby, state.beavers) == (BLACK, (5, 2), True, True)
    with pytest.raises(ValueError, match="is not a Position ID"):
        parse_position("hello")
    with pytest.raises(ValueError, match="bad board character"):
        parse_position("XGID=-b----E-C---eE---c-e----Z-:0:0:1:52:0:0:3:0:10")
