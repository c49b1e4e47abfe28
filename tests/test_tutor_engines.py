"""Every installed engine adapter on positions whose best play or cube action is known, and
the gnubg program against gnubg-nn on random positions."""

from __future__ import annotations

import pytest

from bgboard.engine.analysis import EngineMissing, installed, open_analyzer
from bgboard.engine.analysis import gnubg_cli as gnubg_cli_module
from bgboard.engine.board import START
from bgboard.engine.moves import legal_plays
from engine_helpers import make, self_play_positions

ENGINES = installed()
needs_both = pytest.mark.skipif(ENGINES[:2] != ["gnubg-nn", "gnubg"],
                                reason="needs gnubg-nn and gnubg (the test extra and CI have both)")


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    with open_analyzer(request.param) as analyzer:
        yield analyzer


def strong(engine):
    if engine.weak:
        pytest.skip("the builtin engine is weak: only the plainest positions are checked")


# Best opening plays (every book and every gnubg agrees).
OPENINGS = {(3, 1): "8/5 6/5", (4, 2): "8/4 6/4", (6, 1): "13/7 8/7", (5, 3): "8/3 6/3"}


@pytest.mark.parametrize("dice", list(OPENINGS))
def test_opening_rolls(engine, dice):
    ranked = engine.rank(START, dice)
    assert ranked[0].move == OPENINGS[dice]
    assert len(ranked) == len(legal_plays(START, dice))
    assert [r.equity for r in ranked] == sorted((r.equity for r in ranked), reverse=True)


def test_black_opening_is_ranked_in_blacks_numbering(engine):
    assert engine.rank(START.swap_turn(), (3, 1))[0].move == "8/5 6/5"


def test_bear_off_two_checkers(engine):
    pos = make({6: 1, 1: 1}, {24: 2, 23: 3})
    ranked = engine.rank(pos, (6, 1))
    assert ranked[0].move == "6/off 1/off"
    assert ranked[0].probabilities.win == pytest.approx(1.0, abs=0.001 if not engine.weak else 0.2)


def test_bear_off_rather_than_move_inside(engine):
    """The opponent needs two rolls unless it rolls big: take two checkers off, not one."""
    pos = make({6: 1, 5: 1, 4: 1}, {19: 1, 20: 1})
    ranked = engine.rank(pos, (6, 5))
    assert ranked[0].move == "6/off 5/off"
    assert ranked[0].equity - ranked[1].equity > 0.1


def test_forced_play_is_the_only_one(engine):
    pos = make({24: 1}, {19: 2, 13: 2, 1: 2})
    ranked = engine.rank(pos, (6, 5))
    assert [r.move for r in ranked] == ["24/18"]


def test_a_dance_ranks_nothing(engine):
    pos = make({}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, bar_white=1)
    assert engine.rank(pos, (1, 1)) == []


def test_start_position_chances(engine):
    strong(engine)
    p = engine.evaluate(START)
    assert (round(p.win, 2), round(p.win_gammon, 2), round(p.lose_gammon, 2)) == (0.52, 0.15, 0.13)


CUBES = {
    "7O5sAADs7mwAAA": "no double",       # an even race, 85 pips each
    "7O6wAQDs7mwAAA": "double, take",    # 85 against 93
    "3N3BAQDu7g4AAA": "double, pass",    # 60 against 87
}


@pytest.mark.parametrize("pid", list(CUBES))
def test_cube_decisions_in_races(engine, pid):
    strong(engine)
    from bgboard.engine.ids import position_from_id

    advice = engine.cube(position_from_id(pid))
    assert advice.action == CUBES[pid]
    assert advice.take == (CUBES[pid] != "double, pass")


def test_the_cube_at_the_start(engine):
    strong(engine)
    advice = engine.cube(START)
    assert advice.action == "no double"
    assert advice.take
    assert advice.no_double == pytest.approx(0.092, abs=0.002)
    assert advice.double_take == pytest.approx(-0.191, abs=0.002)


def test_no_cube_advice_without_the_cube(engine):
    pos = START.with_cube(2, START.turn.other)
    with pytest.raises(ValueError, match="the cube belongs to black"):
        engine.cube(pos)


def test_ply_out_of_range_is_refused(engine):
    with pytest.raises(ValueError, match="--ply 9"):
        engine.rank(START, (3, 1), 9)


@needs_both
def test_deeper_plies_rank_all_plays():
    with open_analyzer("gnubg-nn") as nn:
        ranked = nn.rank(START, (2, 1), 2)
    assert len(ranked) == 15
    assert ranked[0].ply == 2
    assert {r.ply for r in ranked} == {0, 2}


@needs_both
def test_gnubg_program_and_gnubg_nn_agree_at_0_ply():
    """The same nets: the same best play on 200 random positions (ties within 0.002 allowed:
    gnubg prints 5 digits)."""
    samples = [(p, d) for p, d in self_play_positions(400, 11) if len(legal_plays(p, d)) > 1]
    same, gaps = 0, []
    with open_analyzer("gnubg") as cli, open_analyzer("gnubg-nn") as nn:
        for pos, dice in samples[:200]:
            a, b = cli.rank(pos, dice, 0), nn.rank(pos, dice, 0)
            if a[0].play.position == b[0].play.position:
                same += 1
            else:
                equity = {r.play.position: r.equity for r in b}
                assert b[0].equity - equity[a[0].play.position] < 0.002
            assert len(a) == len(b)
            gaps.append(abs(a[0].equity - b[0].equity))
    assert same >= 195
    assert sum(gaps) / len(gaps) < 0.002


@needs_both
def test_gnubg_program_is_one_long_lived_process():
    with open_analyzer("gnubg") as cli:
        pid = cli._proc.pid
        cli.rank(START, (3, 1))
        cli.cube(START)
        assert cli._proc.pid == pid and cli._proc.poll() is None
    assert cli._proc.poll() is not None


@needs_both
def test_missing_engine_says_what_is_installed_and_how_to_install(monkeypatch):
    monkeypatch.setattr(gnubg_cli_module, "find_gnubg", lambda: None)
    with pytest.raises(EngineMissing) as err:
        open_analyzer("gnubg")
    assert str(err.value) == ("the gnubg engine is not installed (installed: gnubg-nn, "
                              "builtin); to install it: apt-get install gnubg (Debian, Ubuntu, "
                              "Raspberry Pi OS)")


def test_builtin_is_labelled_weak():
    with open_analyzer("builtin") as weak:
        assert weak.label == "builtin (weak: a rough guide only)"


@needs_both
def test_gnubg_program_is_started_again_after_a_crash():
    with open_analyzer("gnubg") as cli:
        first = cli._proc
        first.kill()
        first.wait()
        assert cli.rank(START, (3, 1))[0].move == "8/5 6/5"
        assert cli._proc is not first and cli._proc.poll() is None
