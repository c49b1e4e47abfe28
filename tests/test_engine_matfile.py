"""Match files: .mat and .sgf written by us, imported by the real GNU Backgammon 1.07 and
compared with our game move by move; .mat read back by us."""

from __future__ import annotations

import pytest

from bgboard.engine.board import BLACK, WHITE
from bgboard.engine.game import Match
from bgboard.engine.matfile import read_mat, write_mat
from bgboard.engine.sgf import write_sgf
from engine_helpers import random_match
from gnubg_cli import expected_gnubg_actions, gnubg_actions, gnubg_import

MATCHES = [random_match(seed, length) for seed, length in
           [(1, 5), (2, 7), (3, 3), (4, 1), (5, 0), (6, 9)]]


def short_match() -> Match:
    match = Match(length=3)
    game = match.new_game()
    game.opening(3, 1)
    game.move("8/5 6/5")
    game.roll(6, 4)
    game.move("24/18 13/9")
    game.double()
    game.drop()
    return match


def test_mat_layout_is_gnubgs():
    assert write_mat(short_match(), ("Alice", "Bob")) == (
        " 3 point match\n"
        "\n"
        " Game 1\n"
        " Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                 64: 24/18 13/9 \n"
        "  2)  Doubles => 2                Drops\n"
        "      Wins 1 point\n"
        "\n")


def test_gnubg_imports_our_mat_and_sgf_move_by_move(tmp_path):
    paths = []
    for i, match in enumerate(MATCHES):
        (tmp_path / f"m{i}.mat").write_text(write_mat(match, ("Alice", "Bob")))
        (tmp_path / f"m{i}.sgf").write_text(write_sgf(match, ("Alice", "Bob")))
        paths += [tmp_path / f"m{i}.mat", tmp_path / f"m{i}.sgf"]
    imported = gnubg_import(paths, tmp_path)
    for i, match in enumerate(MATCHES):
        for found in imported[2 * i: 2 * i + 2]:
            assert found["match-info"]["match-length"] == match.length
            assert gnubg_actions(found) == expected_gnubg_actions(match)
            results = [(g["info"]["winner"], g["info"]["points-won"]) for g in found["games"]]
            assert results == [("X" if g.result.winner is WHITE else "O", g.result.points)
                               for g in match.games]


def test_the_sample_has_everything_a_match_file_holds():
    actions = [a for m in MATCHES for g in m.games for a in g.record]
    kinds = {a.kind for a in actions}
    assert kinds >= {"move", "double", "take", "drop", "resign"}
    assert any(a.kind == "move" and a.play is None for a in actions)
    assert any(a.play and any(s.hit for s in a.play.steps) for a in actions)
    assert any(a.play and any(s.start == 25 for s in a.play.steps) for a in actions)
    assert any(a.play and any(s.end == 0 for s in a.play.steps) for a in actions)
    assert any(g.rules.crawford_game for m in MATCHES for g in m.games)
    assert any(g.record[0].color is BLACK for m in MATCHES for g in m.games)


def test_read_mat_replays_our_own_files():
    for match in MATCHES:
        back = read_mat(write_mat(match, ("Alice", "Bob")))
        assert back.names == ("Alice", "Bob")
        assert [g.record for g in back.match.games] == [
            tuple(a for a in g.record) for g in match.games]


HAND_MAT = """\
 5 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 62: 13/7* 13/11             53: 25/22 13/8
  3)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 Alice : 1                      Bob : 0
  1)                             52: 13/8 13/11
  2) 64: 24/14*                  55: bar/20 13/8(2) 6/1*
  3) 66:                         21: 8/7 8/6
  4) 41: bar/21/20                Doubles => 2
  5)  Takes                      63: 20/11*
  6)                              Wins 4 points
"""


def test_read_mat_reads_formats_md_hand_file():
    mat = read_mat(HAND_MAT)
    first, second = mat.match.games
    assert (first.result.winner, first.result.points, first.result.how) == (WHITE, 1, "drop")
    assert (second.result.winner, second.result.points, second.result.how) == (
        BLACK, 4, "resign")
    assert second.record[2].play.move == "bar/20 13/8(2) 6/1*"
    assert mat.match.score == (1, 4)


@pytest.mark.parametrize(("text", "reason"), [
    ("hello\n", "not a .mat file: no 'N point match' line"),
    (HAND_MAT.replace("31: 8/5 6/5", "31: 8/2 6/5"),
     "line 5: 8/2 is 6 pips; the dice left are 3, 1"),
    (HAND_MAT.replace(" Alice : 0                      Bob : 0", " Alice 0 Bob 0"),
     "line 4: expected 'name : score  name : score'"),
])
def test_read_mat_refuses_what_is_not_legal(text, reason):
    with pytest.raises(ValueError, match=reason):
        read_mat(text)
