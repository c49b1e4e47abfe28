"""The tutor component: modes, hint limit, verdicts, cube advice, time budget, never blocking."""

from __future__ import annotations

import threading

import pytest

from bgboard.controller.tutor import (
    CubeHint,
    Failed,
    Hint,
    Tutor,
    TutorSettings,
    Verdict,
    parse_mode,
)
from bgboard.engine.analysis import installed, open_analyzer
from bgboard.engine.analysis.builtin import Builtin
from bgboard.engine.board import BLACK, START, WHITE
from bgboard.engine.moves import legal_plays
from bgboard.hardware import signals
from engine_helpers import make

pytestmark = pytest.mark.skipif(installed()[:2] != ["gnubg-nn", "gnubg"],
                                reason="needs gnubg-nn and gnubg (the test extra and CI have both)")


def play(pos, dice, move):
    return next(p for p in legal_plays(pos, dice) if p.move == move)


@pytest.fixture
def tutor():
    t = Tutor(TutorSettings(ply=0), {"white": "warn+hint+cube", "black": "off"},
              analyzer=open_analyzer("gnubg-nn"))
    yield t
    t.close()


def test_hint_is_the_best_play_with_its_led_frame(tutor):
    assert tutor.dice_read(START, (3, 1))
    hint = tutor.wait()
    assert isinstance(hint, Hint)
    assert (hint.best, hint.color, hint.ply, hint.engine) == ("8/5 6/5", WHITE, 0, "gnubg-nn")
    assert hint.equity == pytest.approx(0.1597, abs=0.0005)
    assert hint.frame() == signals.suggestion(hint.best_play, WHITE)


def test_off_means_nothing_is_ever_computed(tutor):
    black = START.swap_turn()
    assert not tutor.dice_read(black, (3, 1))
    assert not tutor.play_settled(black, (3, 1), play(black, (3, 1), "24/20"))
    assert not tutor.before_roll(black)
    assert tutor.wait(timeout=0.3) is None


def test_hint_limit_per_game_and_reset():
    with Tutor(TutorSettings(ply=0, hints_per_game=2), {"white": "hint"},
               analyzer=Builtin()) as t:
        assert [t.dice_read(START, (3, 1)) for _ in range(3)] == [True, True, False]
        assert [t.wait().hints_left for _ in range(2)] == [1, 0]
        t.new_game()
        assert t.hints_left(WHITE) == 2
        assert t.dice_read(START, (3, 1))


def test_verdict_on_a_very_bad_play(tutor):
    tutor.play_settled(START, (3, 1), play(START, (3, 1), "24/20"))
    verdict = tutor.wait()
    assert isinstance(verdict, Verdict)
    assert (verdict.word, verdict.warn, verdict.best) == ("very bad", True, "8/5 6/5")
    assert verdict.equity_loss == pytest.approx(0.1740, abs=0.0005)
    assert verdict.to_dict() == {
        "player": "white", "position_id": "4HPwATDgc/ABMA", "dice": [3, 1], "move": "24/20",
        "best": "8/5 6/5", "equity_loss": round(verdict.equity_loss, 4),
        "verdict": "very bad", "engine": "gnubg-nn", "ply": 0}


def test_verdict_on_the_best_play_is_good(tutor):
    tutor.play_settled(START, (3, 1), play(START, (3, 1), "8/5 6/5"))
    verdict = tutor.wait()
    assert (verdict.word, verdict.warn, verdict.equity_loss) == ("good", False, 0.0)


def test_warn_threshold_is_a_setting():
    with Tutor(TutorSettings(ply=0, warn_at="very bad", very_bad=0.2), {"white": "warn"},
               analyzer=open_analyzer("gnubg-nn")) as t:
        t.play_settled(START, (3, 1), play(START, (3, 1), "24/20"))
        verdict = t.wait()
    assert (verdict.word, verdict.warn) == ("bad", False)


