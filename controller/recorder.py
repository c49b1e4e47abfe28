"""Offline recording: frames -> Observations -> stable views -> the session -> a match file."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from ..engine.game import Match
from ..engine.matfile import write_mat
from ..engine.sgf import write_sgf
from .events import EventBus
from .journal import Journal
from .script import white_right_high
from .session import Session, Settings
from .stabilizer import Stabilizer


@dataclass
class Recording:
    """What a recording run did: the match, the events, and the frames it could not read."""

    match: Match
    bus: EventBus
    frames: int = 0
    unreadable: list[tuple[int, str]] = field(default_factory=list)


def settings_for(calibration: dict, **changes) -> Settings:
    """Session settings that follow from a calibration file's dict."""
    geometry = calibration.get("geometry", {})
    return Settings(white_right_high=white_right_high(calibration["corners_px"]),
                    bar_width=geometry.get("bar_width", 0.07), **changes)


def record(frames: Iterable[np.ndarray], read: Callable[[np.ndarray], dict], *,
           calibration: dict, fps: float = 10.0, match: Match | None = None,
           buttons: dict[int, str] | None = None, journal: Journal | None = None,
           bus: EventBus | None = None, window: int = 5) -> Recording:
    """Run a whole recording into `match` (default: a new money game). `read` turns a frame
    into an Observation; `buttons` maps frame numbers to button names (double, take, pass,
    undo)."""
    bus = bus or EventBus()
    match = match if match is not None else Match()
    session = Session(match, bus, journal, settings_for(calibration))
    stabilizer = Stabilizer(window)
    result = Recording(match, bus)
    buttons = buttons or {}
    for index, frame in enumerate(frames):
        t = index / fps
        if index in buttons:
            session.press(buttons[index])
        try:
            obs = read(frame)
        except ValueError as exc:
            result.unreadable.append((index, str(exc)))
            continue
        view = stabilizer.feed(obs, t)
        if view is not None:
            session.view(view)
        session.tick(t)
        result.frames = index + 1
    return result


def write_match(match: Match, path, names: tuple[str, str]) -> None:
    """Write the match as .mat or .sgf, chosen by the file name."""
    text = write_sgf(match, names) if str(path).endswith(".sgf") else write_mat(match, names)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
