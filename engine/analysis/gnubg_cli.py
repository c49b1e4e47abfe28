"""The `gnubg` adapter: one long-lived GNU Backgammon process (Debian package `gnubg`, any
CPU) driven through its text interface.

gnubg only flushes its output to a terminal, so it runs on a pseudo-terminal. Each request is
a block of commands ended by `set player 0 name M<n>`; its answer is everything gnubg prints
up to "Player 0 is now known as `M<n>'". Positions go in with `set gnubgid` (money session,
5 output digits); plays are ranked with gnubg's own `hint` (cubeless, its move filters).
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import termios
import threading
import time

from ..board import Position
from ..ids import MatchState, match_id, position_id
from ..moves import legal_plays
from .base import Analyzer, Probabilities, RankedPlay
from .cube import CubeAdvice, decide

SETUP = ["set player 0 human", "set player 1 human", "set confirm new off", "set display off",
         "set output digits 5", "set evaluation chequerplay evaluation cubeful off",
         "new game"]
_PLAY = re.compile(r"^\s*\d+\.\s+Cubeless (\d)-ply\s+(.+?)\s+Eq\.:\s*([+-]?\d+\.\d+)")
_NUMBER = r"(-?[\d.]+)"
_PROBS = re.compile(rf"^\s*{_NUMBER} {_NUMBER} {_NUMBER} - {_NUMBER} {_NUMBER} {_NUMBER}\s*$")
_CUBE = re.compile(r"^\d\. (No double|No redouble|Double, pass|Redouble, pass|Double, take|"
                   r"Redouble, take)\s+([+-]?\d+\.\d+)")


def find_gnubg() -> str | None:
    """The gnubg program, if installed (Debian puts it in /usr/games)."""
    return shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


class GnubgCLI(Analyzer):
    """GNU Backgammon 1.07 as a subprocess: 0 to 4 plies. Thread-safe; close() ends it."""

    name = "gnubg"
    max_ply = 4

    def __init__(self, program: str | None = None, timeout: float = 120.0) -> None:
        self.program = program or find_gnubg()
        if self.program is None:
            raise OSError("GNU Backgammon is not installed (apt-get install gnubg)")
        self.timeout = timeout
        self._lock = threading.Lock()
        self._count = 0
        self._proc: subprocess.Popen | None = None
        self._master = -1
        with self._lock:
            self._start()

    def _start(self) -> None:
        """Launch gnubg on a new pseudo-terminal (no echo) and set it up."""
        self._buffer = b""
        self._plies: dict[str, int] = {}
        self._master, slave = os.openpty()
        attrs = termios.tcgetattr(slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        try:
            self._proc = subprocess.Popen([self.program, "-t", "-q", "-r"],
                                          stdin=subprocess.PIPE, stdout=slave, stderr=slave,
                                          close_fds=True)
        except OSError:
            os.close(self._master)
            self._master = -1
            raise
        finally:
            os.close(slave)
        self._exchange(SETUP)

    # --- the text protocol --------------------------------------------------------------
    def ask(self, commands: list[str]) -> str:
        """Send commands; return all gnubg printed for them. A gnubg that has died is started
        again; one that fails to answer is stopped (and restarted by the next question)."""
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._stop()
                self._start()
            try:
                return self._exchange(commands)
            except OSError:
                self._stop()
                raise

    def _exchange(self, commands: list[str]) -> str:
        self._count += 1
        mark = f"M{self._count}"
        self._proc.stdin.write(("\n".join([*commands, f"set player 0 name {mark}"])
                                + "\n").encode())
        self._proc.stdin.flush()
        return self._read_until(f"`{mark}'".encode()).decode(errors="replace")

    def _read_until(self, mark: bytes) -> bytes:
        deadline = time.monotonic() + self.timeout
        while mark not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._master], [], [], max(left, 0))
            if not ready:
                raise OSError(f"gnubg did not answer within {self.timeout:g} s")
            try:
                chunk = os.read(self._master, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                raise OSError("gnubg closed its output")
            self._buffer += chunk
        head, _, self._buffer = self._buffer.partition(mark)
        return head

    def _set_ply(self, kind: str, ply: int) -> list[str]:
        if self._plies.get(kind) == ply:
            return []
        self._plies[kind] = ply
        return [f"set evaluation {kind} evaluation plies {ply}"]

    # --- the analyzer ---------------------------------------------------------------------
    def rank(self, pos: Position, dice: tuple[int, int], ply: int = 0) -> list[RankedPlay]:
        self.check_ply(ply)
        plays = {p.move: p for p in legal_plays(pos, dice)}
        if not plays:
            return []
        out = self.ask([*self._set_ply("chequerplay", ply),
                        f"set gnubgid {_gnubg_id(pos, dice)}", "hint 9999"])
        lines = out.splitlines()
        ranked = []
        for i, line in enumerate(lines):
            found = _PLAY.match(line)
            if not found:
                continue
            depth, move, equity = found.groups()
            if move not in plays:
                raise OSError(f"gnubg suggested {move!r}, which is not a legal play here")
            ranked.append(RankedPlay(plays[move], float(equity), _probs(lines[i + 1]),
                                     int(depth)))
        if len(ranked) != len(plays):
            raise OSError(f"gnubg listed {len(ranked)} of the {len(plays)} legal plays")
        return sorted(ranked, key=lambda r: -r.equity)

    def evaluate(self, pos: Position, ply: int = 0) -> Probabilities:
        return self.cube(pos.with_cube(pos.cube, None), ply).probabilities

    def cube(self, pos: Position, ply: int = 0) -> CubeAdvice:
        self.check_ply(ply)
        if pos.cube_owner is not None and pos.cube_owner is not pos.turn:
            raise ValueError(f"{pos.turn.key} cannot double: the cube belongs to "
                             f"{pos.cube_owner.key}")
        out = self.ask([*self._set_ply("cubedecision", ply),
                        f"set gnubgid {_gnubg_id(pos, (0, 0))}", "hint"])
        lines = out.splitlines()
        start = next((i for i, line in enumerate(lines) if "cubeless equity" in line), None)
        if start is None:
            raise OSError("gnubg gave no cube analysis: " + " / ".join(lines[-3:]))
        equities = {}
        for line in lines[start:]:
            found = _CUBE.match(line.strip())
            if found:
                label = found[1].lower().replace("redouble", "double")
                equities[label] = float(found[2])
        nd, dt, dp = equities["no double"], equities["double, take"], equities["double, pass"]
        return CubeAdvice(decide(nd, dt, dp), nd, dt, dp, _probs(lines[start + 1]), ply)

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _stop(self) -> None:
        """End the gnubg process (EOF on its input, then kill if it lingers)."""
        if self._proc is not None and self._proc.poll() is None:
            try:
                self._proc.stdin.close()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        if self._master >= 0:
            os.close(self._master)
            self._master = -1


def _gnubg_id(pos: Position, dice: tuple[int, int]) -> str:
    """`POSITIONID:MATCHID` of a money position with `pos.turn` on roll and `dice` (0 0 =
    before rolling)."""
    state = MatchState(cube=pos.cube, cube_owner=pos.cube_owner, dice_owner=pos.turn,
                       turn=pos.turn, dice=dice)
    return f"{position_id(pos)}:{match_id(state)}"


def _probs(line: str) -> Probabilities:
    found = _PROBS.match(line)
    if not found:
        raise OSError(f"unexpected gnubg output {line.strip()!r}")
    win, wg, wbg, _, lg, lbg = (abs(float(x)) for x in found.groups())
    return Probabilities(win, wg, wbg, lg, lbg)
