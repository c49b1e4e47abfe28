"""Run the real GNU Backgammon program (Debian package `gnubg`) on a batch of commands."""

from __future__ import annotations

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
