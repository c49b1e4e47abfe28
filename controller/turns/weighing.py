"""The candidates of a turn weighed against what the camera saw (evidence.py does the sums).

At the end of a turn the rules allow few boards: each legal play of the roll, each partial
play, the start. `Scales` keeps the evidence of one session (the frames since the last hand,
the mover's dice seen this turn, the board's quirks) and weighs those boards: the best is
decided when it beats the runner-up by the ratio asked for, is also the best on the latest
frames, and leaves few places unexplained.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...engine.board import Position
from ...engine.moves import Play, position_from_mover
from . import evidence
from .reconciler import ROLLS, TurnJudge, board_of

RATIO = 20.0          # likelihood ratio of the best reading over the runner-up to record it
UNFINISHED = 0.02     # prior odds of a partial play or no move when the dice are picked up
SEGMENT = 10          # frames since the last hand that are weighed (the latest ones)
LATEST = 3            # the best must also be best on this many latest frames
MIN_FRAMES = 3        # frames since the last hand needed before weighing
UNEXPLAINED = 0.1     # a place read as its candidate gives with less than this is unexplained
MAX_UNEXPLAINED = 2   # more unexplained places than this: the board does not support it


@dataclass(frozen=True)
class Candidate:
    """A board the rules allow at the end of a turn: kind complete (a legal play of `roll`,
    or no move when the roll has none), partial or start; `prior` is its log prior."""

    kind: str
    roll: tuple[int, int]
    play: Play | None
    board: evidence.Board
    prior: float = 0.0

    @property
    def reading(self) -> str:
        """The candidate in words, for the unsure event and the web view."""
        if self.kind == "complete":
            return f"{self.roll[0]}{self.roll[1]}: {self.play.move if self.play else '(no move)'}"
        return "part of a play" if self.kind == "partial" else "no move yet"


@dataclass(frozen=True)
class Weighing:
    """The outcome of weighing the candidates: the best, the runner-up, their log ratio, the
    points in doubt, and whether the best may be recorded."""

    best: Candidate
    runner_up: Candidate | None
    log_ratio: float
    doubt: tuple
    decided: bool

    def close(self, ratio: float) -> bool:
        """Whether a complete play and another reading are too close to record either."""
        return self.runner_up is not None and \
            "complete" in (self.best.kind, self.runner_up.kind) and \
            self.log_ratio < math.log(ratio)


class Scales:
    """The evidence of one session and the candidates of the turn being weighed."""

    def __init__(self) -> None:
        self.quirks = evidence.Quirks()  # this board's misreads (a new calibration: a new session)
        self.segment: list[dict] = []  # hand-free frames since the last hand (latest SEGMENT)
        self.dice_seen: list[tuple[int, ...]] = []  # the mover's dice, frame by frame
        self.touched = False  # a hand was over the board since the last turn was recorded
        self._candidates: dict[tuple[int, int], tuple[list[Candidate], np.ndarray]] = {}

    @property
    def ready(self) -> bool:
        """Enough frames since the last hand to weigh."""
        return len(self.segment) >= MIN_FRAMES

    def frame(self, obs: dict) -> None:
        """A frame: a hand starts a new segment, any other frame joins it."""
        self.segment = [] if obs.get("hand") else [*self.segment[1 - SEGMENT:], obs]
        self.touched |= bool(obs.get("hand"))

    def new_turn(self) -> None:
        """A new roll to weigh (or the same again after a take-back)."""
        self._candidates = {}

    def committed(self, board: evidence.Board) -> None:
        """A turn was recorded with `board`: learn the quirks it shows; forget its dice."""
        if self.ready:
            self.quirks.learn(board, self.segment)
        self.dice_seen = []
        self.touched = False
        self._candidates = {}

    def likely_roll(self) -> tuple[int, int] | None:
        """The roll the dice seen this turn make most likely, if any were seen."""
        if not self.dice_seen:
            return None
        return max(ROLLS, key=lambda roll: evidence.dice_score(roll, self.dice_seen))

    def likeliest(self, n: int, but: evidence.Board | None = None) -> list[Candidate]:
        """The `n` complete plays weighed last, of every roll weighed this turn, whose boards
        the frames since the last hand and the dice seen fit best, best first: one per board
        (the roll the dice seen make likeliest), `but` that board left out."""
        weighed = list(self._candidates.values())
        if not weighed:
            return []
        candidates = [c for group, _ in weighed for c in group]
        fits = evidence.frame_scores(np.concatenate([b for _, b in weighed]), self.segment,
                                     self.quirks)
        fits += [evidence.dice_score(c.roll, self.dice_seen) for c in candidates]
        out: dict[evidence.Board, Candidate] = {}
        for i in np.argsort(-fits, kind="stable"):
            c = candidates[i]
            if c.play is not None and c.board != but:
                out.setdefault(c.board, c)
        return list(out.values())[:n]

    def fit(self, board: evidence.Board) -> float:
        """Log-likelihood of the frames since the last hand under `board`."""
        return float(evidence.frame_scores(evidence.board_places(board)[None], self.segment,
                                           self.quirks)[0])

    def explains(self, board: evidence.Board, most: int = MAX_UNEXPLAINED) -> bool:
        """Whether the frames since the last hand leave at most `most` places unexplained by
        `board` (a board no candidate explains is misread, or not this game)."""
        return evidence.unexplained(evidence.board_places(board), self.segment, self.quirks,
                                    UNEXPLAINED) <= most

    def weigh(self, start: Position, judge: TurnJudge | None, rolls: list[tuple[int, int]],
              ratio: float, roll_odds: bool = False) -> Weighing:
        """Score every candidate of `rolls` from `start` (`judge`: the turn's own, whose
        partial plays count too) on the segment and the dice seen; `roll_odds`: each roll's
        chance of being thrown counts too (the dice were not read)."""
        found = [self._candidates_for(start, judge, roll) for roll in rolls]
        candidates = [c for group, _ in found for c in group]
        boards = np.concatenate([b for _, b in found])
        priors = np.array([c.prior + evidence.dice_score(c.roll, self.dice_seen) +
                           (math.log((1 if c.roll[0] == c.roll[1] else 2) / 36)
                            if roll_odds else 0.0) for c in candidates])
        scores = evidence.frame_scores(boards, self.segment, self.quirks) + priors
        ranking = evidence.rank(scores, boards)
        latest = evidence.frame_scores(boards, self.segment[-LATEST:], self.quirks) + priors
        best = candidates[ranking.best]
        decided = (best.kind == "complete" and ranking.log_ratio >= math.log(ratio)
                   and int(np.argmax(latest)) == ranking.best
                   and evidence.unexplained(boards[ranking.best], self.segment, self.quirks,
                                            UNEXPLAINED) <= MAX_UNEXPLAINED)
        runner_up = None if ranking.runner_up is None else candidates[ranking.runner_up]
        return Weighing(best, runner_up, ranking.log_ratio, ranking.doubt, decided)

    def _candidates_for(self, start: Position, judge: TurnJudge | None,
                        roll: tuple[int, int]) -> tuple[list[Candidate], np.ndarray]:
        """Every board the rules allow with `roll` at the end of the turn, and their places."""
        if roll not in self._candidates:
            own = judge is not None and roll == judge.dice
            judge = judge if own else TurnJudge(start, roll)
            unfinished = math.log(UNFINISHED) if judge.plays else 0.0
            kind = "start" if judge.plays else "complete"
            candidates = [Candidate(kind, roll, None, board_of(start), unfinished)]
            candidates += [Candidate("complete", roll, play, board_of(play.position))
                           for play in judge.plays]
            if own:
                candidates += [Candidate("partial", roll, None,
                                         board_of(position_from_mover(b, start)), unfinished)
                               for b in sorted(judge.partial)]
            boards = np.stack([evidence.board_places(c.board) for c in candidates])
            self._candidates[roll] = (candidates, boards)
        return self._candidates[roll]
