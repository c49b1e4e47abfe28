"""One test per rule sentence of RULES.md, with the leaflets' own examples.

Positions are written with both sides' checkers on WHITE's point numbers; White moves 24 -> 1
and bears off below 1, Black's home board is White's 19-24.
"""

from __future__ import annotations

import pytest

from bgboard.engine.board import BLACK, START, WHITE
from bgboard.engine.game import Game, IllegalAction
from bgboard.engine.moves import Step, legal_plays
from bgboard.engine.referee import IllegalMove, resolve
from engine_helpers import make, moves_of


# --- board and set-up ----------------------------------------------------------------------
def test_start_has_2_5_3_5_on_24_13_8_6_for_both_sides():
    for color in (WHITE, BLACK):
        assert {p: START.count(color, p) for p in (24, 13, 8, 6)} == {24: 2, 13: 5, 8: 3, 6: 5}
        assert START.off(color) == 0 and START.pips(color) == 167


def test_a_side_with_16_checkers_is_refused():
    with pytest.raises(ValueError, match="white has 16 checkers"):
        make({6: 16}, {19: 15})


# --- rolling ---------------------------------------------------------------------------------
def test_opening_tie_rolls_again_and_higher_die_plays_both_numbers():
    game = Game()
    assert game.opening(4, 4) is None
    assert game.dice is None
    assert game.opening(3, 5) is BLACK
    assert (game.turn, game.dice) == (BLACK, (5, 3))
    assert game.move("13/10 13/8").move == "13/10 13/8"
    assert game.turn is WHITE


# --- moving ----------------------------------------------------------------------------------
def test_one_checker_may_take_both_dice_over_an_open_point():
    assert moves_of(make({24: 1, 1: 14}, {18: 2, 12: 13}), (6, 5)) == {"24/13"}


def test_one_checker_may_not_take_both_dice_over_two_blocked_points():
    pos = make({24: 1, 13: 1, 1: 13}, {18: 2, 19: 2, 12: 11})
    assert moves_of(pos, (6, 5)) == {"13/2"}
    with pytest.raises(IllegalMove, match="24/13 is blocked on the way, at 19 and 18") as err:
        resolve(pos, (6, 5), "24/13")
    assert err.value.points == (24, 19, 18)


def test_two_checkers_block_a_point_and_one_is_hit_to_the_bar():
    pos = make({24: 2, 1: 13}, {19: 2, 20: 1, 12: 12})
    play = resolve(pos, (4, 3), "24/20* 24/21")
    assert play.move == "24/21 24/20*"
    assert (play.position.bar_black, play.position.points[19], play.position.turn) == (
        1, 1, BLACK)
    with pytest.raises(IllegalMove, match="point 19 is blocked"):
        resolve(pos, (5, 2), "24/19 24/22")
    assert not any(s.end == 19 for p in legal_plays(pos, (5, 5)) for s in p.steps)


def test_doubles_play_four_moves():
    plays = legal_plays(START, (2, 2))
    assert len(plays) == 75 and all(len(p.steps) == 4 for p in plays)
    assert "13/11(2) 6/4(2)" in {p.move for p in plays}


def test_both_numbers_must_be_played_when_any_sequence_allows():
    with pytest.raises(IllegalMove, match="both dice must be played"):
        resolve(START, (3, 1), "8/5")


def test_either_but_not_both_plays_the_larger():
    pos = make({24: 1, 1: 14}, {13: 2, 12: 13})
    assert moves_of(pos, (6, 5)) == {"24/18"}
    with pytest.raises(IllegalMove, match="the 6 must be played"):
        resolve(pos, (6, 5), "24/19")


def test_only_one_number_playable_is_played():
    assert moves_of(make({24: 1, 1: 14}, {18: 2, 13: 2, 12: 11}), (6, 5)) == {"24/19"}
    assert moves_of(make({24: 1, 1: 14}, {19: 2, 13: 2, 12: 11}), (6, 5)) == {"24/18"}


def test_doubles_play_as_many_as_possible():
    pos = make({24: 1, 1: 14}, {15: 2, 12: 13})
    assert moves_of(pos, (3, 3)) == {"24/18"}
    with pytest.raises(IllegalMove, match="2 moves of 3 must be played, as many as possible"):
        resolve(pos, (3, 3), "24/21")


def test_no_playable_number_passes_the_turn():
    pos = make({24: 2, 1: 13}, {18: 2, 12: 13})
    assert legal_plays(pos, (6, 6)) == []
    game = Game(start=pos)
    game.roll(6, 6)
    with pytest.raises(IllegalMove, match="6-6 cannot be played: the turn passes"):
        game.move("24/18")
    assert game.move(None) is None and game.turn is BLACK


