"""Money cube decisions from cubeless chances: Janowski's cubeful equities, as gnubg does at
0-ply (live-cube equity weighted by a cube efficiency, the rest dead cube).

Equities are per unit of the current cube, from the view of the side that may double.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import Position
from ..moves import mover_board

if TYPE_CHECKING:
    from .base import Probabilities

CONTACT_EFFICIENCY = 0.68
"""gnubg's cube efficiency in contact positions; races use 0.55 + 0.00125 * pips in 0.6-0.7."""


@dataclass(frozen=True, slots=True)
class CubeAdvice:
    """A cube decision: `action` is "no double", "too good" (to double: play on for the
    gammon), "double, take" or "double, pass"; `take` is the right answer to a double.
    Equities are cubeful, for the side on roll, per unit of the current cube."""

    action: str
    no_double: float
    double_take: float
    double_pass: float
    probabilities: Probabilities
    ply: int

    @property
    def take(self) -> bool:
        return self.double_take < self.double_pass

    @property
    def should_double(self) -> bool:
        return self.action.startswith("double")


def decide(no_double: float, double_take: float, double_pass: float) -> str:
    """The proper action given the three cubeful equities (gnubg's rules)."""
    if double_take >= double_pass:
        return "too good" if no_double >= double_pass else "double, pass"
    return "double, take" if double_take > no_double else "no double"


def cube_advice(probs: Probabilities, pos: Position, ply: int) -> CubeAdvice:
    """Janowski cube advice for the side on roll in `pos`, which must be allowed to double."""
    if pos.cube_owner is not None and pos.cube_owner is not pos.turn:
        raise ValueError(f"{pos.turn.key} cannot double: the cube belongs to "
                         f"{pos.cube_owner.key}")
    x = efficiency(pos)
    owner = "centre" if pos.cube_owner is None else "me"
    no_double = cubeful(probs, owner, x)
    double_take = 2 * cubeful(probs, "opponent", x)
    return CubeAdvice(decide(no_double, double_take, 1.0), no_double, double_take, 1.0,
                      probs, ply)


def efficiency(pos: Position) -> float:
    """How much of the live-cube value a side keeps: gnubg's figures for contact and race."""
    if not is_race(pos):
        return CONTACT_EFFICIENCY
    return min(max(0.55 + 0.00125 * pos.pips(pos.turn), 0.6), 0.7)


def is_race(pos: Position) -> bool:
    """No contact: every checker of the side on roll is past every checker of the other."""
    b = mover_board(pos)
    if b[25] or b[26]:
        return False
    mine = max((p for p in range(1, 25) if b[p] > 0), default=0)
    theirs = min((p for p in range(1, 25) if b[p] < 0), default=25)
    return mine < theirs


def cubeful(probs: Probabilities, owner: str, x: float) -> float:
    """Janowski's money equity with the cube at `owner` ("me", "centre", "opponent")."""
    p = min(max(probs.win, 1e-9), 1 - 1e-9)
    w = 1 + (probs.win_gammon + probs.win_backgammon) / p
    lose = 1 + (probs.lose_gammon + probs.lose_backgammon) / (1 - p)
    take_point = (lose - 0.5) / (w + lose + 0.5)
    cash_point = (lose + 1) / (w + lose + 0.5)
    if p >= cash_point and owner != "opponent":
        live = 1 + (w - 1) * (p - cash_point) / (1 - cash_point)
    elif p < take_point and owner != "me":
        live = -lose + (lose - 1) * p / take_point
    elif owner == "me":
        live = -lose + (1 + lose) * p / cash_point
    elif owner == "opponent":
        live = -1 + (w + 1) * (p - take_point) / (1 - take_point)
    else:
        live = -1 + 2 * (p - take_point) / (cash_point - take_point)
    return x * live + (1 - x) * probs.equity
