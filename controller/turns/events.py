"""The one stream of events the session emits, for every consumer (LEDs, recorder, web, console).

Points in event data are in White's numbering (1..24), with "bar" and "off" where they apply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

KINDS = (
    "opening_tie",   # equal opening dice: both roll again
    "dice",          # dice read and accepted: data {"color", "dice"}
    "roll_again",    # a die is cocked or off the roller's right half: data {"reason"}
    "no_move",       # the roll cannot be played: pick up the dice to pass
    "in_progress",   # part of a legal play is on the board
    "complete",      # the board shows a complete legal play: data {"move"}
    "committed",     # a turn is recorded: data {"color", "dice", "move"} (move None = pass)
    "illegal",       # the board shows an illegal play: data {"reason", "points"}
    "mismatch",      # the board does not match the game: data {"points", "corrections"}
    "unsure",        # two readings stay close: data {"points" in doubt, "readings", "ratio"}
    "settled",       # an unsure turn recorded as the likelier reading once the game moved on:
                     # data {"turn" (its number in the game), "readings" (recorded first)}
    "takeback",      # the last turn was taken back
    "double", "take", "drop",
    "game_over",     # data {"winner", "points", "score"}
    "match_over",    # data {"winner", "score"}
    "new_game",      # a new game has started: data {"number", "score"}
    "status",        # a part changed state: data {"part": camera|link|journal, "ok", "detail"}
)


@dataclass(frozen=True)
class Event:
    """Something that happened, in words for people (`text`) and data for machines."""

    kind: str
    text: str
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, **self.data}


class EventBus:
    """Delivers each event to every subscriber, in the order they subscribed."""

    def __init__(self) -> None:
        self._subscribers: list[Callable[[Event], None]] = []
        self.history: list[Event] = []

    def subscribe(self, handler: Callable[[Event], None]) -> None:
        self._subscribers.append(handler)

    def emit(self, kind: str, text: str, **data) -> Event:
        if kind not in KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        event = Event(kind, text, data)
        self.history.append(event)
        for handler in self._subscribers:
            handler(event)
        return event
