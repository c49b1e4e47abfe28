"""The board's answer: session events shown with the LEDs and the cube (hardware.signals)."""

from __future__ import annotations

from ..engine.game import Match
from ..hardware import signals
from ..hardware.display import Display
from ..hardware.led_pattern import LedPattern
from .turns.events import Event


class Lights:
    """Subscribe to the session's EventBus; each event becomes an LED pattern on `display`."""

    def __init__(self, display: Display, match: Match) -> None:
        self.display = display
        self.match = match

    def base(self) -> LedPattern:
        """Whose turn it is and the cube, under every other meaning."""
        game = self.match.games[-1]
        board = game.board
        pattern = signals.cube(board.cube, board.cube_owner)
        if game.result is None and game.state.started:
            pattern = signals.turn(game.turn) | pattern
        return pattern

    def __call__(self, event: Event) -> None:
        game = self.match.games[-1]
        data = event.data
        kind = event.kind
        top = None
        if kind == "dice" or kind == "takeback":
            top = signals.dice_accepted(game.turn)
        elif kind == "roll_again":
            top = signals.roll_again(game.turn)
        elif kind == "illegal" and data.get("points"):
            top = signals.illegal_move(data["points"])
        elif kind == "unsure":
            top = signals.unsure(data["points"] or [f"play {game.turn.key}"])  # or the dice
        elif kind == "mismatch":
            top = signals.mismatch([tuple(m) for m in data["corrections"]])
        elif kind == "status" and data.get("part") == "field":
            top = signals.field_moved() if data["ok"] else signals.field_lost()
        elif kind == "game_over":
            score = dict(zip(("white", "black"), data["score"], strict=True)) \
                if self.match.length else None
            top = signals.game_over(data["winner"], data["points"], score)
        pattern = self.base()
        self.display.show(pattern if top is None else pattern | top)
