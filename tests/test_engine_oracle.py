"""GNU Backgammon is the oracle: legal plays and Position IDs must equal gnubg-nn's."""

from __future__ import annotations

import pytest

from bgboard.engine.board import BLACK, WHITE
from bgboard.engine.ids import board_from_position_id, position_from_id, position_id
from bgboard.engine.moves import legal_plays
from engine_helpers import self_play_positions

gnubg_nn = pytest.importorskip(
    "gnubg_nn", reason="gnubg-nn is not installed (x86_64 wheels only): the oracle cannot run")

POSITIONS = self_play_positions(2500, seed=20261121)


def gnubg_results(pos, dice) -> set[str]:
    """gnubg's legal plays as next-turn Position IDs (FORMATS.md 7.1)."""
    board = gnubg_nn.board_from_position_id(position_id(pos))
    keys = gnubg_nn.moves(board, dice[0], dice[1], 1)
    boards = (gnubg_nn.board_from_position_key(k) for k, _ in keys)
    return {gnubg_nn.position_id([list(b[1]), list(b[0])]) for b in boards}


def test_sample_covers_bar_bearoff_hits_and_dances():
    with_bar = sum(1 for p, _ in POSITIONS if p.bar(p.turn))
    bearing_off = sum(1 for p, _ in POSITIONS
                      if all(p.count(p.turn, q) == 0 for q in range(7, 25)) and not p.bar(p.turn))
    hits = sum(1 for p, d in POSITIONS if any(s.hit for pl in legal_plays(p, d) for s in pl.steps))
    dances = sum(1 for p, d in POSITIONS if not legal_plays(p, d))
    assert min(with_bar, bearing_off, hits, dances) >= 40, (with_bar, bearing_off, hits, dances)


def test_legal_plays_equal_gnubg_on_2500_self_play_positions():
    mismatches = []
    total = 0
    for pos, dice in POSITIONS:
        ours = [position_id(p.position) for p in legal_plays(pos, dice)]
        assert len(ours) == len(set(ours)), "one entry per distinct resulting position"
        total += len(ours)
        if set(ours) != gnubg_results(pos, dice):
            mismatches.append((position_id(pos), dice))
    assert mismatches == []
    assert total > 20000


def test_position_ids_equal_gnubg_and_round_trip():
    for pos, _ in POSITIONS:
        pid = position_id(pos)
        assert pid == gnubg_nn.position_id(pos.to_gnubg())
        assert board_from_position_id(pid) == pos.to_gnubg()
        assert position_from_id(pid, pos.turn) == pos


def test_black_on_roll_gives_the_same_id_as_white_mirrored():
    for pos, _ in POSITIONS[:200]:
        mirrored = position_from_id(position_id(pos), WHITE if pos.turn is BLACK else BLACK)
        assert position_id(mirrored) == position_id(pos)
