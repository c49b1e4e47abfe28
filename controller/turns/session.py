"""A match played on a physical board: stable board views and buttons in, events out.

Turn flow (tournament convention): the roller's dice settle flat on the roller's right half
-> the player moves checkers -> the player picks up the dice, which ends the turn. Nothing is
recorded that no legal play reaches; a committed turn is journalled before it is announced.
When the dice were not read (or misread) but the turn is over and exactly one roll's legal
play reaches the board, that roll is recorded (`infer_dice`), as a person keeping score would.

When the turn is over, every candidate the rules allow (each legal play of the roll and of the
roll the dice seen over the turn make most likely, each partial play, the start) is scored by
how well it explains the frames since the last hand (weighing.py). The best is recorded once
it beats the runner-up by `Settings.ratio` in likelihood, on all those frames and on the
latest ones alone; when it does not, the session says "unsure" with the points in doubt and
both readings, and waits: for more frames, a touched-up stack, or the confirm button.

An unsure turn never stops the game being followed. The frames after the pickup, the
opponent's dice lying included, weigh on; when the opponent has rolled and a hand reaches for
the board (the game moves on) or the recording ends, the likelier complete reading is
recorded and said ("settled", with both readings), and the next turn is followed as ever.

Where the turn stands is one TurnState (FOLLOWING, DECIDING, OPPONENT_ROLLED, STALE, and
RESUMED, RESUMED_STALE for a turn that looked over but goes on), moved only by the events in
STEPS. How the session follows a turn depends on how it is fed (Feed): stable views alone, or
every frame first.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum

from ...engine.board import START, WHITE, Color
from ...engine.game import Game, IllegalAction, Match
from . import evidence
from .events import EventBus
from .journal import Journal
from .reconciler import ROLLS, Reconciliation, TurnJudge, board_of, mismatch, rolls_reaching
from .stabilizer import StableView
from .weighing import RATIO, Candidate, Scales, Weighing

DOUBTS = 4  # the likeliest other boards of a turn in doubt the next turn is weighed from
CHECKED = 2  # a turn recorded less than ratio ** CHECKED likelier than the runner-up is in doubt


@dataclass(frozen=True)
class Settings:
    """How the session behaves. `white_right_high`: White's right half is field x > 0.5
    (from the calibration); `bar_width` as in the calibration file."""

    white_right_high: bool = True
    bar_width: float = 0.07
    takebacks: bool = True
    auto_commit: float | None = None  # seconds a complete play must stand to end the turn
    patience: float = 1.5  # seconds an illegal or mismatching board stands before we say so
    infer_dice: bool = True  # dice unread but only one roll explains the play: record it
    ratio: float = RATIO  # how much likelier the best reading must be than the runner-up


class TurnState(Enum):
    """Where the turn on the board stands in being decided. The game says whose turn it is and
    whether its dice are read; this says whether the turn is over and what the frames since
    are worth. `Session.turn_state` holds one; `Session._step` is its only writer, by STEPS.

    FOLLOWING: the turn is followed as it is played (its dice awaited, or its checkers
        moving); nothing waits to be decided.
    DECIDING: the turn is over (its dice picked up, the opponent's dice lie, a double, the
        recording ends) and the evidence has not decided it yet: every frame is weighed, the
        best reading recorded once it is decided (or the session says it is unsure).
    OPPONENT_ROLLED: deciding, and the opponent's dice have been seen lying since: a hand
        over the board now means the game moves on, and the turn is settled on its likelier
        complete reading.
    STALE: deciding, but a hand has been over the board since the opponent rolled: the
        frames may show the next turn, so none is weighed any more and no die counted; only
        confirm (or the recording's end) decides.
    RESUMED: an OPPONENT_ROLLED turn followed again (its mover's dice lie again: it was not
        over). The opponent's roll is remembered: a hand makes it RESUMED_STALE, and once
        over again it is OPPONENT_ROLLED.
    RESUMED_STALE: a STALE turn followed again (its mover's dice lie again, or the board
        shows where a turn whose dice were not read began: nothing was moved). Its frames
        are still not weighed, no die counted, until a new turn starts; once over again it
        is STALE.
    """

    FOLLOWING = "following"
    DECIDING = "deciding"
    OPPONENT_ROLLED = "opponent rolled"
    STALE = "stale"
    RESUMED = "resumed"
    RESUMED_STALE = "resumed stale"

    @property
    def over(self) -> bool:
        """The turn is over and waits to be decided."""
        return self in (TurnState.DECIDING, TurnState.OPPONENT_ROLLED, TurnState.STALE)

    @property
    def stale(self) -> bool:
        """A hand has been over the board since the opponent rolled: no frame is weighed."""
        return self in (TurnState.STALE, TurnState.RESUMED_STALE)


_T = TurnState
STEPS: dict[str, dict[TurnState, TurnState]] = {
    # the turn is over: its dice picked up, the opponent's dice lie, a double (`_decide`); or
    # the opponent rolled on a turn whose dice were not read (`_read_by_weighing`)
    "over": {_T.FOLLOWING: _T.DECIDING, _T.RESUMED: _T.OPPONENT_ROLLED,
             _T.RESUMED_STALE: _T.STALE},
    # two dice on the opponent's half while the turn is being decided
    "opponent_rolled": {_T.DECIDING: _T.OPPONENT_ROLLED},
    # a hand over the board
    "hand": {_T.OPPONENT_ROLLED: _T.STALE, _T.RESUMED: _T.RESUMED_STALE},
    # the mover's dice lie again: the turn was not over
    "dice_back": {_T.DECIDING: _T.FOLLOWING, _T.OPPONENT_ROLLED: _T.RESUMED,
                  _T.STALE: _T.RESUMED_STALE},
    # no dice read, and the board shows where the turn began: nothing was moved
    "unmoved": {_T.DECIDING: _T.FOLLOWING, _T.OPPONENT_ROLLED: _T.FOLLOWING,
                _T.RESUMED: _T.FOLLOWING, _T.STALE: _T.RESUMED_STALE},
    # the recording ends: the turn is over, and the last frames are weighed
    "ends": {_T.FOLLOWING: _T.DECIDING, _T.RESUMED: _T.OPPONENT_ROLLED,
             _T.STALE: _T.OPPONENT_ROLLED, _T.RESUMED_STALE: _T.OPPONENT_ROLLED},
    # a new turn (dice read, a turn recorded or taken back): nothing weighed yet
    "new_turn": dict.fromkeys(TurnState, _T.FOLLOWING),
}
"""event -> {state: next state}; a state an event does not name stays as it is."""


class Feed(Enum):
    """How the session is fed, which chooses how it follows a turn (`Session._feed`).

    VIEWS: stable views only (`view`); each view stands for the frames it was voted from.
        When the opponent's dice lie and the turn is not decided, the last complete play seen
        ends it; a turn whose dice were not read is read from the play (the one roll whose
        legal play reaches the board, or of several the one most like the dice seen).
    FRAMES: every frame first (`observe`, as the per-frame loop feeds it): the candidates are
        weighed on the frames since the last hand, and a turn whose dice were not read is
        weighed over every roll's plays.
    """

    VIEWS = "views"
    FRAMES = "frames"


def _dice_key(v: StableView) -> tuple:
    """The dice lying in a view: values, leaning and where, as the stabiliser votes them."""
    return tuple(sorted((d.value, d.cocked, d.x > 0.5) for d in v.dice))


def _frame_of(v: StableView) -> dict:
    """A stable view as one Observation."""
    return {"points": list(v.points), "bar": {"white": v.bar_white, "black": v.bar_black},
            "dice": [{"value": d.value, "field_xy": [d.x, d.y], "cocked": d.cocked}
                     for d in v.dice], "hand": False, "confidence": 1.0}


class Session:
    """Keeps a Match in step with the board. Feed it with `view(stable)` and `tick(t)` (and
    every frame with `observe(obs)` first: Feed); buttons with `press(name)`. Where the turn
    stands is one TurnState, changed only by `_step`."""

    def __init__(self, match: Match, bus: EventBus, journal: Journal | None = None,
                 settings: Settings = Settings()) -> None:
        self.match = match
        self.bus = bus
        self.journal = journal
        self.settings = settings
        self.judge: TurnJudge | None = None
        self.view_now: StableView | None = None
        self._problem: tuple | None = None  # (the Reconciliation, since t, announced)
        self._complete_since: float | None = None
        self._wait_clear: tuple = ()  # dice that must leave the board before dice count again
        self._last_judged: Reconciliation | None = None
        self._seen: tuple[int, ...] = ()  # the mover's dice last seen on their half, if any
        self.scales = Scales()  # the evidence; a new calibration starts a new session
        self._feed = Feed.VIEWS  # until the first frame is observed
        self._state = TurnState.FOLLOWING  # changed only by `_step`
        self._unsure: Weighing | None = None  # said to be unsure (only while the turn is
        # over): confirm records its best
        self._waiting: list[str] = []  # buttons pressed while the turn was being decided
        self._doubt: tuple[list[Candidate], object] | None = None  # the other likely plays
        # of the turn just settled, and its action: the next turn may show one was played
        if not match.games:
            match.new_game()

    @property
    def game(self) -> Game:
        return self.match.games[-1]

    @property
    def turn_state(self) -> TurnState:
        """Where the turn on the board stands in being decided."""
        return self._state

    def _step(self, event: str) -> None:
        """The one writer of the turn state: `event` moves it as STEPS says."""
        self._state = STEPS[event].get(self._state, self._state)

    # --- input -----------------------------------------------------------------------------
    def observe(self, obs: dict) -> None:
        """Every frame, before the stabiliser: the evidence the candidates are weighed on."""
        self._feed = Feed.FRAMES
        if obs.get("error"):
            return
        if obs.get("hand") and self._state is TurnState.OPPONENT_ROLLED:
            self._settle()  # the game moves on: the turn still in doubt is recorded now
        self.scales.frame(obs)
        if obs.get("hand"):
            self._step("hand")
            return
        game = self.game
        if not game.state.started or game.result is not None or self._state.stale:
            return
        dice = obs.get("dice", [])
        sides = {self._side(d["field_xy"][0]) for d in dice}
        if 0 < len(dice) <= 2 and sides == {game.turn}:  # a cocked die's value counts too
            self.scales.dice_seen.append(tuple(d["value"] for d in dice))
        if len(dice) == 2 and sides == {game.turn.other}:
            self._step("opponent_rolled")
        if self._state.over and (self._decide() if self.judge is not None else
                                 self._read_by_weighing()):
            self._go_on()

    def view(self, v: StableView) -> None:
        """A new stable board view."""
        self.view_now = v
        if self._feed is Feed.VIEWS:  # the view stands for the frames it was voted from
            self.scales.segment = [_frame_of(v)] * evidence.LOOK
        if self._wait_clear:
            if v.dice and _dice_key(v) == self._wait_clear:
                return  # the dice to roll again still lie there
            self._wait_clear = ()  # picked up, or other dice thrown (a die misread as cocked)
        game = self.game
        if game.result is not None:
            self._await_new_game(v)
        elif game.doubled_by is not None:
            return
        elif game.dice is None:
            self._await_roll(v)
        else:
            self._moving(v)

    def tick(self, t: float) -> None:
        """Time passes (call once per frame): patience and auto-commit run on this clock."""
        if self._problem and not self._problem[2] and t - self._problem[1] >= \
                self.settings.patience:
            judged = self._problem[0]
            self._problem = (judged, self._problem[1], True)
            if judged.kind == "illegal":
                self.bus.emit("illegal", f"illegal: {judged.reason}", reason=judged.reason,
                              points=list(judged.points))
            else:
                self.bus.emit("mismatch", judged.reason, points=list(judged.points),
                              corrections=[list(c) for c in judged.corrections])
        auto = self.settings.auto_commit
        if auto is not None and self._complete_since is not None and \
                t - self._complete_since >= auto and self.view_now is not None:
            judged = self.judge.judge(self.view_now.board)
            if judged.kind == "complete":
                self._commit(judged.play)

    def finish(self) -> None:
        """The recording ends: the turn on the board is over, its dice picked up or not (the
        game's last turn has no next roll to wait for), and is recorded as its likelier
        complete reading on the last frames, and said."""
        if self._state.over or self.judge is not None:
            over = self._state.over
            self._step("ends")
            self._settle(over)

    @property
    def unsure(self) -> bool:
        """Whether two readings of the turn stay close and the session waits for confirm."""
        return self._unsure is not None

    def press(self, name: str) -> None:
        """A button: double, take, pass, undo; confirm records the best reading when the
        session is unsure (menu is the app's). A double while the turn on the board is being
        decided waits for it, and so do take and pass after it."""
        game = self.game
        if name in ("double", "take", "pass") and \
                (self._waiting or (name == "double" and not self._finish_turn())):
            self._waiting.append(name)
            return
        try:
            if name == "double":
                game.double()
                self._log({"type": "double"})
                self.bus.emit("double", f"{game.doubled_by.key} doubles to {game.board.cube * 2}",
                              color=game.doubled_by.key, cube=game.board.cube * 2)
            elif name == "take":
                game.take()
                self._log({"type": "take"})
                self.bus.emit("take", f"{game.board.cube_owner.key} takes",
                              cube=game.board.cube, color=game.board.cube_owner.key)
            elif name == "pass":
                game.drop()
                self._log({"type": "drop"})
                self.bus.emit("drop", f"{game.result.winner.other.key} passes")
                self._game_over()
            elif name == "undo":
                self.take_back()
            elif name == "confirm" and self._unsure is not None:
                self._record(self._unsure.best)
                self._go_on()
        except IllegalAction as exc:
            self.bus.emit("illegal", f"{name}: {exc}", reason=str(exc), points=[])

    # --- phases ----------------------------------------------------------------------------
    def _await_new_game(self, v: StableView) -> None:
        if self.match.winner() is None and not v.dice and v.board == board_of(START):
            self.match.new_game()
            self._log({"type": "game"})
            number = len(self.match.games)
            self.bus.emit("new_game", f"game {number} starts", number=number,
                          score=list(self.match.score))

    def _await_roll(self, v: StableView) -> None:
        game = self.game
        if (self._read_from_play(v) and game.result) or self._unsure is not None:
            return  # the game is over, or the last turn waits for the players to decide
        expected = board_of(game.board)
        if self._state.over and v.board != expected:
            return  # a turn whose dice were not read: weighed frame by frame (`observe`)
        self._step("unmoved")  # nothing moved: these dice are a roll
        if v.dice and game.state.started and all(self._half_owner(d) is game.turn
                                                 for d in v.dice):
            self._seen = tuple(d.value for d in v.dice)
        if len(v.dice) != 2:
            if v.board == expected:
                self._problem = None
            elif not self._maybe_takeback(v):
                self._trouble(mismatch(expected, v.board), v.t)
            return
        if not game.state.started:
            self._opening(v)
        else:
            reason = self._bad_roll(v, game.turn)
            if reason:
                self._roll_again(reason)
                return
            values = sorted((d.value for d in v.dice), reverse=True)
            game.roll(*values)  # dice have no order: the larger first, as gnubg writes them
            self._dice_read()
        if game.dice is not None and v.board != expected:
            self._moving(v)

    def _opening(self, v: StableView) -> None:
        a, b = v.dice
        self._seen = (a.value, b.value)
        if any(d.cocked for d in v.dice):
            return self._roll_again("a die is cocked")
        owners = [self._half_owner(d) for d in v.dice]
        if None in owners or owners[0] == owners[1]:
            return self._roll_again("each player rolls one die on their own right half")
        white, black = (a.value, b.value) if owners[0] is WHITE else (b.value, a.value)
        if self.game.opening(white, black) is None:
            self.bus.emit("opening_tie", f"both rolled {white}: roll again", value=white)
            self._wait_clear = _dice_key(v)
            return None
        self._dice_read()
        return None

    def _roll_again(self, reason: str) -> None:
        self.bus.emit("roll_again", f"roll again: {reason}", reason=reason)
        self._wait_clear = _dice_key(self.view_now)

    def _dice_read(self) -> None:
        game = self.game
        self.judge = TurnJudge(game.board, game.dice)
        self._complete_since = None
        self._reset_weighing()
        self.bus.emit("dice", f"{game.turn.key} rolled {game.dice[0]}{game.dice[1]}",
                      color=game.turn.key, dice=list(game.dice))
        if not self.judge.plays:
            self.bus.emit("no_move", f"{game.turn.key} cannot move: pick up the dice")

    def _moving(self, v: StableView) -> None:
        judged = self.judge.judge(v.board)
        opponent = self.game.turn.other
        if len(v.dice) == 2 and all(self._half_owner(d) is opponent for d in v.dice):
            last = self._last_judged
            if self._decide():
                pass  # the opponent has rolled: this turn is over
            elif self._feed is Feed.VIEWS and last is not None and last.kind == "complete":
                self._commit(last.play)
            elif not self._read_from_play(v):
                if self._unsure is None:
                    self._trouble(judged, v.t)
                return
            if self.game.result is None:
                self._await_roll(v)
            return
        self._last_judged = judged
        if v.dice and all(self._half_owner(d) is self.game.turn for d in v.dice):
            self._step("dice_back")  # the mover's dice are back
            self._unsure = None
        elif (not v.dice and self._decide()) or self._unsure is not None:
            return  # the dice are picked up: recorded, or unsure and said so
        if judged.kind in ("illegal", "mismatch"):
            self._complete_since = None
            self._trouble(judged, v.t)
            return
        self._problem = None
        if judged.kind == "complete":
            if v.dice and self._complete_since is None:
                self._complete_since = v.t
                self.bus.emit("complete", judged.play.move, move=judged.play.move)
            return
        self._complete_since = None
        if judged.kind == "partial":
            self.bus.emit("in_progress", "moving")
        elif not v.dice:
            self._trouble(Reconciliation("illegal", reason="a move must be made"), v.t)

    # --- weighing the evidence ---------------------------------------------------------------
    def _decide(self) -> bool:
        """The turn is over: weigh the candidates and record the best when the evidence
        decides; otherwise keep weighing every frame, and say so when two readings stay
        close. True when the turn was recorded."""
        self._step("over")
        if not self.scales.ready or self._state is TurnState.STALE:
            return False
        weighing = self._weigh()
        if weighing.decided:
            close = weighing.log_ratio < CHECKED * math.log(self.settings.ratio)
            self._record(weighing.best, checked=close)
            return True
        if weighing.close(self.settings.ratio):
            self._say_unsure(weighing)
        return False

    def _weigh(self, rolls: list[tuple[int, int]] | None = None) -> Weighing:
        """Weigh the candidates of `rolls`: by default the roll read and the roll the dice
        seen over the turn make most likely (never another at the opening); otherwise every
        roll weighs its chance of being thrown too."""
        game = self.game
        roll_odds = rolls is not None
        if rolls is None:
            likely = None if self._opening_turn() else self.scales.likely_roll()
            rolls = [game.dice] + ([likely] if likely not in (None, game.dice) else [])
        return self.scales.weigh(game.board, self.judge, rolls, self.settings.ratio, roll_odds)

    def _settle(self, over: bool = True) -> None:
        """The turn over and still undecided when the game moves on: record the likelier
        complete reading on the frames weighed so far, and say so with the other reading.
        The reading must explain those frames (at most two places read otherwise), or
        be the best by the ratio asked for: a board no complete reading explains (misread
        beyond that, or not this game) is not settled. Unless the turn is known to be `over`
        (the dice picked up), only a reading the evidence decides is."""
        if self._state not in (TurnState.DECIDING, TurnState.OPPONENT_ROLLED) or \
                not self.scales.ready:
            return
        game = self.game
        by_roll = game.dice is None  # the dice were never read: every roll is weighed
        weighing = self._weigh(list(ROLLS) if by_roll else None)
        readings = [c for c in (weighing.best, weighing.runner_up) if c is not None]
        decisive = weighing.log_ratio >= math.log(self.settings.ratio)
        chosen = next((c for c in readings if c.kind == "complete" and (
            self.scales.explains(c.board) or (c is weighing.best and decisive))), None)
        if not (over or weighing.decided):
            return
        if chosen is None:
            return
        other = next((c.reading for c in readings if c is not chosen), "nothing else")
        turn = sum(1 for a in game.record if a.kind == "move") + 1
        self.bus.emit("settled", f"turn {turn}: recorded {chosen.reading}, likelier than "
                      f"{other}; check it", turn=turn, readings=[chosen.reading, other])
        self._record(chosen, inferred=by_roll, checked=True)
        self._go_on()

    def _say_unsure(self, weighing: Weighing) -> None:
        """Two readings stay close: show the points in doubt and both readings, once."""
        said = self._unsure
        if said is not None and {said.best, said.runner_up} == {weighing.best,
                                                                weighing.runner_up}:
            return
        self._unsure = weighing
        self._problem = None
        readings = [weighing.best.reading, weighing.runner_up.reading]
        where = ", ".join(str(p) for p in weighing.doubt) or "the dice"
        self.bus.emit("unsure", f"unsure of {where}: {readings[0]} or {readings[1]}? press "
                      "confirm for the first, or touch up the stack",
                      points=list(weighing.doubt), readings=readings,
                      ratio=round(math.exp(min(weighing.log_ratio, 50.0)), 2))

    def _record(self, candidate: Candidate, inferred: bool = False,
                checked: bool = False) -> None:
        """Record a candidate the evidence (or the player's confirm) decided; `inferred`: its
        roll was read from the play, not from dice seen; `checked`: it was in doubt, and the
        next turn checks it (`_revisit`) against its likeliest other boards."""
        game = self.game
        if candidate.kind != "complete":
            return
        doubts = self.scales.likeliest(DOUBTS, but=candidate.board) \
            if checked and candidate.play is not None else []
        revisited = self._revisit(candidate)
        if revisited is not candidate:  # weighed from another position: its doubts were not
            candidate, doubts = revisited, []
        if candidate.roll != game.dice:
            if game.dice is not None:
                game.undo()  # the dice read first were not the dice the whole turn shows
            game.roll(*candidate.roll)
            how = "read from the play" if inferred else "read from the whole turn"
            self.bus.emit("dice", f"{game.turn.key} rolled {candidate.roll[0]}"
                          f"{candidate.roll[1]} ({how})", color=game.turn.key,
                          dice=list(candidate.roll), **({"inferred": True} if inferred else {}))
        self._problem = None
        self._commit(candidate.play, inferred=inferred)
        if doubts:
            self._doubt = (doubts, game.record[-1])
        waiting, self._waiting = self._waiting, []
        for name in waiting:
            self.press(name)

    def _revisit(self, candidate: Candidate) -> Candidate:
        """The turn before this one was recorded in doubt: when this turn's frames fit a play
        of its roll from the position one of that turn's likeliest other boards leaves better
        by the ratio asked for, that board's play (and roll: a die misread in every frame) was
        the one played. It is recorded instead (the turn taken back, the take-back and, for
        another roll, the roll's journalled) and said, and this turn's best from there is
        returned."""
        doubt, self._doubt = self._doubt, None
        game = self.game
        if doubt is None or not game.record or game.record[-1] != doubt[1]:
            return candidate
        opening = not any(a.kind == "move" for a in game.record[:-1])
        fits = []
        for alt in doubt[0]:
            if opening and alt.roll != doubt[1].dice:
                continue  # the opening roll is one die each, read apart
            self.scales.new_turn()  # the candidates weighed last started elsewhere
            other = self.scales.weigh(alt.play.position, None, [candidate.roll],
                                      self.settings.ratio).best
            if other.kind == "complete":
                fits.append((self.scales.fit(other.board), alt, other))
        best = max(fits, key=lambda f: f[0], default=None)
        if best is None or best[0] - self.scales.fit(candidate.board) < \
                math.log(self.settings.ratio):
            return candidate
        _, alt, other = best
        settled, rolled = game.record[-1], game.dice
        if rolled is not None:
            game.undo()  # this turn's roll, rolled again below
        game.undo()  # the settled play: its roll stays
        self._log({"type": "undo"})
        if alt.roll != settled.dice:
            game.undo()  # ... unless the play was another roll's
            self._log({"type": "undo"})
            game.roll(*alt.roll)
        game.move(alt.play)
        self._log({"type": "turn", "color": settled.color.key, "dice": list(alt.roll),
                   "move": alt.play.move})
        turn = sum(1 for a in game.record if a.kind == "move")
        was = f"{settled.dice[0]}{settled.dice[1]}: {settled.play.move}"
        self.bus.emit("settled", f"turn {turn}: the next turn shows {alt.reading}, not {was}; "
                      "recorded again", turn=turn, readings=[alt.reading, was])
        if rolled is not None:
            game.roll(*rolled)
        self.judge = TurnJudge(game.board, game.dice) if game.dice is not None else None
        return other

    def _go_on(self) -> None:
        """After a turn decided late: the next roll may already lie on the board."""
        v = self.view_now
        if v is not None and self.game.result is None and self.game.dice is None and \
                len(v.dice) == 2 and all(self._half_owner(d) is self.game.turn for d in v.dice):
            self._await_roll(v)

    def _read_from_play(self, v: StableView) -> bool:
        """The opponent has rolled on a board that exactly one roll's legal play reaches (or
        several, or a pass, one of them most like the dice seen), though the mover's dice were
        not read (or read as others): record that roll and play. At the opening the mover is
        whoever did not roll now. Fed frame by frame, the session weighs every roll's plays
        instead (`_read_by_weighing`), from one die of the opponent's too (a lamp can wash out
        the other in every frame), unless nothing moved and no die of the mover's was seen:
        those are the last roller's dice still lying."""
        game = self.game
        owners = {self._half_owner(d) for d in v.dice}
        if not (self.settings.infer_dice and len(v.dice) in (1, 2) and len(owners) == 1) or \
                None in owners:
            return False
        mover = owners.pop().other
        started = game.state.started
        if started and (mover is not game.turn or
                        (game.dice is not None and self._opening_turn())):
            return False  # not the mover's turn, or the opening roll was read
        if started and self._feed is Feed.FRAMES:
            moved = v.board != board_of(game.board)
            return bool(moved or self.scales.dice_seen) and self._read_by_weighing()
        if len(v.dice) != 2:
            return False
        found = rolls_reaching(game.board if started else replace(game.board, turn=mover),
                               v.board)
        if not started:  # the opening roll is one die each: never a double, never a pass
            found = [(roll, play) for roll, play in found if roll[0] != roll[1] and play]
        if len(found) > 1 or (found and found[0][1] is None):  # several rolls, or a pass
            found = self._most_like_seen(found)
        if len(found) != 1 or found[0][0] == game.dice:
            return False
        roll, play = found[0]
        if not started:
            game.opening(*(roll if mover is WHITE else roll[::-1]))
        else:
            if game.dice is not None:
                game.undo()  # the dice read were not the dice played
            game.roll(*roll)
        self._problem = None
        self.bus.emit("dice", f"{game.turn.key} rolled {roll[0]}{roll[1]} (read from the play)",
                      color=game.turn.key, dice=list(roll), inferred=True)
        self._commit(play, inferred=True)
        return True

    def _read_by_weighing(self) -> bool:
        """Weigh the plays of every roll on the frames since the last hand, with the dice seen
        over the turn and each roll's chance; record the best when the evidence decides (a
        pass only with a die of its roll seen)."""
        self._step("over")  # the opponent has rolled: a hand from now on leaves only confirm
        self._step("opponent_rolled")
        if not self.scales.ready or self._state is TurnState.STALE:
            return False
        weighing = self._weigh(list(ROLLS))
        if weighing.decided and (weighing.best.play is not None or self.scales.dice_seen):
            self._record(weighing.best, inferred=True)
            return True
        if weighing.close(self.settings.ratio):
            self._say_unsure(weighing)
        return False

    def _opening_turn(self) -> bool:
        """Whether no play has been made yet this game (the dice are the opening roll's)."""
        return not any(a.kind == "move" for a in self.game.record)

    def _most_like_seen(self, found: list) -> list:
        """The rolls in `found` that share the most dice (at least one) with those seen this
        turn."""
        def shared(roll) -> int:
            return sum((Counter(roll) & Counter(self._seen)).values())
        best = max((shared(roll) for roll, _ in found), default=0)
        return [(roll, play) for roll, play in found if shared(roll) == best >= 1]

    def _finish_turn(self) -> bool:
        """The opponent acts (doubles): the mover's complete play on the board ends the turn.
        False when the turn is over but the evidence has not decided it yet, or when the
        mover's dice were never read but a hand has been over the board since the last turn
        was recorded and the frames since show a place the position the turn began with does
        not explain (the turn is read from the play once the next dice lie)."""
        if self.view_now is None:
            return True
        if self.judge is None:
            return not (self.game.state.started and self.scales.ready and
                        self.scales.touched) or \
                self.scales.explains(board_of(self.game.board), most=0)
        if self._feed is Feed.FRAMES and self._state.over:
            return self._decide()
        judged = self.judge.judge(self.view_now.board)
        if judged.kind == "complete":
            self._commit(judged.play)
        return True

    def _trouble(self, judged: Reconciliation, t: float) -> None:
        key = (judged.kind, judged.reason, judged.points)
        if self._problem is None or (self._problem[0].kind, self._problem[0].reason,
                                     self._problem[0].points) != key:
            self._problem = (judged, t, False)

    # --- recording ---------------------------------------------------------------------------
    def _commit(self, play, inferred: bool = False) -> None:
        game = self.game
        color, dice = game.turn, game.dice
        opening = len(game.record) == 0
        game.move(play)
        move = play.move if play else None
        record = {"type": "turn", "color": color.key, "dice": list(dice), "move": move}
        if opening:
            record["opening"] = True
        if inferred:
            record["inferred"] = True
        self._log(record)
        self.scales.committed(board_of(game.board))
        self._complete_since = None
        self._last_judged = None
        self._seen = ()
        self.judge = None
        self._reset_weighing()
        text = f"{color.key} {dice[0]}{dice[1]}: {move or '(no move)'}"
        self.bus.emit("committed", text, color=color.key, dice=list(dice), move=move)
        if game.result is not None:
            self._game_over()

    def _reset_weighing(self) -> None:
        """A new turn (or the same again): nothing weighed yet."""
        self.scales.new_turn()
        self._unsure = None
        self._step("new_turn")

    def _game_over(self) -> None:
        result = self.game.result
        score = list(self.match.score)
        kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[result.multiplier]
        self.bus.emit("game_over", f"{result.winner.key} wins {kind}, {result.points} point"
                      f"{'s' if result.points != 1 else ''}", winner=result.winner.key,
                      points=result.points, score=score)
        winner = self.match.winner()
        if winner is not None:
            self.bus.emit("match_over", f"{winner.key} wins the match {score[0]}-{score[1]}",
                          winner=winner.key, score=score)

    def _maybe_takeback(self, v: StableView) -> bool:
        """The board shows the position before the last committed turn: take it back."""
        game = self.game
        if not self.settings.takebacks or not game.record or v.dice or game.dice is not None:
            return False
        if game.record[-1].kind != "move":
            return False
        before = game.before_last
        if v.board != board_of(before) or v.board == board_of(game.board):
            return False
        self.take_back()
        return True

    def take_back(self) -> None:
        """Undo the last committed turn: its player plays the same dice again."""
        game = self.game
        if not game.record or game.record[-1].kind != "move" or game.result is not None:
            raise IllegalAction("there is no turn to take back")
        if game.dice is not None:
            raise IllegalAction(f"{game.turn.key} has rolled {game.dice[0]}-{game.dice[1]}: a "
                                "play can be taken back only before the next roll")
        if not self.settings.takebacks:
            raise IllegalAction("take-backs are off")
        game.undo()
        self._log({"type": "undo"})
        self.judge = TurnJudge(game.board, game.dice)
        self._reset_weighing()
        self.bus.emit("takeback", f"{game.turn.key} takes back the last play",
                      color=game.turn.key, dice=list(game.dice))

    def _log(self, record: dict) -> None:
        """Journal a record (with the time of the board view) before it is announced."""
        if self.journal is None:
            return
        if self.view_now is not None:
            record["t"] = self.view_now.t
        had_error = self.journal.error
        if not self.journal.append(record):
            self.bus.emit("status", self.journal.error, part="journal", ok=False,
                          detail=self.journal.error)
        elif had_error:
            self.bus.emit("status", "journal written again", part="journal", ok=True,
                          detail="")

    # --- geometry ----------------------------------------------------------------------------
    def _half_owner(self, d) -> Color | None:
        """Whose right half a die lies on (None: on the bar)."""
        return self._side(d.x)

    def _side(self, x: float) -> Color | None:
        """Whose right half field x is on (None: the bar)."""
        if abs(x - 0.5) < self.settings.bar_width / 2:
            return None
        high = x > 0.5
        return WHITE if high == self.settings.white_right_high else WHITE.other

    def _bad_roll(self, v: StableView, roller: Color) -> str | None:
        if any(d.cocked for d in v.dice):
            return "a die is cocked"
        if any(self._half_owner(d) is not roller for d in v.dice):
            return "the dice must land on the roller's right half"
        return None
