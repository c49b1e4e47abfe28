"""Every meaning of the LEDs gives the exact LED pattern for a given game situation."""

import pytest

from bgboard.engine.board import BLACK, START_POINTS, WHITE, Position
from bgboard.engine.moves import legal_plays
from bgboard.engine.places import corrections, mover_place
from bgboard.engine.referee import IllegalMove, resolve
from bgboard.hardware import signals as s
from bgboard.hardware.layout import index, right_half
from bgboard.hardware.led_pattern import DARK, LedPattern

K = (0, 0, 0)  # off (blacK)
W, B = (255, 255, 255), (0, 80, 255)
GREEN, RED, YELLOW = (0, 255, 0), (255, 0, 0), (255, 200, 0)
DIM_YELLOW, DIM_GREEN, CYAN = (64, 50, 0), (0, 60, 0), (0, 255, 255)
MAGENTA, VIOLET, ORANGE = (255, 0, 255), (120, 0, 255), (255, 80, 0)
GOLD, PURPLE = (255, 160, 0), (160, 0, 255)
PLAY_W, PLAY_B, TRAY_W, TRAY_B, BAR_W, BAR_B = 28, 29, 26, 27, 24, 25


def lit(frame: LedPattern) -> dict[int, tuple]:
    """LED index -> cycle, for every LED that lights at some point."""
    return {i: c for i, c in enumerate(frame.lights) if c != (K,)}


def test_layout_order_is_points_then_bar_tray_and_to_play():
    assert [index(p) for p in (1, 24)] == [0, 23]
    assert [index(n) for n in ("bar white", "bar black", "tray white", "tray black",
                               "play white", "play black")] == [24, 25, 26, 27, 28, 29]
    assert [mover_place(p, BLACK) for p in (1, 24, 25, 0)] == [24, 1, "bar black", "tray black"]
    with pytest.raises(ValueError, match="no LED at 25"):
        index(25)


def test_whose_turn():
    assert lit(s.turn(WHITE)) == {PLAY_W: (W,)}
    assert lit(s.turn(BLACK)) == {PLAY_B: (B,)}


def test_dice_accepted_double_flash_green():
    assert lit(s.dice_accepted(BLACK)) == {PLAY_B: (GREEN, K, GREEN, K, K, K, K, K)}


def test_roll_again_flashes_and_shows_the_half_to_roll_into():
    frame = s.roll_again(WHITE, right_half(WHITE, white_home_right=True))
    expected = {i: (DIM_YELLOW,) for i in [*range(0, 6), *range(18, 24)]}
    expected[PLAY_W] = (YELLOW, K)
    assert lit(frame) == expected
    assert right_half(BLACK, white_home_right=True) == list(range(7, 19))
    assert right_half(WHITE, white_home_right=False) == list(range(7, 19))


def test_illegal_move_flashes_the_points_red():
    assert lit(s.illegal_move([24, 20, "bar white"])) == {
        23: (RED, K), 19: (RED, K), BAR_W: (RED, K)}


def test_a_moved_field_found_again_and_one_lost_light_the_corner_points():
    assert lit(s.field_moved()) == {i: (CYAN, K, CYAN, K, K, K, K, K) for i in (0, 11, 12, 23)}
    assert lit(s.field_lost()) == {i: (RED,) * 4 + (K,) * 4 for i in (0, 11, 12, 23)}


def test_illegal_move_from_the_referee_in_the_movers_numbering():
    with pytest.raises(IllegalMove) as caught:
        resolve(Position(turn=BLACK), (3, 1), "24/18")
    assert caught.value.points == (24, 18)
    assert lit(s.illegal_move(caught.value.points, BLACK)) == {0: (RED, K), 6: (RED, K)}
    assert lit(s.illegal_move([25, 0], BLACK)) == {BAR_B: (RED, K), TRAY_B: (RED, K)}


