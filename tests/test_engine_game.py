"""Game and Match: turn order, the cube, scoring, the Crawford rule, money options."""

from __future__ import annotations

import pytest

from bgboard.engine.board import BLACK, WHITE
from bgboard.engine.game import Game, IllegalAction, Match, Rules
from bgboard.engine.ids import match_id
from engine_helpers import make


def opened() -> Game:
    game = Game()
    game.opening(3, 1)
    game.move("8/5 6/5")
    return game


def test_moves_alternate_and_are_recorded():
    game = opened()
    game.roll(6, 4)
    game.move("24/18 13/9")
    assert [(a.color, a.dice, a.play.move) for a in game.record] == [
        (WHITE, (3, 1), "8/5 6/5"), (BLACK, (6, 4), "24/18 13/9")]
    assert game.turn is WHITE


def test_illegal_actions_say_why():
    game = opened()
    with pytest.raises(IllegalAction, match="black must roll first"):
        game.move("24/18 13/9")
    game.roll(6, 4)
    with pytest.raises(IllegalAction, match="black has rolled already: play the 6-4"):
        game.roll(1, 1)
    with pytest.raises(IllegalAction, match="you may double only before rolling"):
        game.double()


def test_double_take_gives_the_cube_to_the_taker():
    game = opened()
    game.double()
    with pytest.raises(IllegalAction, match="white must take or pass the double first"):
        game.roll(2, 1)
    game.take()
    assert (game.board.cube, game.board.cube_owner) == (2, WHITE)
    game.roll(2, 1)
    game.move("13/11 6/5")
    game.double()
    game.take()
    assert (game.board.cube, game.board.cube_owner) == (4, BLACK)
    game.roll(5, 5)
    game.move("13/3(2)")
    game.roll(3, 1)
    game.move("8/5 6/5")
    assert game.may_double() == "the cube belongs to black"


def test_a_pass_loses_the_cube_value_before_the_double():
    game = opened()
    game.double()
    game.take()
    game.roll(2, 1)
    game.move("13/11 6/5")
    game.double()
    game.drop()
    assert (game.result.winner, game.result.points, game.result.how) == (WHITE, 2, "drop")


def test_cube_limit():
    game = Game(Rules(cube_limit=2), start=make({6: 15}, {19: 15}).with_cube(2, WHITE))
    assert game.may_double() == "the cube is at its limit (2)"


def test_undo_takes_back_the_last_action():
    game = opened()
    game.roll(6, 4)
    game.move("24/14")
    game.undo()
    assert game.dice == (6, 4) and game.turn is BLACK
    game.move("24/18 13/9")
    assert game.record[-1].play.move == "24/18 13/9"


def test_gammon_scores_double_and_jacoby_makes_it_single_with_a_centred_cube():
    pos = make({1: 1}, {19: 15})
    for rules, points in ((Rules(), 2), (Rules(jacoby=True), 1), (Rules(match_length=5,
                                                                        jacoby=True), 2)):
        game = Game(rules, start=pos)
        game.roll(1, 2)
        game.move("1/off")
        assert game.result.points == points


def test_beaver_only_in_money_play_with_beavers_on():
    game = Game(Rules(beavers=True), start=make({6: 15}, {19: 15}))
    game.double()
    game.beaver()
    assert (game.board.cube, game.board.cube_owner) == (4, BLACK)
    match_game = Game(Rules(match_length=5, beavers=True), start=make({6: 15}, {19: 15}))
    match_game.double()
    with pytest.raises(IllegalAction, match="beavers are not allowed"):
        match_game.beaver()


def test_match_to_three_with_the_crawford_rule():
    match = Match(length=3)
    first = match.new_game()
    first.opening(3, 1)
    assert first.may_double() == "you may double only before rolling"
    first.move("8/5 6/5")
    first.double()
    first.take()
    first.resign(WHITE)
    assert match.score == (0, 2)
    crawford = match.new_game()
    assert crawford.rules.crawford_game
    crawford.opening(6, 1)
    assert crawford.may_double() == "you may double only before rolling"
    crawford.move("13/7 8/7")
    assert crawford.may_double() == "no doubling in the Crawford game"
    assert match_id(match.state())[-1] == "E"
    assert match.state().crawford
    crawford.resign(BLACK)
    post = match.new_game()
    assert not post.rules.crawford_game and match.score == (1, 2)
    post.opening(2, 1)
    post.resign(WHITE, 2)
    assert match.winner() is BLACK and match.score == (1, 4)
    with pytest.raises(IllegalAction, match="the match is over: black won"):
        match.new_game()


def test_no_crawford_game_in_a_one_point_match_or_money():
    for length in (0, 1):
        match = Match(length=length)
        assert not match.new_game().rules.crawford_game
