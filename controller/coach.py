"""The tutor at the board: session events start the tutor's work; its hints, verdicts and
cube advice come back to the LEDs, the web view and the journal."""

from __future__ import annotations

import queue

from ..engine.game import Match
from .turns.events import Event
from .tutor import CubeHint, Failed, Hint, Tutor, Verdict


class Coach:
    """Subscribe to the session's EventBus and call `drain()` from the play loop."""

    def __init__(self, tutor: Tutor, match: Match, show=None, publish=None, log=None) -> None:
        self.tutor = tutor
        self.match = match
        self.results: queue.Queue = queue.Queue()
        tutor.on_result = self.results.put
        self.show = show or (lambda frame: None)
        self.publish = publish or (lambda advice: None)
        self.log = log or (lambda record: None)
        self._before = None
        self.outstanding = 0  # questions asked and not yet answered

    def _ask(self, queued: bool) -> None:
        self.outstanding += bool(queued)

    def __call__(self, event: Event) -> None:
        game = self.match.games[-1]
        if event.kind == "dice":
            self._before = game.board
            self._ask(self.tutor.dice_read(game.board, game.dice))
        elif event.kind == "complete" and self._before is not None:
            play = next(p for p in self._plays() if p.move == event.data["move"])
            self._ask(self.tutor.play_settled(self._before, game.dice, play))
        elif event.kind in ("committed", "take") and game.result is None:
            if game.dice is None and game.may_double() is None:
                self._ask(self.tutor.before_roll(game.board))
        elif event.kind == "new_game":
            self.tutor.new_game()

    def _plays(self):
        return self.match.games[-1].legal_plays()

    def drain(self, wait: float = 0.0) -> None:
        """Show the results that are still about the game as it stands; with `wait`, first
        wait up to that long for every outstanding answer."""
        while True:
            try:
                result = self.results.get(timeout=wait) if wait and self.outstanding \
                    else self.results.get_nowait()
            except queue.Empty:
                return
            self.outstanding -= 1
            game = self.match.games[-1]
            if isinstance(result, Failed):
                self.publish({"kind": "failed", "reason": result.reason})
            elif isinstance(result, Hint) and result.position == game.board and game.dice:
                self.show(result.frame())
                self.publish({"kind": "hint", "player": result.color.key, "best": result.best,
                              "engine": result.engine, "hints_left": result.hints_left})
            elif isinstance(result, Verdict) and result.position == self._before:
                self.log({"type": "tutor", **result.to_dict()})
                if result.warn:
                    self.show(result.frame())
                self.publish({"kind": "verdict", **result.to_dict(), "warn": result.warn})
            elif isinstance(result, CubeHint) and result.position == game.board:
                self.publish({"kind": "cube", "player": result.color.key,
                              "advice": result.advice.action, "engine": result.engine})