def test_mismatch_shows_each_pair_in_turn():
    frame = s.mismatch([(20, 24), (4, 6)])
    flash = (ORANGE, K, ORANGE, K)
    dark, white = (K,) * 4, (W,) * 4
    assert lit(frame) == {
        19: flash + dark * 4,
        23: dark + white + dark * 3,
        3: dark * 2 + flash + dark * 2,
        5: dark * 3 + white + dark,
    }


def board(points, bar=(0, 0), off=(0, 0)):
    return {"points": list(points), "bar": dict(zip(("white", "black"), bar, strict=True)),
            "off": dict(zip(("white", "black"), off, strict=True))}


def test_corrections_pair_each_misplaced_checker_with_the_nearest_gap():
    expected = Position().to_dict()
    seen = list(START_POINTS)
    seen[12], seen[9], seen[7], seen[4] = 4, 1, 2, 1  # White moved 13/10 and 8/5
    seen[0] = -1  # and a Black checker from White's 1 is on the bar
    moves = corrections(board(seen, bar=(0, 1)), expected)
    assert moves == [(5, 8), (10, 13), ("bar black", 1)]
    assert corrections(expected, expected) == []
    assert corrections(board([0] * 24, off=(15, 15)), expected)[:2] == [
        ("tray white", 6), ("tray white", 6)]


def test_legal_sources_from_the_start_with_6_5():
    assert lit(s.legal_sources(Position(), (6, 5))) == {23: (GREEN,), 12: (GREEN,), 7: (GREEN,)}


def test_legal_sources_after_the_first_checker_was_played():
    # 24/18 used the 6; with the 5: 18/13, 13/8 or 8/3 (24/19 is blocked)
    frame = s.legal_sources(Position(), (6, 5), played=[(24, 18)])
    assert lit(frame) == {17: (GREEN,), 12: (GREEN,), 7: (GREEN,)}


def test_legal_sources_for_black_are_in_whites_numbering():
    assert lit(s.legal_sources(Position(turn=BLACK), (3, 1))) == {
        0: (GREEN,), 11: (GREEN,), 16: (GREEN,), 18: (GREEN,)}


def test_legal_sources_with_a_checker_on_the_bar_is_the_bar_only():
    points = list(START_POINTS)
    points[23] = 1
    pos = Position(tuple(points), bar_white=1)
    assert lit(s.legal_sources(pos, (6, 5))) == {BAR_W: (GREEN,)}


def bear_off_position():
    """White has one checker on 6 and one on 2, the rest borne off; Black is far away."""
    points = [0] * 24
    points[5], points[1], points[20] = 1, 1, -15
    return Position(tuple(points))


def test_legal_sources_in_the_bear_off_follow_the_rules_order():
    # 6-5: the 2 may not bear off with the 5 while the 6 is there, so only the 6 lights
    assert lit(s.legal_sources(bear_off_position(), (6, 5))) == {5: (GREEN,)}
    assert lit(s.legal_sources(bear_off_position(), (6, 5), played=[(6, 0)])) == {1: (GREEN,)}


def test_no_sources_when_the_roll_cannot_be_played():
    points = [0] * 24
    points[18:24] = [-2] * 6  # Black holds every entry point
    points[0], points[5] = -3, 14
    pos = Position(tuple(points), bar_white=1)
    assert lit(s.legal_sources(pos, (6, 5))) == {}
    assert lit(s.destinations(pos, (6, 5), "bar white")) == {BAR_W: (DIM_GREEN,)}


BLINK = (CYAN,) * 4 + (K,) * 4


def test_destinations_of_a_lifted_checker_follow_it_over_both_dice():
    start = Position()
    assert lit(s.destinations(start, (6, 5), 24)) == {23: (DIM_GREEN,), 17: BLINK, 12: BLINK}
    assert lit(s.destinations(start, (6, 5), 8)) == {7: (DIM_GREEN,), 2: BLINK, 1: BLINK}
    assert lit(s.destinations(start, (3, 3), 24)) == {
        23: (DIM_GREEN,), 20: BLINK, 17: BLINK, 14: BLINK}


