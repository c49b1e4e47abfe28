"""The analyzer interface shared by every engine adapter, and its value types.

Equities are money equities per unit of the current cube, from the view of the side to
play: checker plays are ranked by cubeless equity at the ply asked (as gnubg's "cubeless"
hint), cube decisions by cubeful equity. The same scale for every adapter, so losses compare.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from ..board import Position
from ..moves import Play, legal_plays
from .cube import CubeAdvice, cube_advice


@dataclass(frozen=True, slots=True)
class Probabilities:
    """Cubeless chances of one side: win (all wins), gammon and backgammon wins, gammon and
    backgammon losses (the gammons include the backgammons, as in gnubg)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def equity(self) -> float:
        """Cubeless money equity: +1 a single win, +2 a gammon, +3 a backgammon."""
        return (2 * self.win - 1 + self.win_gammon - self.lose_gammon
                + self.win_backgammon - self.lose_backgammon)

    def flipped(self) -> Probabilities:
        """The same chances seen from the other side."""
        return Probabilities(1 - self.win, self.lose_gammon, self.lose_backgammon,
                             self.win_gammon, self.win_backgammon)

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        return (self.win, self.win_gammon, self.win_backgammon, self.lose_gammon,
                self.lose_backgammon)


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A legal play with its cubeless equity for the mover and the ply it was evaluated at
    (plays an engine's move filter dropped keep a lower ply, as in gnubg's hint)."""

    play: Play
    equity: float
    probabilities: Probabilities
    ply: int

    @property
    def move(self) -> str:
        return self.play.move


class Analyzer(ABC):
    """An engine that judges positions. Subclasses set `name`, `max_ply` and `weak`."""

    name = ""
    max_ply = 0
    weak = False

    @property
    def label(self) -> str:
        """What to print: the name, marked when the judgement is only a rough guide."""
        return f"{self.name} (weak: a rough guide only)" if self.weak else self.name

    def check_ply(self, ply: int) -> int:
        if not 0 <= ply <= self.max_ply:
            raise ValueError(f"--ply {ply}: the {self.name} engine evaluates 0 to "
                             f"{self.max_ply} plies")
        return ply

    @abstractmethod
    def evaluate(self, pos: Position, ply: int = 0) -> Probabilities:
        """Chances of the side on roll in `pos`, before it rolls."""

    def rank(self, pos: Position, dice: tuple[int, int], ply: int = 0) -> list[RankedPlay]:
        """Every legal play with its equity, best first (empty when the roll cannot be played).
        The default evaluates each resulting position at `ply`."""
        self.check_ply(ply)
        ranked = [self.judge(play, ply) for play in legal_plays(pos, dice)]
        return sorted(ranked, key=lambda r: -r.equity)

    def judge(self, play: Play, ply: int = 0) -> RankedPlay:
        """One play's equity for the mover at `ply`."""
        probs = self.evaluate(play.position, ply).flipped()
        return RankedPlay(play, probs.equity, probs, ply)

    def cube(self, pos: Position, ply: int = 0) -> CubeAdvice:
        """Should the side on roll double, and should the other side take? Money play."""
        self.check_ply(ply)
        return cube_advice(self.evaluate(pos, ply), pos, ply)

    def close(self) -> None:
        """Release the engine (a subprocess, say). Idempotent."""
        return None

    def __enter__(self) -> Analyzer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
