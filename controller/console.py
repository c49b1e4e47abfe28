"""The console: committed turns and game results printed as they happen, a turn recorded in
doubt ("settled") said on stderr, and a progress bar on a terminal for long work."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator

from ..engine.game import Match
from .turns.events import Event, EventBus

_SHOWN = ("committed", "game_over", "match_over", "new_game", "double", "take", "drop",
          "takeback", "status", "unsure")


def summary(match: Match) -> str:
    games = len(match.games)
    turns = sum(1 for g in match.games for a in g.record if a.kind == "move")
    white, black = match.score
    return f"{games} game{'s' if games != 1 else ''}, {turns} turns, score {white}-{black}"


class Console:
    """Prints the events people care about; shows progress on a terminal (tqdm)."""

    def __init__(self, total: int | None = None, out=None) -> None:
        self.bus = EventBus()
        self.bus.subscribe(self._print)
        self.total = total
        self.out = out or sys.stdout  # the stream of the moment, not of the import
        self._bar = None

    def _print(self, event: Event) -> None:
        if event.kind in _SHOWN or event.kind == "settled":
            out = sys.stderr if event.kind == "settled" else self.out
            if self._bar is not None:
                self._bar.write(event.text, file=out)
            else:
                print(event.text, file=out, flush=True)

    def progress(self, frames: Iterable) -> Iterator:
        """The frames, with a progress bar on stderr when it is a terminal."""
        if not sys.stderr.isatty():
            yield from frames
            return
        from tqdm import tqdm

        self._bar = tqdm(frames, total=self.total, unit="frame", file=sys.stderr)
        yield from self._bar

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
