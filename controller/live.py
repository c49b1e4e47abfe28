"""The live state of a session, for viewers (the web page): a thread-safe snapshot, a version
number that changes with it, and a queue of button presses back to the session.

The play loop owns the session; viewers read `snapshot()` and wait with `wait(version)`.
"""

from __future__ import annotations

import queue
import threading
from collections import deque

import numpy as np

from ..engine.game import Match
from ..engine.ids import match_id, position_id
from ..engine.matfile import write_mat
from ..engine.sgf import write_sgf
from .turns.events import Event

BUTTONS = ("double", "take", "pass", "undo", "confirm")


class LiveState:
    """What viewers see. Fed by the play loop: `event()` (subscribe it to the EventBus),
    `frame()` for camera pictures, `leds()`, `status()`; buttons come back via `presses`."""

    def __init__(self, match: Match, names: tuple[str, str] = ("White", "Black")) -> None:
        self.match = match
        self.names = names
        self.presses: queue.Queue[str] = queue.Queue()
        self._lock = threading.Condition()
        self._version = 0
        self._events: deque[dict] = deque(maxlen=50)
        self._leds: list[list[int]] = []
        self._status: dict[str, str] = {}
        self._tutor: dict | None = None
        self._jpeg: bytes | None = None
        self._image: np.ndarray | None = None
        self._observation: dict | None = None
        self._unsure: dict | None = None  # the readings the session cannot tell apart

    # --- fed by the play loop ------------------------------------------------------------
    def event(self, event: Event) -> None:
        with self._lock:
            self._events.append(event.to_dict())
            if event.kind == "unsure":
                self._unsure = {k: event.data[k] for k in ("points", "readings")}
            elif event.kind in ("committed", "dice", "takeback", "new_game"):
                self._unsure = None
            self._changed()

    def frame(self, image: np.ndarray, observation: dict | None = None) -> None:
        """The latest camera picture (BGR) and what was read from it."""
        import cv2

        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        with self._lock:
            if ok:
                self._jpeg = jpeg.tobytes()
            self._image = image
            self._observation = observation
            self._changed()

    def leds(self, colours: list) -> None:
        with self._lock:
            self._leds = [list(c) for c in colours]
            self._changed()

    def status(self, **parts: str) -> None:
        """Part statuses, e.g. camera="ok", link="reconnecting"."""
        with self._lock:
            self._status.update(parts)
            self._changed()

    def tutor(self, advice: dict | None) -> None:
        with self._lock:
            self._tutor = advice
            self._changed()

    def _changed(self) -> None:
        self._version += 1
        self._lock.notify_all()

    # --- read by viewers -----------------------------------------------------------------
    def press(self, button: str) -> None:
        """A button pressed on a viewer; ValueError for an unknown one."""
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (one of {', '.join(BUTTONS)})")
        self.presses.put(button)

    def wait(self, version: int, timeout: float = 15.0) -> int:
        """Block until the state is newer than `version` (or the timeout); the new version."""
        with self._lock:
            self._lock.wait_for(lambda: self._version != version, timeout)
            return self._version

    def jpeg(self) -> bytes | None:
        with self._lock:
            return self._jpeg

    def image(self) -> np.ndarray | None:
        """The latest camera picture itself (BGR), as `frame()` got it: for the calibrate
        view."""
        with self._lock:
            return self._image

    def match_file(self, kind: str) -> str:
        """The match so far as .mat or .sgf text."""
        with self._lock:
            return write_sgf(self.match, self.names) if kind == "sgf" else \
                write_mat(self.match, self.names)

    def snapshot(self) -> dict:
        """Everything a viewer shows, as JSON-ready data (the match as `match_facts`)."""
        with self._lock:
            return {
                "version": self._version,
                **match_facts(self.match, self.names),
                "events": list(self._events),
                "leds": self._leds,
                "status": dict(self._status),
                "tutor": self._tutor,
                "observation": self._observation,
                "unsure": self._unsure,
            }


def match_facts(match: Match, names: tuple[str, str]) -> dict:
    """The match as viewers show it (players, position and its IDs, dice, on roll, cube,
    score, the current game's moves), as JSON-ready data. The game is read from one of its
    immutable states, so the parts agree while the play loop moves on."""
    state = match.games[-1].state
    board = state.position
    owner, offered = board.cube_owner, state.doubled_by  # White is 0: test for None
    moves = [{"color": a.color.key, "kind": a.kind, "dice": a.dice,
              "move": a.play.move if a.play else None, "cube": a.cube}
             for a in state.record]
    return {
        "players": list(names),
        "position": board.to_dict(),
        "position_id": position_id(board),
        "match_id": match_id(match.state()),
        "dice": list(state.dice) if state.dice else None,
        "turn": board.turn.key if state.started else None,
        "cube": {"value": board.cube,
                 "owner": owner.key if owner is not None else None,
                 "offered_by": offered.key if offered is not None else None},
        "match_length": match.length,
        "score": list(match.score),
        "game_number": len(match.games),
        "moves": moves,
    }