@pytest.mark.parametrize("loss, word", [(0.0, "good"), (0.0299, "good"), (0.03, "doubtful"),
                                        (0.059, "doubtful"), (0.06, "bad"), (0.12, "very bad")])
def test_verdict_words(loss, word):
    assert TutorSettings().word(loss) == word


def test_cube_advice_before_rolling(tutor):
    tutor.before_roll(START)
    hint = tutor.wait()
    assert isinstance(hint, CubeHint)
    assert (hint.advice.action, hint.color) == ("no double", WHITE)


def test_no_cube_advice_when_the_opponent_owns_the_cube(tutor):
    assert not tutor.before_roll(START.with_cube(2, BLACK))
    assert tutor.before_roll(START.with_cube(2, WHITE))
    assert tutor.wait().advice.action == "no double"


def test_engine_failures_arrive_as_results():
    with Tutor(TutorSettings(ply=0, engine="gnubg"), {"white": "hint"}) as t:
        t._analyzer = open_analyzer("gnubg")
        t._analyzer.program = "/nonexistent/gnubg"
        t._analyzer._proc.kill()
        t._analyzer._proc.wait()
        assert t.dice_read(START, (3, 1))
        failed = t.wait()
    assert isinstance(failed, Failed)
    assert (failed.kind, failed.color) == ("hint", WHITE)
    assert "/nonexistent/gnubg" in failed.reason


def test_time_budget_falls_back_to_a_lower_ply():
    nn = open_analyzer("gnubg-nn")
    with Tutor(TutorSettings(ply=2, budget=0.0), {"white": "hint"}, analyzer=nn) as t:
        t.dice_read(START, (2, 1))
        assert t.wait().ply == 0
    with Tutor(TutorSettings(ply=2, budget=60.0), {"white": "hint"}, analyzer=nn) as t:
        t.dice_read(START, (2, 1))
        hint = t.wait()
    assert (hint.ply, hint.best) == (2, "24/23 13/11")


class Held(Builtin):
    """The real builtin engine, held back until the test lets it go."""

    def __init__(self) -> None:
        self.go = threading.Event()

    def rank(self, pos, dice, ply=0):
        assert self.go.wait(10)
        return super().rank(pos, dice, ply)


def test_calls_never_block_and_results_come_by_callback():
    engine, got, done = Held(), [], threading.Event()

    def deliver(result):
        got.append((result, threading.current_thread().name))
        done.set()

    with Tutor(TutorSettings(ply=0), {"white": "hint"}, on_result=deliver, analyzer=engine) as t:
        assert t.dice_read(START, (3, 1))
        assert got == []
        engine.go.set()
        assert done.wait(10)
    (result, thread), = got
    assert (result.best, thread) == ("8/5 6/5", "tutor")


def test_modes_are_checked():
    assert parse_mode("off") == frozenset()
    assert parse_mode("warn+cube") == {"warn", "cube"}
    with pytest.raises(ValueError, match="tutor mode 'loud'"):
        parse_mode("loud")
    with pytest.raises(ValueError, match="warn_at"):
        TutorSettings(warn_at="awful")


def test_forced_plays_cost_no_hint_and_get_no_verdict():
    forced = make({24: 1}, {19: 2, 13: 2, 1: 2})
    with Tutor(TutorSettings(ply=0, hints_per_game=1), {"white": "hint+warn"},
               analyzer=Builtin()) as t:
        assert not t.dice_read(forced, (6, 5))
        assert not t.play_settled(forced, (6, 5), play(forced, (6, 5), "24/18"))
        assert t.hints_left(WHITE) == 1
        assert t.wait(timeout=0.3) is None


def test_a_ply_known_to_be_too_slow_is_skipped_for_the_next_lower():
    with Tutor(TutorSettings(ply=2, budget=5.0), {"white": "hint"},
               analyzer=open_analyzer("gnubg-nn")) as t:
        t._seconds.update({1: 0.2, 2: 30.0})
        t.dice_read(START, (2, 1))
        assert t.wait().ply == 1
