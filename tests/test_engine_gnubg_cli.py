"""The real gnubg 1.07 program as oracle: move text, Match IDs and XGIDs."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from bgboard.engine.board import BLACK, WHITE, Position
from bgboard.engine.ids import MatchState, match_id, parse_xgid, position_id, xgid
from bgboard.engine.moves import legal_plays
from engine_helpers import self_play_positions
from gnubg_cli import match_id_of, need_gnubg, position_id_of, run_blocks

HINT = re.compile(r"^\s*\d+\.\s+Cubeful 0-ply\s+(.*?)\s+Eq\.:", re.M)


def test_move_text_equals_gnubg_hint_on_400_positions():
    need_gnubg()
    sample = [(p, d) for p, d in self_play_positions(3000, seed=7)[::7] if p.winner() is None]
    sample = sample[:400]
    blocks = [["new game", f"set board {position_id(p)}", f"set dice {d[0]} {d[1]}", "hint 9999"]
              for p, d in sample]
    outputs = run_blocks(blocks)
    differing = []
    for (pos, dice), out in zip(sample, outputs, strict=True):
        theirs = set(HINT.findall(out))
        ours = {p.move for p in legal_plays(pos, dice)}
        if not ours:
            assert "There are no legal moves" in out
        elif ours != theirs:
            differing.append((position_id(pos), dice, sorted(ours ^ theirs)))
    assert differing == []


def random_match_states(n: int, seed: int) -> list[MatchState]:
    rng = random.Random(seed)
    states = []
    for _ in range(n):
        length = rng.choice([0, 1, 3, 5, 7, 9, 11, 15, 25])
        score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
        cube = 1 << rng.randrange(7)
        owner = None if cube == 1 else rng.choice([WHITE, BLACK])
        crawford = length > 1 and length - 1 in score and rng.random() < 0.5
        if crawford:
            cube, owner = 1, None
        turn = rng.choice([WHITE, BLACK])
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        jacoby = not length and rng.random() < 0.5
        states.append(MatchState(cube=cube, cube_owner=owner, dice_owner=turn, turn=turn,
                                 crawford=crawford, dice=dice, length=length, score=score,
                                 jacoby=jacoby))
    return states


def gnubg_commands(m: MatchState) -> list[str]:
    start = f"new match {m.length}" if m.length else "new session"
    owner = "centre" if m.cube_owner is None else str(int(m.cube_owner))
    jacoby = f"set jacoby {'on' if m.jacoby else 'off'}"
    cmds = [jacoby, start, f"set score {m.score[0]} {m.score[1]}"]
    if m.length > 1 and m.length - 1 in m.score:
        cmds.append(f"set crawford {'on' if m.crawford else 'off'}")
    return cmds + [f"set cube value {m.cube}", f"set cube owner {owner}",
                   f"set turn {int(m.turn)}", f"set dice {m.dice[0]} {m.dice[1]}", "show board"]


def test_match_ids_equal_gnubg_on_300_generated_match_states():
    need_gnubg()
    states = random_match_states(300, seed=11)
    outputs = run_blocks([gnubg_commands(m) for m in states])
    assert [match_id_of(out) for out in outputs] == [match_id(m) for m in states]


XGIDS = [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "4HPwATDgc/ABMA", "cIkKAAAAAAAA"),
    ("XGID=-b--BBC-C---cC---cBbc-b---:1:1:1:51:0:0:0:11:10", "zM3BATDYzsHBAA", "UYlmAQAAAAAE"),
    ("XGID=aFDaA--------------a-Acbb-:1:-1:1:42:3:0:0:7:10", "2xEAIPo9AQAEAA", "QQnqAAAAGAAE"),
]


def test_xgid_examples_of_formats_md():
    for text, pid, mid in XGIDS:
        pos, state = parse_xgid(text)
        assert (position_id(pos), match_id(state)) == (pid, mid)
        assert xgid(pos, state) == text


def test_xgids_of_self_play_positions_equal_gnubg():
    need_gnubg()
    rng = random.Random(5)
    cases = []
    for (pos, dice), m in zip(self_play_positions(400, seed=3)[::2],
                              random_match_states(200, seed=4), strict=True):
        if pos.winner() is not None:
            continue
        turn = rng.choice([WHITE, BLACK])
        pos = Position(pos.points, pos.bar_white, pos.bar_black, turn, m.cube, m.cube_owner)
        state = MatchState(cube=m.cube, cube_owner=m.cube_owner, dice_owner=turn, turn=turn,
                           crawford=m.crawford, dice=dice, length=m.length, score=m.score)
        cases.append((xgid(pos, state), pos, state))
    outputs = run_blocks([["new game", f"set xgid {text}", "show board"] for text, _, _ in cases])
    for (text, pos, state), out in zip(cases, outputs, strict=True):
        seen_by_gnubg = swap_players(state) if pos.turn is WHITE else state
        assert (position_id_of(out), match_id_of(out)) == (
            position_id(pos), match_id(seen_by_gnubg)), text
        assert parse_xgid(text) == (pos, state)


def swap_players(m: MatchState) -> MatchState:
    """gnubg swaps the players when an XGID puts the top player on roll (FORMATS.md 3.2)."""
    owner = None if m.cube_owner is None else m.cube_owner.other
    return replace(m, cube_owner=owner, dice_owner=m.dice_owner.other, turn=m.turn.other,
                   score=m.score[::-1])