def test_destinations_in_the_bear_off_include_the_tray():
    assert lit(s.destinations(bear_off_position(), (6, 5), 6)) == {
        5: (DIM_GREEN,), TRAY_W: BLINK, 0: BLINK}
    assert lit(s.destinations(bear_off_position(), (6, 5), 2)) == {1: (DIM_GREEN,)}


def test_destinations_from_the_bar_for_black():
    points = list(START_POINTS)
    points[0] = -1  # Black's 24-point (White's 1) keeps one checker, the other is on the bar
    pos = Position(tuple(points), bar_black=1, turn=BLACK)
    # Black enters on its 21 or 24 (White's 4 or 1) and may go on to its 20 (White's 5)
    assert lit(s.destinations(pos, (4, 1), "bar black")) == {
        BAR_B: (DIM_GREEN,), 3: BLINK, 0: BLINK, 4: BLINK}


def test_tutor_suggestion_in_order():
    play = next(p for p in legal_plays(Position(), (3, 1)) if p.move == "8/5 6/5")
    first, second = ((s_.start, s_.end) for s_ in play.steps)
    assert {first, second} == {(8, 5), (6, 5)}
    m, v, dark = (MAGENTA,) * 4, (VIOLET,) * 4, (K,) * 4
    frame = s.suggestion(play, WHITE)
    a, b = first[0] - 1, second[0] - 1
    assert lit(frame) == {
        a: m + dark * 4, 4: dark + v + dark + v + dark, b: dark * 2 + m + dark * 2}


def test_tutor_suggestion_for_black_bears_off_into_its_tray():
    play = legal_plays(Position((0,) * 23 + (-1,), turn=BLACK, bar_black=0), (6, 5))[0]
    assert play.move == "1/off"
    frame = s.suggestion(play, BLACK)
    dark = (K,) * 4
    assert lit(frame) == {23: (MAGENTA,) * 4 + dark * 2, TRAY_B: dark + (VIOLET,) * 4 + dark}


def test_game_over_with_match_score():
    frame = s.game_over(WHITE, 2, {WHITE: 5, BLACK: 3})
    gold = (GOLD,) * 4 + (K,) * 4
    assert lit(frame) == {
        PLAY_W: gold, TRAY_W: gold,
        0: (W,), 1: (W,), 2: (W,), 3: (GOLD, K), 4: (GOLD, K),
        23: (B,), 22: (B,), 21: (B,),
    }


def test_game_over_money_play_shows_the_points_won():
    frame = s.game_over(BLACK, 3)
    gold = (GOLD,) * 4 + (K,) * 4
    assert lit(frame) == {PLAY_B: gold, TRAY_B: gold, 23: (GOLD, K), 22: (GOLD, K),
                          21: (GOLD, K)}


def test_cube_value_and_owner():
    frame = s.cube(4, WHITE)
    assert frame.cube == 4
    assert lit(frame) == {TRAY_W: (PURPLE,) * 7 + (K,)}
    assert s.cube(1) == LedPattern(cube=1)


def test_frames_combine_with_the_top_one_winning():
    frame = s.turn(WHITE) | s.cube(2, BLACK) | s.illegal_move([1])
    assert frame.cube == 2
    assert lit(frame) == {PLAY_W: (W,), TRAY_B: (PURPLE,) * 7 + (K,), 0: (RED, K)}
    assert (s.cube(2) | DARK).cube == 2
    assert frame.at(1)[0] == K and frame.at(2)[0] == RED


def test_game_over_score_without_the_winner_counts_the_points_won():
    gold = (GOLD,) * 4 + (K,) * 4
    assert lit(s.game_over(BLACK, 1, {WHITE: 2})) == {
        PLAY_B: gold, TRAY_B: gold, 0: (W,), 1: (W,), 23: (GOLD, K)}


def test_bad_dice_are_refused():
    with pytest.raises(ValueError, match="dice must be two numbers from 1 to 6"):
        s.legal_sources(Position(), (7, 1))
