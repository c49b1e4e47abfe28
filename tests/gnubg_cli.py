"""Run the real GNU Backgammon program (Debian package `gnubg`) on a batch of commands."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import pytest

GNUBG = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")
SETUP = ["set player 0 human", "set player 1 human", "set confirm new off", "set display off",
         "set evaluation chequerplay evaluation plies 0"]


def need_gnubg() -> str:
    if GNUBG is None:
        pytest.skip("GNU Backgammon is not installed (apt-get install gnubg)")
    return GNUBG


def run_blocks(blocks: list[list[str]]) -> list[str]:
    """Run each block of commands in one gnubg process; return each block's output."""
    lines = list(SETUP)
    for i, block in enumerate(blocks):
        lines += block + [f"set player 0 name MARK{i}"]
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as script:
        script.write("\n".join(lines) + "\n")
        script.flush()
        out = subprocess.run([need_gnubg(), "-t", "-q", "-r", "-c", script.name],
                             capture_output=True, text=True, timeout=600).stdout
    parts = []
    for i in range(len(blocks)):
        head, _, out = out.partition(f"Player 0 is now known as `MARK{i}'")
        parts.append(head)
    return parts


def match_id_of(output: str) -> str:
    """The last Match ID gnubg printed in `output`."""
    return [line.split(":")[1].strip() for line in output.splitlines()
            if line.strip().startswith("Match ID")][-1]


def position_id_of(output: str) -> str:
    return [line.split("Position ID:")[1].strip() for line in output.splitlines()
            if "Position ID:" in line][-1]


IMPORT_SCRIPT = """
import gnubg, json, os
out = []
for path in json.load(open(os.environ["BGBOARD_PATHS"])):
    gnubg.command(("load match " if path.endswith(".sgf") else "import mat ") + path)
    out.append(gnubg.match(analysis=0, boards=1))
json.dump(out, open(os.environ["BGBOARD_RESULT"], "w"), default=str)
"""


def gnubg_import(paths: list[str], tmp_dir) -> list[dict]:
    """Import each .mat (import mat) or .sgf (load match) into the real gnubg and return
    gnubg's own account of each match: gnubg.match(boards=1), one dict per file."""
    import json
    from pathlib import Path

    tmp_dir = Path(tmp_dir)
    (tmp_dir / "import.py").write_text(IMPORT_SCRIPT)
    (tmp_dir / "paths.json").write_text(json.dumps([str(p) for p in paths]))
    result = tmp_dir / "result.json"
    env = {**os.environ, "BGBOARD_PATHS": str(tmp_dir / "paths.json"),
           "BGBOARD_RESULT": str(result)}
    subprocess.run([need_gnubg(), "-t", "-q", "-r", "-p", str(tmp_dir / "import.py")],
                   capture_output=True, text=True, timeout=600, check=True, env=env)
    return json.loads(result.read_text())


def expected_gnubg_actions(match) -> list[list[dict]]:
    """Our match as gnubg.match() lists it: per game, each action with the Position ID of the
    board before it, the player (X = player 0 = White) and, for moves, dice and steps."""
    from bgboard.engine.board import WHITE
    from bgboard.engine.ids import position_id

    games = []
    for game in match.games:
        actions = []
        states = game._states
        for before, after in zip(states, states[1:], strict=False):
            if len(after.record) == len(before.record):
                continue
            action = after.record[-1]
            entry = {"action": action.kind, "player": "X" if action.color is WHITE else "O"}
            if action.kind in ("move", "double"):
                entry["board"] = position_id(before.position)
            if action.kind == "move":
                entry["dice"] = list(action.dice)
                steps = action.play.steps if action.play else ()
                entry["move"] = sorted([[s.start, s.end] for s in steps], reverse=True)
            actions.append(entry)
        games.append(actions)
    return games


def gnubg_actions(imported: dict) -> list[list[dict]]:
    """gnubg's actions in the same shape as expected_gnubg_actions."""
    games = []
    for game in imported["games"]:
        actions = []
        for a in game["game"]:
            entry = {"action": a["action"], "player": a["player"]}
            if a["action"] in ("move", "double"):
                entry["board"] = a["board"]
            if a["action"] == "move":
                entry["dice"] = list(a["dice"])
                entry["move"] = sorted([list(m) for m in a.get("move", [])], reverse=True)
            actions.append(entry)
        games.append(actions)
    return games
