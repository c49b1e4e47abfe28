"""The `gnubg-nn` adapter: GNU Backgammon's neural nets in-process (pip gnubg-nn, x86_64).

Ranking at 1 or 2 plies follows gnubg's move filter: every play is evaluated at 0-ply, the
candidates the filter keeps at the ply asked (their `ply` says which).
"""

from __future__ import annotations

import threading

from ..board import Position
from ..moves import Play, legal_plays
from .base import Analyzer, Probabilities, RankedPlay

_LOCK = threading.Lock()
"""gnubg_nn keeps global state (its caches): one call at a time in a process."""


class GnubgNN(Analyzer):
    """gnubg's nets through the gnubg_nn module: 0, 1 or 2 plies."""

    name = "gnubg-nn"
    max_ply = 2

    def __init__(self) -> None:
        import gnubg_nn

        self._g = gnubg_nn

    def evaluate(self, pos: Position, ply: int = 0) -> Probabilities:
        self.check_ply(ply)
        with _LOCK:
            return Probabilities(*self._g.probabilities(pos.to_gnubg(), ply))

    def rank(self, pos: Position, dice: tuple[int, int], ply: int = 0) -> list[RankedPlay]:
        self.check_ply(ply)
        plays = {self._key(p): p for p in legal_plays(pos, dice)}
        if not plays:
            return []
        board = pos.to_gnubg()
        ranked: dict[str, RankedPlay] = {}
        for depth in sorted({0, ply}):
            with _LOCK:
                _, listed = self._g.best_move(board, *dice, n=depth, list=1)
            for key, _, probs, equity in listed:
                mover = Probabilities(*probs).flipped()
                ranked[key] = RankedPlay(plays[key], equity, mover, depth)
        return sorted(ranked.values(), key=lambda r: -r.equity)

    def _key(self, play: Play) -> str:
        """gnubg-nn's key of the position after `play`, the next roller second."""
        return self._g.key_of_board(play.position.to_gnubg())
