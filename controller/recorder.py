"""Offline recording: frames -> Observations -> stable views -> the session -> a match file."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from ..engine.game import Match
from ..engine.matfile import write_mat
from ..engine.sgf import write_sgf
from .follow import Follower, settings_for
from .turns.events import EventBus
from .turns.journal import Journal
from .turns.session import Session, Settings


@dataclass
class Recording:
    """What a recording run did: the match, the events, and the frames it could not read."""

    match: Match
    bus: EventBus
    frames: int = 0
    unreadable: list[tuple[int, str]] = field(default_factory=list)


def record(frames: Iterable[np.ndarray], read: Callable[[np.ndarray], dict], *,
           calibration: dict, fps: float = 10.0, match: Match | None = None,
           buttons: dict[int, str] | None = None, journal: Journal | None = None,
           bus: EventBus | None = None, window: int = 5) -> Recording:
    """Run a whole recording into `match` (default: a new money game). `read` turns a frame
    into an Observation; `buttons` maps frame numbers to button names (double, take, pass,
    undo)."""
    def observed() -> Iterator[tuple[float, dict | ValueError]]:
        for index, frame in enumerate(frames):
            try:
                yield index / fps, read(frame)
            except ValueError as exc:
                yield index / fps, exc

    return follow(observed(), settings_for(calibration), match=match, buttons=buttons,
                  journal=journal, bus=bus, window=window)


def follow(observations: Iterable[tuple[float, dict | ValueError]], settings: Settings, *,
           match: Match | None = None, buttons: dict[int, str] | None = None,
           journal: Journal | None = None, bus: EventBus | None = None,
           window: int = 5) -> Recording:
    """Run a stream of (t, Observation) into `match`, frame by frame (an exception in place of
    an Observation: a frame that could not be read). `buttons` maps frame numbers (the place
    in the stream, from 0) to button names."""
    bus = bus or EventBus()
    match = match if match is not None else Match()
    session = Session(match, bus, journal, settings)
    follower = Follower(session, window)
    result = Recording(match, bus)
    buttons = {} if buttons is None else buttons
    for index, (t, obs) in enumerate(observations):
        if index in buttons:
            session.press(buttons[index])
        if isinstance(obs, Exception):
            result.unreadable.append((index, str(obs)))
            continue
        follower.frame(obs, t)
        result.frames = index + 1
    session.finish()
    return result


def write_match(match: Match, path, names: tuple[str, str]) -> None:
    """Write the match as .mat or .sgf, chosen by the file name."""
    text = write_sgf(match, names) if str(path).endswith(".sgf") else write_mat(match, names)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