# --- the bar ---------------------------------------------------------------------------------
def test_a_checker_on_the_bar_enters_first():
    pos = make({13: 14}, {12: 15}, bar_white=1)
    assert moves_of(pos, (3, 1)) == {"bar/21", "bar/24 13/10"}
    with pytest.raises(IllegalMove, match="a checker on the bar must enter first"):
        resolve(pos, (3, 1), "13/10 13/12")


def test_entry_against_a_held_six_point_leaflet_000():
    """000: with the point for a 6 taken, 1-5 enter, a six cannot, 6-6 cannot move at all."""
    pos = make({13: 14}, {19: 2, 12: 13}, bar_white=1)
    for die in range(1, 6):
        assert all(p.steps[0] == Step(25, 25 - die) for p in legal_plays(pos, (6, die)))
    assert legal_plays(pos, (6, 6)) == []


def test_entering_against_a_five_point_board():
    pos = make({13: 14}, {20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 5}, bar_white=1)
    assert legal_plays(pos, (5, 4)) == []
    assert moves_of(pos, (6, 4)) == {"bar/15", "bar/19 13/9"}
    with pytest.raises(IllegalMove, match="point 21 is blocked"):
        resolve(pos, (6, 4), "bar/21 13/7")


def test_every_bar_checker_enters_before_anything_else_moves():
    assert moves_of(make({13: 13}, {12: 15}, bar_white=2), (3, 1)) == {"bar/24 bar/22"}
    assert moves_of(make({13: 13}, {22: 2, 12: 13}, bar_white=2), (3, 1)) == {"bar/24"}


# --- bearing off -----------------------------------------------------------------------------
def test_bearing_off_needs_every_checker_home():
    pos = make({8: 1, 6: 14}, {19: 15})
    assert not any(s.end == 0 for p in legal_plays(pos, (6, 1)) for s in p.steps)
    with pytest.raises(IllegalMove, match="outside your home board \\(point 7\\)"):
        resolve(pos, (6, 1), "6/off 8/7")


def test_a_die_bears_off_from_its_point_or_else_from_the_highest():
    pos = make({4: 2, 2: 2}, {19: 15})
    assert moves_of(pos, (6, 5)) == {"4/off(2)"}
    assert moves_of(pos, (4, 2)) == {"4/off 2/off", "4/2 4/off"}
    with pytest.raises(IllegalMove, match="a 6 bears off only from your highest point \\(4\\)"):
        resolve(pos, (6, 1), "2/off 4/3")


def test_a_lower_die_moves_inside_the_home_board():
    assert moves_of(make({6: 1, 3: 1}, {19: 15}), (5, 1)) == {"6/off", "6/1 3/2"}


def test_lone_checker_on_six_with_6_1_leaflet_003():
    """003: one checker on 6 and 6-1: play the 1 first, then bear it off with the 6."""
    pos = make({6: 1}, {19: 15})
    assert [p.move for p in legal_plays(pos, (6, 1))] == ["6/off"]
    assert resolve(pos, (6, 1), "6/5/off").position.winner() is WHITE


def test_six_five_with_two_on_five_and_none_on_six_leaflet_003():
    """003: no checker on 6, two on 5, roll 6-5: both dice bear off the two on 5."""
    assert moves_of(make({5: 2, 2: 3}, {19: 15}), (6, 5)) == {"5/off(2)"}


def test_moving_inside_instead_of_bearing_off_is_allowed():
    assert moves_of(make({6: 3}, {19: 15}), (6, 1)) == {"6/5 6/off"}
    assert moves_of(make({6: 2, 5: 2}, {19: 15}), (2, 1)) == {
        "6/5 6/4", "6/4 5/4", "6/3", "5/4 5/3", "5/2"}


def test_a_checker_hit_in_the_bear_off_comes_home_before_bearing_off_resumes():
    pos = make({6: 2, 2: 2}, {12: 15}, bar_white=1)
    assert moves_of(pos, (6, 5)) == {"bar/14", "bar/19 6/1"}


# --- game end and scoring ------------------------------------------------------------------
def test_single_gammon_and_backgammon():
    assert make({}, {19: 14}).result_multiplier(WHITE) == 1
    assert make({}, {19: 15}).result_multiplier(WHITE) == 2
    assert make({}, {19: 14, 1: 1}).result_multiplier(WHITE) == 3
    assert make({}, {19: 14}, bar_black=1).result_multiplier(WHITE) == 3


def test_the_first_to_bear_off_all_fifteen_wins():
    game = Game(start=make({1: 1}, {19: 15}))
    game.roll(2, 1)
    game.move("1/off")
    assert (game.result.winner, game.result.multiplier, game.result.points) == (WHITE, 2, 2)
    with pytest.raises(IllegalAction, match="the game is over"):
        game.roll(3, 3)
